import { Expo, type ExpoPushTicket } from 'expo-server-sdk';
import { Agent, type Dispatcher } from 'undici';
import type { PushMessage, PushProviderPort, PushResult } from './push-provider.port.js';

/** Sends every request of the Expo client to `base` (Expo's API, or a stand-in for it on loopback). */
class RebasedAgent extends Agent {
  constructor(private readonly base: string) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return super.dispatch({ ...options, origin: this.base }, handler);
  }
}

/**
 * Expo's push service through `expo-server-sdk` (docs/operations.md, "Notifications"). Expo answers
 * a ticket per message; a ticket with `details.error = DeviceNotRegistered` means the app was
 * uninstalled or the token revoked, and the token is pruned.
 */
export class ExpoPushAdapter implements PushProviderPort {
  readonly name = 'expo' as const;
  readonly configured = true;
  readonly detail: string;
  private readonly expo: Expo;

  constructor(options: { url: string; accessToken: string | undefined }) {
    const base = new URL(options.url).origin;
    this.expo = new Expo({
      httpAgent: new RebasedAgent(base),
      maxConcurrentRequests: 4,
      ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    });
    this.detail = `Expo push API at ${base}${options.accessToken ? ', with an access token' : ''}`;
  }

  validToken(token: string): boolean {
    return Expo.isExpoPushToken(token);
  }

  async send(token: string, message: PushMessage): Promise<PushResult> {
    let ticket: ExpoPushTicket | undefined;
    try {
      [ticket] = await this.expo.sendPushNotificationsAsync([
        { to: token, title: message.title, body: message.body, data: { ...message.data }, sound: 'default' },
      ]);
    } catch (err) {
      return { ok: false, error: `expo request failed: ${(err as Error).message}`, invalidToken: false, answer: null };
    }
    if (!ticket) return { ok: false, error: 'expo answered no ticket', invalidToken: false, answer: null };
    if (ticket.status === 'ok') return { ok: true, answer: `ticket ${ticket.id}` };
    const code = ticket.details?.error ?? 'error';
    return {
      ok: false,
      error: `${code}: ${ticket.message}`,
      invalidToken: code === 'DeviceNotRegistered',
      answer: JSON.stringify(ticket),
    };
  }
}
