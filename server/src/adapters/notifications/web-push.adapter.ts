import type { Agent } from 'node:https';
import webpush, { WebPushError, type PushSubscription } from 'web-push';
import type { PushMessage, PushProviderPort, PushResult } from './push-provider.port.js';

function subscription(token: string): PushSubscription | undefined {
  try {
    const s = JSON.parse(token) as Partial<PushSubscription>;
    if (typeof s.endpoint !== 'string' || !/^https?:\/\//.test(s.endpoint)) return undefined;
    if (typeof s.keys?.p256dh !== 'string' || typeof s.keys.auth !== 'string') return undefined;
    return s as PushSubscription;
  } catch {
    return undefined;
  }
}

/**
 * Web Push (VAPID) through `web-push` (docs/operations.md, "Notifications"). The token is the
 * browser's PushSubscription as JSON; the push service answers 404 or 410 for a subscription that
 * is gone, and the token is pruned.
 */
export class WebPushAdapter implements PushProviderPort {
  readonly name = 'webpush' as const;
  readonly configured: boolean;
  readonly detail: string;

  constructor(
    private readonly vapid: { publicKey: string | undefined; privateKey: string | undefined; subject: string },
    /** The TLS agent for push services (a private CA, a proxy); the default agent otherwise. */
    private readonly agent?: Agent,
  ) {
    this.configured = Boolean(vapid.publicKey && vapid.privateKey);
    this.detail = this.configured
      ? `VAPID keys set (public key ${vapid.publicKey?.slice(0, 12)}…), subject ${vapid.subject}`
      : 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set';
  }

  validToken(token: string): boolean {
    return subscription(token) !== undefined;
  }

  async send(token: string, message: PushMessage): Promise<PushResult> {
    const sub = subscription(token);
    if (!sub) return { ok: false, error: 'not a Web Push subscription', invalidToken: true, answer: null };
    if (!this.configured) return { ok: false, error: 'VAPID keys are not set', invalidToken: false, answer: null };
    try {
      const res = await webpush.sendNotification(sub, JSON.stringify(message), {
        vapidDetails: {
          subject: this.vapid.subject,
          publicKey: this.vapid.publicKey as string,
          privateKey: this.vapid.privateKey as string,
        },
        TTL: 3_600,
        timeout: 10_000,
        ...(this.agent ? { agent: this.agent } : {}),
      });
      return { ok: true, answer: `HTTP ${res.statusCode}` };
    } catch (err) {
      if (err instanceof WebPushError) {
        const gone = err.statusCode === 404 || err.statusCode === 410;
        return {
          ok: false,
          error: `HTTP ${err.statusCode}: ${err.body || err.message}`,
          invalidToken: gone,
          answer: err.body,
        };
      }
      return { ok: false, error: `web push failed: ${(err as Error).message}`, invalidToken: false, answer: null };
    }
  }
}
