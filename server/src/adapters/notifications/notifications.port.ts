/** A push notification to one user. */
export interface UserNotification {
  /** The outbox row's id: a provider that dedupes can use it; we may deliver it more than once. */
  readonly id: string;
  readonly userId: string;
  readonly kind: string;
  readonly title: string;
  readonly body: string;
  readonly data: Record<string, string>;
}

/** Push notifications to users. Delivered at least once from the outbox (docs/money.md). */
export interface NotificationsPort {
  readonly name: string;
  send(n: UserNotification): Promise<void>;
}
