/** What an endpoint answered: its HTTP status. */
export interface WebhookResponse {
  readonly status: number;
}

/**
 * Sends webhook deliveries over HTTP. `post` rejects when the endpoint cannot be reached (DNS,
 * connection, timeout) or its address is forbidden; any HTTP answer resolves.
 */
export interface WebhookSenderPort {
  post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<WebhookResponse>;
  /** Why `url` may not receive deliveries (a private address in production, …), or null when it may. */
  checkTarget(url: string): Promise<string | null>;
}
