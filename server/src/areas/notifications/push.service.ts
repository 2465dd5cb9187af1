import type { NotificationsPort, UserNotification } from '../../adapters/notifications/notifications.port.js';
import type {
  PushMessage,
  PushProviderName,
  PushProviderPort,
} from '../../adapters/notifications/push-provider.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import type { DeliveryRecord, NotificationRepository, OutboxRow } from './notification.repository.js';

/** A delivery as the contract shows it. */
export function toDelivery(d: DeliveryRecord) {
  return {
    id: d.id,
    notificationId: d.notification_id,
    userId: d.user_id,
    deviceId: d.device_id,
    provider: d.provider as PushProviderName,
    kind: d.kind,
    status: d.status,
    error: d.error,
    providerAnswer: d.provider_answer,
    pruned: d.pruned,
    createdAt: new Date(d.created_at).toISOString(),
  };
}

/**
 * Push notifications (docs/operations.md, "Notifications"): the one implementation of the
 * notifications port behind the outbox. A notification goes to every active device of its user
 * through the device's provider (the local outbox when the deployment has no real one); every send
 * is recorded with the provider's answer, and a token the provider calls dead is pruned.
 */
export class PushService implements NotificationsPort {
  readonly name = 'push';
  private readonly byName: Map<PushProviderName, PushProviderPort>;

  constructor(
    private readonly repo: NotificationRepository,
    /** The real providers this deployment uses; empty: everything goes to `outbox`. */
    private readonly providers: readonly PushProviderPort[],
    private readonly outbox: PushProviderPort,
    private readonly clock: Clock,
  ) {
    this.byName = new Map([[outbox.name, outbox], ...providers.map((p) => [p.name, p] as const)]);
  }

  /** The provider a device of `provider` is reached through. */
  private route(provider: 'expo' | 'webpush'): PushProviderPort | undefined {
    if (this.providers.length === 0) return this.outbox;
    return this.byName.get(provider);
  }

  /**
   * The port's send (the outbox's deliverers call it): throws when a device could not be reached
   * for a reason that may pass, so the outbox tries again; a user without devices is not an error.
   */
  async send(n: UserNotification): Promise<void> {
    const deliveries = await this.deliver(n);
    const transient = deliveries.filter((d) => d.status === 'error' && !d.pruned && d.device_id !== null);
    if (transient.length > 0 && transient.length === deliveries.length) {
      throw new Error(transient.map((d) => d.error).join('; '));
    }
  }

  /** Sends `n` to every active device of its user and records each delivery. */
  async deliver(n: UserNotification): Promise<DeliveryRecord[]> {
    const now = () => new Date(this.clock.now());
    const devices = await this.repo.activeDevices(n.userId);
    const base = { notification_id: n.id, user_id: n.userId, kind: n.kind };
    if (devices.length === 0) {
      return [
        await this.repo.recordDelivery({
          ...base,
          device_id: null,
          provider: 'outbox',
          status: 'error',
          error: 'the user has no registered device',
          provider_answer: null,
          pruned: false,
          created_at: now(),
        }),
      ];
    }
    const message: PushMessage = { title: n.title, body: n.body, data: { ...n.data, notificationId: n.id } };
    const out: DeliveryRecord[] = [];
    for (const device of devices) {
      const provider = this.route(device.provider);
      if (!provider) {
        out.push(
          await this.repo.recordDelivery({
            ...base,
            device_id: device.id,
            provider: device.provider,
            status: 'error',
            error: `${device.provider} is not among PUSH_PROVIDERS on this deployment`,
            provider_answer: null,
            pruned: false,
            created_at: now(),
          }),
        );
        continue;
      }
      const result = await provider.send(device.token, message);
      const pruned =
        !result.ok && result.invalidToken
          ? (await this.repo.prune(device.provider, device.token, result.error, now())) > 0
          : false;
      out.push(
        await this.repo.recordDelivery({
          ...base,
          device_id: device.id,
          provider: provider.name,
          status: result.ok ? 'ok' : 'error',
          error: result.ok ? null : result.error,
          provider_answer: result.answer,
          pruned,
          created_at: now(),
        }),
      );
    }
    return out;
  }

