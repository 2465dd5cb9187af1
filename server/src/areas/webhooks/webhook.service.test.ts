import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import type { WebhookSenderPort } from '../../adapters/webhook-sender/webhook-sender.port.js';
import { ManualClock } from '../../platform/clock.js';
import type { IdempotentRun } from '../../platform/idempotency/idempotent-run.js';
import { operationContext } from '../../platform/operation.context.js';
import { SecretBox } from '../identity/secret-box.js';
import type { AttemptRow, DeliveryRow, EndpointRow, WebhookRepository } from './webhook.repository.js';
import { MAX_ENDPOINTS_PER_APP, WebhookService } from './webhook.service.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const URL_OK = 'https://hooks.builder.test/duelkit';

type StoredDelivery = DeliveryRow & { builder_app_id: string };

/** Endpoints, deliveries and attempts in memory, changed as the repository's statements change them. */
function setup() {
  const clock = new ManualClock(T0);
  const box = new SecretBox(Buffer.alloc(32, 5));
  const endpoints = new Map<string, EndpointRow>();
  const deliveries = new Map<string, StoredDelivery>();
  const attempts: AttemptRow[] = [];
  const repo = repositoryMock<WebhookRepository>();
  repo.countForApp.mockImplementation((app) =>
    Promise.resolve([...endpoints.values()].filter((e) => e.builder_app_id === app).length),
  );
  repo.insertEndpoint.mockImplementation((e) => {
    const row: EndpointRow = endpoints.get(e.id) ?? {
      id: e.id,
      builder_app_id: e.builderAppId,
      url: e.url,
      description: e.description,
      types: e.types ? [...e.types] : null,
      secret_sealed: e.secretSealed,
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      secret_rotated_at: null,
      status: 'enabled',
      disabled_reason: null,
      consecutive_failures: 0,
      created_at: e.at,
    };
    endpoints.set(e.id, row);
    return Promise.resolve({ ...row });
  });
  repo.endpoints.mockImplementation((app) =>
    Promise.resolve([...endpoints.values()].filter((e) => e.builder_app_id === app)),
  );
  repo.endpoint.mockImplementation((app, id) => {
    const row = endpoints.get(id);
    return Promise.resolve(row && row.builder_app_id === app ? { ...row } : null);
  });
  repo.rotateSecret.mockImplementation((id, sealed, previousExpiresAt, at) => {
    const row = endpoints.get(id)!;
    Object.assign(row, {
      previous_secret_sealed: row.secret_sealed,
      previous_secret_expires_at: previousExpiresAt,
      secret_sealed: sealed,
      secret_rotated_at: at,
    });
    return Promise.resolve({ ...row });
  });
  repo.disable.mockImplementation((id, reason) => {
    const row = endpoints.get(id)!;
    row.status = 'disabled';
    row.disabled_reason ??= reason;
    return Promise.resolve({ ...row });
  });
  repo.insertTestDelivery.mockImplementation((endpoint, deliveryId, _data, at) => {
    const row: StoredDelivery = deliveries.get(deliveryId) ?? {
      id: deliveryId,
      endpoint_id: endpoint.id,
      event_id: `event-of-${deliveryId}`,
      event_type: 'webhook.test',
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
      delivered_at: null,
      builder_app_id: endpoint.builder_app_id,
    };
    deliveries.set(deliveryId, row);
    return Promise.resolve({ ...row });
  });
  repo.attemptsOf.mockImplementation((id) => Promise.resolve(attempts.filter((a) => a.delivery_id === id)));
  repo.deliveries.mockImplementation((endpointId, status, limit, offset) => {
    const all = [...deliveries.values()].filter(
      (d) => d.endpoint_id === endpointId && (!status || d.status === status),
    );
    return Promise.resolve({
      rows: all
        .slice(offset, offset + limit)
        .map((d) => ({ ...d, attemptRows: attempts.filter((a) => a.delivery_id === d.id) })),
      total: all.length,
    });
  });
  repo.delivery.mockImplementation((id) => {
    const d = deliveries.get(id);
    const e = d && endpoints.get(d.endpoint_id);
    return Promise.resolve(d && e ? { ...d, endpoint_status: e.status } : null);
  });
  repo.requeue.mockImplementation((id, at) => {
    Object.assign(deliveries.get(id)!, { status: 'pending', next_attempt_at: at, delivered_at: null });
    return Promise.resolve();
  });

  const refusals = new Map<string, string>([['http://127.0.0.1/hook', 'a private address']]);
  const sender: WebhookSenderPort = {
    post: () => Promise.reject(new Error('the service never sends')),
    checkTarget: (url) => Promise.resolve(refusals.get(url) ?? null),
  };
  const service = new WebhookService({ repo, sender, box });
  const ctx = (run?: IdempotentRun) => operationContext({ requestId: 'req-1', clock, run });
  return { clock, box, endpoints, deliveries, attempts, service, ctx };
}

