import { beforeEach, describe, expect, it } from 'vitest';
import type { PushProviderPort, PushResult } from '../../adapters/notifications/push-provider.port.js';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ManualClock } from '../../platform/clock.js';
import type { NotificationRepository, NewDelivery, OutboxRow } from './notification.repository.js';
import { PushService } from './push.service.js';

/** A provider that answers what the test scripts for each token (ok by default) and records the sends. */
class ScriptedProvider implements PushProviderPort {
  sent: string[] = [];
  answers = new Map<string, PushResult>();
  constructor(
    readonly name: 'expo' | 'webpush' | 'outbox',
    readonly configured = true,
  ) {}
  readonly detail = 'scripted';
  validToken(token: string) {
    return this.name !== 'expo' || token.startsWith('ExponentPushToken[');
  }
  async send(token: string): Promise<PushResult> {
    this.sent.push(token);
    return this.answers.get(token) ?? { ok: true, answer: `ticket-${this.sent.length}` };
  }
}

interface Device {
  id: string;
  user_id: string;
  provider: 'expo' | 'webpush';
  token: string;
  status: 'active' | 'pruned' | 'removed';
}

let clock: ManualClock;
let repo: ReturnType<typeof repositoryMock<NotificationRepository>>;
let devices: Device[];
let deliveries: (NewDelivery & { id: string })[];
let outboxErrors: Map<string, string | null>;
let expo: ScriptedProvider;
let outbox: ScriptedProvider;

const notification = (userId = 'u1') => ({
  id: 'n1',
  userId,
  kind: 'prematch',
  title: 'Kick-off',
  body: 'in an hour',
  data: { fixtureId: '9' },
});

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 10, 28, 12));
  devices = [];
  deliveries = [];
  outboxErrors = new Map();
  expo = new ScriptedProvider('expo');
  outbox = new ScriptedProvider('outbox');
  repo = repositoryMock<NotificationRepository>();
  repo.activeDevices.mockImplementation(async (userId) =>
    devices
      .filter((d) => d.user_id === userId && d.status === 'active')
      .map((d) => ({ ...d, label: null, created_at: new Date(clock.now()) })),
  );
  repo.prune.mockImplementation(async (provider, token) => {
    const hit = devices.filter((d) => d.provider === provider && d.token === token && d.status === 'active');
    for (const d of hit) d.status = 'pruned';
    return hit.length;
  });
  repo.recordDelivery.mockImplementation(async (d) => {
    const row = { ...d, id: `d${deliveries.length + 1}` };
    deliveries.push(row);
    return row;
  });
  repo.outboxDone.mockImplementation(async (id, error) => void outboxErrors.set(id, error));
});

describe('push delivery', () => {
  it('sends to every active device, prunes the token the provider calls dead, and skips it afterwards', async () => {
    devices.push(
      { id: 'a', user_id: 'u1', provider: 'expo', token: 'ExponentPushToken[phone]', status: 'active' },
      { id: 'b', user_id: 'u1', provider: 'expo', token: 'ExponentPushToken[old]', status: 'active' },
    );
    expo.answers.set('ExponentPushToken[old]', {
      ok: false,
      error: 'DeviceNotRegistered',
      invalidToken: true,
      answer: '{}',
    });
    const push = new PushService(repo, [expo], outbox, clock);
    const first = await push.deliver(notification());
    expect(first.map((d) => [d.device_id, d.status, d.pruned])).toEqual([
      ['a', 'ok', false],
      ['b', 'error', true],
    ]);
    expect(first[0]?.created_at).toEqual(new Date(clock.now()));
    clock.advance(60_000);
    expo.sent = [];
    await push.send(notification());
    expect(expo.sent).toEqual(['ExponentPushToken[phone]']);
  });

  it('a failure that may pass on every device throws (the outbox tries again); one device reached is a delivery', async () => {
    devices.push({ id: 'a', user_id: 'u1', provider: 'expo', token: 'ExponentPushToken[busy]', status: 'active' });
    expo.answers.set('ExponentPushToken[busy]', { ok: false, error: 'HTTP 503', invalidToken: false, answer: null });
    const push = new PushService(repo, [expo], outbox, clock);
    const rows: OutboxRow[] = [{ id: 'o1', user_id: 'u1', kind: 'k', payload: { title: 't', body: 'b', data: {} } }];
    expect(await push.deliverClaimed(rows)).toBe(0);
    expect(outboxErrors.get('o1')).toBe('HTTP 503');
    expect(devices[0]?.status).toBe('active');

    devices.push({ id: 'c', user_id: 'u1', provider: 'expo', token: 'ExponentPushToken[ok]', status: 'active' });
    expect(await push.deliverClaimed(rows)).toBe(1);
    expect(outboxErrors.get('o1')).toBeNull();
  });

  it('a user without devices gets a delivery row saying so, and the outbox counts it delivered', async () => {
    const push = new PushService(repo, [expo], outbox, clock);
    const [row] = await push.deliver(notification('nobody'));
    expect(row).toMatchObject({ device_id: null, status: 'error', error: 'the user has no registered device' });
    await expect(push.send(notification('nobody'))).resolves.toBeUndefined();
  });

  it('without real providers the local outbox stands in for every device; a provider not configured is refused', async () => {
    devices.push({ id: 'w', user_id: 'u1', provider: 'webpush', token: '{"endpoint":"https://x"}', status: 'active' });
    const local = new PushService(repo, [], outbox, clock);
    expect((await local.deliver(notification()))[0]).toMatchObject({ provider: 'outbox', status: 'ok' });
    expect(outbox.sent).toEqual(['{"endpoint":"https://x"}']);

    const expoOnly = new PushService(repo, [expo], outbox, clock);
    expect((await expoOnly.deliver(notification()))[0]).toMatchObject({
      provider: 'webpush',
      status: 'error',
      error: 'webpush is not among PUSH_PROVIDERS on this deployment',
    });
    const unconfigured = new PushService(repo, [new ScriptedProvider('expo', false)], outbox, clock);
    await expect(
      unconfigured.test({ provider: 'expo', token: 'ExponentPushToken[x]', title: 't', body: 'b' }),
    ).rejects.toMatchObject({ code: 'PUSH_PROVIDER_NOT_CONFIGURED' });
  });

  it('registers only tokens of the provider’s shape, and unregisters only the caller’s own device', async () => {
    const push = new PushService(repo, [], outbox, clock);
    await expect(push.registerDevice('u1', { provider: 'expo', token: 'nope' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(push.registerDevice('u1', { provider: 'webpush', token: '{"endpoint":1}' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    repo.deviceOwner.mockResolvedValue('u2');
    await expect(push.unregisterDevice('u1', 'dev-of-u2')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(repo.removeDevice.mock.calls).toHaveLength(0);
  });
});
