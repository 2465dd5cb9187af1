import type { PushMessage, PushProviderPort, PushResult } from './push-provider.port.js';

/**
 * The embedded default and the tests' provider: every push is kept here (newest last, bounded)
 * instead of leaving the machine, and answered as delivered. Deliveries are still recorded by the
 * dispatcher, so diagnostics read the same as with a real provider.
 */
export class OutboxPushAdapter implements PushProviderPort {
  readonly name = 'outbox' as const;
  readonly configured = true;
  readonly detail = 'local outbox: pushes are recorded and kept on this server, nothing is sent';
  readonly sent: { token: string; message: PushMessage }[] = [];

  validToken(token: string): boolean {
    return token.length > 0;
  }

  send(token: string, message: PushMessage): Promise<PushResult> {
    this.sent.push({ token, message });
    if (this.sent.length > 1_000) this.sent.shift();
    return Promise.resolve({ ok: true, answer: `kept in the local outbox (#${this.sent.length})` });
  }
}