/** An idempotent run of record `recordId`, as a request with an Idempotency-Key carries it. */
const runOf = (recordId: string, resumed = false): IdempotentRun => ({
  recordId,
  successStatus: 201,
  shape: (b) => b,
  resumed,
  names: new Set(),
  scoped: new Map(),
  effectStarted: false,
  pending: undefined,
});

describe('WebhookService', () => {
  describe('create', () => {
    it('creates an enabled endpoint with a fresh whsec_ secret, stored sealed, deduplicating its types', async () => {
      const { service, ctx, endpoints, box } = setup();

      const { endpoint, secret } = await service.create(ctx(), 'app-1', {
        url: URL_OK,
        description: 'prod',
        types: ['bet.confirmed', 'bet.confirmed', 'duel.resolved'],
      });

      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(endpoint).toMatchObject({
        url: URL_OK,
        description: 'prod',
        types: ['bet.confirmed', 'duel.resolved'],
        status: 'enabled',
        consecutiveFailures: 0,
        createdAt: new Date(T0).toISOString(),
        secretRotatedAt: null,
      });
      const row = endpoints.get(endpoint.id)!;
      expect(row.secret_sealed).not.toContain(secret);
      expect(box.open(row.secret_sealed)).toBe(secret);
      const other = await service.create(ctx(), 'app-1', { url: URL_OK });
      expect(other.secret).not.toBe(secret);
      expect(other.endpoint).toMatchObject({ types: null, description: null });
    });

    it('answers a repeated request with the same Idempotency-Key with the endpoint and secret it created', async () => {
      const { service, ctx, endpoints } = setup();

      const first = await service.create(ctx(runOf('rec-1')), 'app-1', { url: URL_OK });
      const resumed = await service.create(ctx(runOf('rec-1', true)), 'app-1', { url: URL_OK });
      const otherKey = await service.create(ctx(runOf('rec-2')), 'app-1', { url: URL_OK });

      expect(resumed).toEqual(first);
      expect(otherKey.endpoint.id).not.toBe(first.endpoint.id);
      expect(endpoints.size).toBe(2);
    });

    it('refuses a URL the sender may not reach with WEBHOOK_URL_FORBIDDEN and the reason on the field', async () => {
      const { service, ctx, endpoints } = setup();

      await expect(service.create(ctx(), 'app-1', { url: 'http://127.0.0.1/hook' })).rejects.toMatchObject({
        code: 'WEBHOOK_URL_FORBIDDEN',
        details: { reason: 'a private address' },
        fieldErrors: { 'body.url': ['a private address'] },
      });
      expect(endpoints.size).toBe(0);
    });

    it(`allows ${MAX_ENDPOINTS_PER_APP} endpoints per app and refuses the next with WEBHOOK_LIMIT`, async () => {
      const { service, ctx, endpoints } = setup();
      for (let i = 0; i < MAX_ENDPOINTS_PER_APP; i++) await service.create(ctx(), 'app-1', { url: URL_OK });

      await expect(service.create(ctx(), 'app-1', { url: URL_OK })).rejects.toMatchObject({
        code: 'WEBHOOK_LIMIT',
        details: { max: MAX_ENDPOINTS_PER_APP },
      });
      await expect(service.create(ctx(), 'app-2', { url: URL_OK })).resolves.toBeDefined();
      expect(endpoints.size).toBe(MAX_ENDPOINTS_PER_APP + 1);
    });
  });

  describe('secrets and state', () => {
    it('rotates the secret, keeping the previous one valid for the overlap from now', async () => {
      const { service, ctx, endpoints, box, clock } = setup();
      const { endpoint, secret: old } = await service.create(ctx(), 'app-1', { url: URL_OK });
      clock.advance(60_000);

      const rotated = await service.rotateSecret(ctx(), 'app-1', endpoint.id, 3_600);

      expect(rotated.secret).not.toBe(old);
      expect(rotated.endpoint.secretRotatedAt).toBe(new Date(T0 + 60_000).toISOString());
      const row = endpoints.get(endpoint.id)!;
      expect(box.open(row.secret_sealed)).toBe(rotated.secret);
      expect(box.open(row.previous_secret_sealed!)).toBe(old);
      expect(row.previous_secret_expires_at).toEqual(new Date(T0 + 60_000 + 3_600_000));
    });

    it("answers NOT_FOUND for another app's endpoint on every endpoint route", async () => {
      const { service, ctx } = setup();
      const { endpoint } = await service.create(ctx(), 'app-1', { url: URL_OK });
      const notFound = { code: 'NOT_FOUND', details: { endpointId: endpoint.id } };

      await expect(service.rotateSecret(ctx(), 'app-2', endpoint.id, 60)).rejects.toMatchObject(notFound);
      await expect(service.disable('app-2', endpoint.id, undefined)).rejects.toMatchObject(notFound);
      await expect(service.test(ctx(), 'app-2', endpoint.id)).rejects.toMatchObject(notFound);
      await expect(service.deliveries('app-2', endpoint.id, { page: 1, limit: 10 })).rejects.toMatchObject(notFound);
      expect((await service.list('app-2')).endpoints).toEqual([]);
      expect((await service.list('app-1')).endpoints).toMatchObject([{ id: endpoint.id }]);
    });

    it('disables an endpoint with the given or a default reason, and refuses a test delivery to it with INVALID_STATE', async () => {
      const { service, ctx } = setup();
      const a = (await service.create(ctx(), 'app-1', { url: URL_OK })).endpoint;
      const b = (await service.create(ctx(), 'app-1', { url: URL_OK })).endpoint;

      expect(await service.disable('app-1', a.id, 'maintenance')).toMatchObject({
        status: 'disabled',
        disabledReason: 'maintenance',
      });
      expect(await service.disable('app-1', b.id, undefined)).toMatchObject({
        disabledReason: 'disabled by the builder',
      });
      await expect(service.test(ctx(), 'app-1', a.id)).rejects.toMatchObject({
        code: 'INVALID_STATE',
        details: { status: 'disabled', reason: 'maintenance' },
      });
    });
  });

  describe('deliveries', () => {
    it('queues a test delivery due now; the same Idempotency-Key finds the same delivery', async () => {
      const { service, ctx, deliveries, clock } = setup();
      const { endpoint } = await service.create(ctx(), 'app-1', { url: URL_OK });
      clock.advance(1_000);

      const first = await service.test(ctx(runOf('rec-9')), 'app-1', endpoint.id);
      const again = await service.test(ctx(runOf('rec-9', true)), 'app-1', endpoint.id);

      expect(first).toMatchObject({
        endpointId: endpoint.id,
        eventType: 'webhook.test',
        status: 'pending',
        attempts: [],
        nextAttemptAt: new Date(T0 + 1_000).toISOString(),
      });
      expect(again.id).toBe(first.id);
      expect(deliveries.size).toBe(1);
    });

    it('pages deliveries and says whether more follow', async () => {
      const { service, ctx } = setup();
      const { endpoint } = await service.create(ctx(), 'app-1', { url: URL_OK });
      for (let i = 0; i < 5; i++) await service.test(ctx(), 'app-1', endpoint.id);

      const page1 = await service.deliveries('app-1', endpoint.id, { page: 1, limit: 2 });
      const page3 = await service.deliveries('app-1', endpoint.id, { page: 3, limit: 2 });

      expect(page1.data).toHaveLength(2);
      expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 5, hasMore: true });
      expect(page3.data).toHaveLength(1);
      expect(page3.pagination).toEqual({ page: 3, limit: 2, total: 5, hasMore: false });
      expect(
        (await service.deliveries('app-1', endpoint.id, { page: 1, limit: 10, status: 'failed' })).pagination.total,
      ).toBe(0);
    });

    it('queues a finished delivery again from now, keeping its attempts', async () => {
      const { service, ctx, deliveries, attempts, clock } = setup();
      const { endpoint } = await service.create(ctx(), 'app-1', { url: URL_OK });
      const delivery = await service.test(ctx(), 'app-1', endpoint.id);
      Object.assign(deliveries.get(delivery.id)!, { status: 'failed', attempts: 1, next_attempt_at: null });
      attempts.push({
        delivery_id: delivery.id,
        attempt: 1,
        at: new Date(T0),
        status_code: 500,
        error: 'HTTP 500',
        duration_ms: 12,
      });
      clock.advance(3_600_000);

      const requeued = await service.redeliver(ctx(), 'app-1', delivery.id);

      expect(requeued).toMatchObject({
        status: 'pending',
        nextAttemptAt: new Date(T0 + 3_600_000).toISOString(),
        attempts: [{ attempt: 1, statusCode: 500, error: 'HTTP 500' }],
      });
    });

    it("refuses to redeliver another app's or an unknown delivery (NOT_FOUND), or one of a disabled endpoint (INVALID_STATE)", async () => {
      const { service, ctx, deliveries } = setup();
      const { endpoint } = await service.create(ctx(), 'app-1', { url: URL_OK });
      const delivery = await service.test(ctx(), 'app-1', endpoint.id);
      await service.disable('app-1', endpoint.id, undefined);

      await expect(service.redeliver(ctx(), 'app-2', delivery.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(service.redeliver(ctx(), 'app-1', 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(service.redeliver(ctx(), 'app-1', delivery.id)).rejects.toMatchObject({
        code: 'INVALID_STATE',
        details: { status: 'disabled' },
      });
      expect(deliveries.get(delivery.id)?.next_attempt_at).toEqual(new Date(T0));
    });
  });
});
