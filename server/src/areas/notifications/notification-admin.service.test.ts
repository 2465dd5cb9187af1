import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import type {
  PushMessage,
  PushProviderName,
  PushProviderPort,
  PushResult,
} from '../../adapters/notifications/push-provider.port.js';
import { ManualClock } from '../../platform/clock.js';
import { NotificationAdminService } from './notification-admin.service.js';
import type { DeliveryRecord, DeviceRecord, NotificationRepository, OutboxRow } from './notification.repository.js';
import { PrematchService } from './prematch.service.js';
import { PushService } from './push.service.js';

const T0 = Date.UTC(2026, 5, 1, 12);

type Outbox = OutboxRow & { dedupeKey: string; status: 'pending' | 'delivered'; lastError: string | null };

/** A provider that answers what the test queues per token (ok by default) and keeps what it was sent. */
function provider(name: PushProviderName, answers: Map<string, PushResult>) {
  const sent: { token: string; message: PushMessage }[] = [];
  const port: PushProviderPort = {
    name,
    configured: true,
    detail: `${name} configured`,
    validToken: () => true,
    send(token, message) {
      sent.push({ token, message });
      return Promise.resolve(answers.get(token) ?? { ok: true, answer: 'accepted' });
    },
  };
  return { port, sent };
}

/** The outbox, devices and deliveries in memory; the real PushService delivers through fake providers. */
function setup() {
  const clock = new ManualClock(T0);
  const users = new Set(['user-1', 'user-2']);
  const devices: (DeviceRecord & { status: 'active' | 'pruned' })[] = [];
  const deliveries: DeliveryRecord[] = [];
  const outbox: Outbox[] = [];
  const repo = repositoryMock<NotificationRepository>();
  repo.userExists.mockImplementation((id) => Promise.resolve(users.has(id)));
  repo.enqueue.mockImplementation((n) => {
    if (outbox.some((o) => o.dedupeKey === n.dedupeKey)) return Promise.resolve(undefined);
    const id = `n-${outbox.length + 1}`;
    outbox.push({
      id,
      dedupeKey: n.dedupeKey,
      user_id: n.userId,
      kind: n.kind,
      payload: { title: n.title, body: n.body, data: n.data },
      status: 'pending',
      lastError: null,
    });
    return Promise.resolve(id);
  });
  repo.claim.mockImplementation((limit, kind, id) =>
    Promise.resolve(
      outbox
        .filter((o) => o.status === 'pending' && (!kind || o.kind === kind) && (!id || o.id === id))
        .slice(0, limit),
    ),
  );
  repo.outboxDone.mockImplementation((id, error) => {
    const o = outbox.find((x) => x.id === id)!;
    if (error === null) o.status = 'delivered';
    o.lastError = error;
    return Promise.resolve();
  });
  repo.activeDevices.mockImplementation((userId) =>
    Promise.resolve(devices.filter((d) => d.user_id === userId && d.status === 'active')),
  );
  repo.prune.mockImplementation((prov, token) => {
    const dead = devices.filter((d) => d.provider === prov && d.token === token && d.status === 'active');
    for (const d of dead) d.status = 'pruned';
    return Promise.resolve(dead.length);
  });
  repo.recordDelivery.mockImplementation((d) => {
    const row = { ...d, id: `del-${deliveries.length + 1}` };
    deliveries.push(row);
    return Promise.resolve(row);
  });
  repo.deliveries.mockImplementation((f) =>
    Promise.resolve(
      deliveries
        .filter(
          (d) =>
            (!f.notificationId || d.notification_id === f.notificationId) && (!f.failedOnly || d.status === 'error'),
        )
        .slice(-f.limit)
        .reverse(),
    ),
  );

  const answers = new Map<string, PushResult>();
  const expo = provider('expo', answers);
  const push = new PushService(repo, [expo.port], provider('outbox', answers).port, clock);
  const prematch = new PrematchService(repositoryMock(), repositoryMock(), { windowMinutes: 90, intervalMs: 60_000 });
  const service = new NotificationAdminService(repo, push, prematch);
  const device = (id: string, userId: string, providerName: 'expo' | 'webpush' = 'expo') =>
    devices.push({
      id,
      user_id: userId,
      provider: providerName,
      token: `tok-${id}`,
      label: null,
      created_at: new Date(T0),
      status: 'active',
    });
  return { clock, repo, devices, deliveries, outbox, answers, expo, service, device };
}