  /** Delivers the outbox rows `claimed` (already locked by this caller); how many were delivered. */
  async deliverClaimed(claimed: readonly OutboxRow[]): Promise<number> {
    let delivered = 0;
    for (const row of claimed) {
      try {
        await this.send({ id: row.id, userId: row.user_id, kind: row.kind, ...row.payload });
        await this.repo.outboxDone(row.id, null);
        delivered++;
      } catch (err) {
        await this.repo.outboxDone(row.id, (err as Error).message);
      }
    }
    return delivered;
  }

  /** The admin's direct send to a token (push/test): recorded like any delivery, a dead token pruned. */
  async test(input: { provider: PushProviderName; token: string; title: string; body: string }) {
    const provider = input.provider === 'outbox' ? this.outbox : this.byName.get(input.provider);
    if (!provider?.configured) {
      throw new DomainError('PUSH_PROVIDER_NOT_CONFIGURED', `${input.provider} is not configured on this deployment`, {
        details: { provider: input.provider, configured: this.providers.map((p) => p.name) },
      });
    }
    const now = new Date(this.clock.now());
    const result = await provider.send(input.token, { title: input.title, body: input.body, data: { test: 'true' } });
    const pruned =
      !result.ok && result.invalidToken && input.provider !== 'outbox'
        ? (await this.repo.prune(input.provider, input.token, result.error, now)) > 0
        : false;
    const delivery = await this.repo.recordDelivery({
      notification_id: null,
      user_id: null,
      device_id: null,
      provider: provider.name,
      kind: 'admin.push-test',
      status: result.ok ? 'ok' : 'error',
      error: result.ok ? null : result.error,
      provider_answer: result.answer,
      pruned,
      created_at: now,
    });
    return { delivery: toDelivery(delivery) };
  }

  async registerDevice(
    userId: string,
    input: { provider: 'expo' | 'webpush'; token: string; label?: string | undefined },
  ) {
    const provider = this.byName.get(input.provider);
    // Shape check by the provider's own rule, even where the outbox stands in for it.
    const shape = provider ?? (input.provider === 'expo' ? EXPO_SHAPE : WEBPUSH_SHAPE);
    if (!shape.validToken(input.token)) {
      throw new DomainError('VALIDATION_FAILED', `Not a valid ${input.provider} token`, {
        fieldErrors: {
          'body.token': [input.provider === 'expo' ? 'an Expo push token' : 'a PushSubscription as JSON'],
        },
      });
    }
    const d = await this.repo.upsertDevice({
      userId,
      provider: input.provider,
      token: input.token,
      label: input.label ?? null,
      now: new Date(this.clock.now()),
    });
    return { id: d.id, provider: d.provider, label: d.label, createdAt: new Date(d.created_at).toISOString() };
  }

  async unregisterDevice(userId: string, deviceId: string) {
    const owner = await this.repo.deviceOwner(deviceId);
    if (owner !== userId)
      throw new DomainError('NOT_FOUND', `No device ${deviceId} of yours`, { details: { deviceId } });
    const removed = await this.repo.removeDevice(userId, deviceId, new Date(this.clock.now()));
    return { deviceId, removed };
  }

  providerStatus() {
    const names: PushProviderName[] = ['expo', 'webpush'];
    return [
      ...names.map((name) => {
        const p = this.providers.find((x) => x.name === name);
        return {
          name,
          configured: p?.configured ?? false,
          detail: p
            ? p.detail
            : `not in PUSH_PROVIDERS${this.providers.length === 0 ? ' (the local outbox stands in)' : ''}`,
        };
      }),
      { name: 'outbox' as const, configured: true, detail: this.outbox.detail },
    ];
  }
}

const EXPO_SHAPE = { validToken: (t: string) => /^(ExponentPushToken|ExpoPushToken)\[[^\]]+\]$/.test(t) };
const WEBPUSH_SHAPE = {
  validToken: (t: string) => {
    try {
      const s = JSON.parse(t) as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } };
      return typeof s.endpoint === 'string' && typeof s.keys?.p256dh === 'string' && typeof s.keys.auth === 'string';
    } catch {
      return false;
    }
  },
};
