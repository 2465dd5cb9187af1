/** What a push shows. */
export interface PushMessage {
  readonly title: string;
  readonly body: string;
  readonly data: Readonly<Record<string, string>>;
}

/** A provider's answer to one send. `invalidToken`: the token is dead and must not be used again. */
export type PushResult =
  | { readonly ok: true; readonly answer: string }
  | { readonly ok: false; readonly error: string; readonly invalidToken: boolean; readonly answer: string | null };

export type PushProviderName = 'expo' | 'webpush' | 'outbox';

/** One push provider (Expo, Web Push, the local outbox). Sends never throw: failures are results. */
export interface PushProviderPort {
  readonly name: PushProviderName;
  /** Whether this deployment has what the provider needs (credentials, keys). */
  readonly configured: boolean;
  /** What the diagnostics say of its configuration (never a secret). */
  readonly detail: string;
  /** Whether `token` has the provider's shape (checked at registration). */
  validToken(token: string): boolean;
  send(token: string, message: PushMessage): Promise<PushResult>;
}