describe('NotificationAdminService', () => {
  describe('test push', () => {
    it('records a fresh notification in the outbox and delivers it to every device of the user at once', async () => {
      const { service, device, outbox, expo } = setup();
      device('dev-1', 'user-1');
      device('dev-2', 'user-1');
      const now = new Date(T0);

      const result = await service.testPush(now, { userId: 'user-1', title: 'Hello', body: 'A test' });

      expect(result.reason).toBeNull();
      expect(result.deliveries).toHaveLength(2);
      expect(result.deliveries.every((d) => d.status === 'ok' && d.notificationId === result.notificationId)).toBe(
        true,
      );
      expect(outbox).toMatchObject([
        {
          id: result.notificationId,
          kind: 'admin.test-push',
          status: 'delivered',
          payload: { title: 'Hello', body: 'A test', data: { test: 'true' } },
        },
      ]);
      expect(outbox[0]?.dedupeKey).toMatch(/^admin\.test-push:[0-9a-f-]{36}$/);
      expect(expo.sent.map((s) => s.token).sort()).toEqual(['tok-dev-1', 'tok-dev-2']);
      expect(expo.sent[0]?.message.data).toEqual({ test: 'true', notificationId: result.notificationId });
    });

    it('sends a new notification each time, never deduplicated against an earlier test', async () => {
      const { service, device, outbox } = setup();
      device('dev-1', 'user-1');

      const a = await service.testPush(new Date(T0), { userId: 'user-1', title: 't', body: 'b' });
      const b = await service.testPush(new Date(T0), { userId: 'user-1', title: 't', body: 'b' });

      expect(a.notificationId).not.toBe(b.notificationId);
      expect(outbox.filter((o) => o.status === 'delivered')).toHaveLength(2);
    });

    it('says why nothing arrived: a user without devices', async () => {
      const { service, outbox } = setup();

      const result = await service.testPush(new Date(T0), { userId: 'user-2', title: 't', body: 'b' });

      expect(result.reason).toBe('the user has no registered device');
      expect(result.deliveries).toMatchObject([{ status: 'error', deviceId: null }]);
      expect(outbox[0]?.status).toBe('delivered');
    });

    it('answers with the first error only when every device failed, and keeps a transiently failed push pending', async () => {
      const { service, device, answers, outbox } = setup();
      device('dev-1', 'user-1');
      answers.set('tok-dev-1', { ok: false, error: 'provider timeout', invalidToken: false, answer: null });

      const failed = await service.testPush(new Date(T0), { userId: 'user-1', title: 't', body: 'b' });

      expect(failed.reason).toBe('provider timeout');
      expect(outbox[0]).toMatchObject({ status: 'pending', lastError: 'provider timeout' });

      device('dev-2', 'user-1');
      const partly = await service.testPush(new Date(T0), { userId: 'user-1', title: 't', body: 'b' });
      expect(partly.reason).toBeNull();
      expect(partly.deliveries.map((d) => d.status).sort()).toEqual(['error', 'ok']);
    });

    it('prunes a device whose token the provider calls dead', async () => {
      const { service, device, answers, devices } = setup();
      device('dev-1', 'user-1');
      answers.set('tok-dev-1', { ok: false, error: 'DeviceNotRegistered', invalidToken: true, answer: '{}' });

      const result = await service.testPush(new Date(T0), { userId: 'user-1', title: 't', body: 'b' });

      expect(result.deliveries).toMatchObject([{ status: 'error', pruned: true }]);
      expect(devices[0]?.status).toBe('pruned');
    });

    it('refuses an unknown user with NOT_FOUND and records nothing', async () => {
      const { service, outbox } = setup();

      await expect(service.testPush(new Date(T0), { userId: 'nobody', title: 't', body: 'b' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        details: { userId: 'nobody' },
      });
      expect(outbox).toEqual([]);
    });
  });

  describe('diagnostics', () => {
    // The driver hands PostgreSQL's bigint and numeric columns over as text.
    const counts = {
      devices: { active: 3, pruned: 1 },
      deliveries24h: { ok: 5, error: 2 },
      outbox: { pending: 1, failing: 1, delivered24h: 4 },
      prematchSent: 7,
      lastRun: {
        window_minutes: '90' as unknown as number,
        fixtures: '2' as unknown as number,
        candidates: '6' as unknown as number,
        enqueued: '5' as unknown as number,
        delivered: '4' as unknown as number,
        ran_at: new Date(T0 - 60_000),
      },
      pending: [
        {
          id: 'n-9',
          user_id: 'user-1',
          kind: 'prematch',
          attempts: '3' as unknown as number,
          last_error: 'timeout',
          created_at: new Date(T0 - 120_000),
        },
      ],
    };

    it('reports the last pre-match run with numbers, the settings, and the pending sample', async () => {
      const { service, repo } = setup();
      repo.diagnostics.mockResolvedValue(counts);

      const d = await service.diagnostics(new Date(T0));

      expect(d.outbox).toEqual(counts.outbox);
      expect(d.prematch).toEqual({
        windowMinutes: 90,
        intervalMs: 60_000,
        lastRun: {
          windowMinutes: 90,
          fixtures: 2,
          candidates: 6,
          enqueued: 5,
          delivered: 4,
          ranAt: new Date(T0 - 60_000).toISOString(),
        },
        sentTotal: 7,
      });
      expect(d.pendingSample).toEqual([
        {
          id: 'n-9',
          userId: 'user-1',
          kind: 'prematch',
          attempts: 3,
          lastError: 'timeout',
          createdAt: new Date(T0 - 120_000).toISOString(),
        },
      ]);
    });

    it('reports no last run before the first pre-match run', async () => {
      const { service, repo } = setup();
      repo.diagnostics.mockResolvedValue({ ...counts, lastRun: undefined });

      expect((await service.diagnostics(new Date(T0))).prematch.lastRun).toBeNull();
    });

    it('lists recent deliveries and, apart, the failed ones; names each provider with its configuration', async () => {
      const { service, repo, device, answers } = setup();
      repo.diagnostics.mockResolvedValue(counts);
      device('dev-1', 'user-1');
      await service.testPush(new Date(T0), { userId: 'user-1', title: 't', body: 'b' });
      answers.set('tok-dev-1', { ok: false, error: 'boom', invalidToken: false, answer: null });
      await service.testPush(new Date(T0), { userId: 'user-1', title: 't', body: 'b' });

      const d = await service.pushDiagnostic(new Date(T0));

      expect(d.devices).toEqual({ active: 3, pruned: 1 });
      expect(d.deliveries24h).toEqual({ ok: 5, error: 2 });
      expect(d.recent.map((r) => r.status)).toEqual(['error', 'ok']);
      expect(d.failures).toMatchObject([{ status: 'error', error: 'boom' }]);
      expect(d.providers).toContainEqual({ name: 'expo', configured: true, detail: 'expo configured' });
      expect(d.providers).toContainEqual(expect.objectContaining({ name: 'webpush', configured: false }));
    });
  });
});
