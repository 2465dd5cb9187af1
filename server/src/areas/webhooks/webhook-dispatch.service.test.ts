import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import type { WebhookSenderPort } from '../../adapters/webhook-sender/webhook-sender.port.js';
import { createLogger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import type { StoredEvent } from '../../platform/events/event.types.js';
import { SecretBox } from '../identity/secret-box.js';
import { DEFAULT_DISPATCH, WebhookDispatcher, type WebhookDispatchSettings } from './webhook-dispatch.service.js';
import { SIGNATURE_HEADER, verifySignature } from './webhook-signature.protocol.js';
import type { AttemptOutcome, DeliveryRow, EndpointRow, WebhookRepository } from './webhook.repository.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const SETTINGS: WebhookDispatchSettings = {
  baseDelayMs: 10_000,
  maxDelayMs: 60_000,
  horizonMs: 3_600_000,
  disableAfterFailures: 3,
  claimMs: 60_000,
  batchSize: 2,
};

const event = (id: string): StoredEvent => ({
  id,
  seq: '7',
  type: 'bet.confirmed',
  version: 1,
  builderAppId: 'app-1',
  duelId: 'duel-1',
  isPrivate: false,
  data: { amount: '5' },
  createdAt: new Date(T0).toISOString(),
});

/**
 * Deliveries and endpoints in memory, claimed and updated by the rules of the repository's
 * statements; the endpoint answers with the status (or failure) the test queues for it.
 */
function setup(settings: WebhookDispatchSettings = SETTINGS) {
  const clock = new ManualClock(T0);
  const box = new SecretBox(Buffer.alloc(32, 1));
  const endpoints = new Map<string, EndpointRow>();
  const deliveries = new Map<string, DeliveryRow>();
  const events = new Map<string, StoredEvent>();
  const outcomes: AttemptOutcome[] = [];
  const repo = repositoryMock<WebhookRepository>();
  repo.claimDue.mockImplementation((now, leaseUntil, limit) => {
    const due = [...deliveries.values()]
      .filter(
        (d) =>
          d.status === 'pending' &&
          endpoints.get(d.endpoint_id)?.status === 'enabled' &&
          d.next_attempt_at !== null &&
          d.next_attempt_at <= now,
      )
      .sort((a, b) => a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime())
      .slice(0, limit);
    for (const d of due) d.next_attempt_at = leaseUntil;
    return Promise.resolve(
      due.map((d) => ({
        delivery: { ...d },
        endpoint: { ...endpoints.get(d.endpoint_id)! },
        event: events.get(d.event_id)!,
      })),
    );
  });
  repo.recordAttempt.mockImplementation((o) => {
    outcomes.push(o);
    const d = deliveries.get(o.deliveryId)!;
    Object.assign(d, {
      attempts: o.attempt,
      status: o.ok ? 'succeeded' : o.nextAttemptAt ? 'pending' : 'failed',
      next_attempt_at: o.nextAttemptAt,
      delivered_at: o.ok ? o.at : null,
    });
    const e = endpoints.get(o.endpointId)!;
    e.consecutive_failures = o.ok ? 0 : e.consecutive_failures + 1;
    if (o.disable) {
      e.status = 'disabled';
      e.disabled_reason ??= o.disable;
    }
    return Promise.resolve();
  });

  const answers = new Map<string, (number | Error)[]>();
  const posts: { url: string; headers: Readonly<Record<string, string>>; body: string; at: number }[] = [];
  const sender: WebhookSenderPort = {
    post(url, headers, body) {
      posts.push({ url, headers, body, at: clock.now() });
      const next = answers.get(url)?.shift() ?? 200;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve({ status: next });
    },
    checkTarget: () => Promise.resolve(null),
  };

  const endpoint = (id: string, over: Partial<EndpointRow> = {}) => {
    const row: EndpointRow = {
      id,
      builder_app_id: 'app-1',
      url: `https://hooks.test/${id}`,
      description: null,
      types: null,
      secret_sealed: box.seal(`whsec_${id}`),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      secret_rotated_at: null,
      status: 'enabled',
      disabled_reason: null,
      consecutive_failures: 0,
      created_at: new Date(T0),
      ...over,
    };
    endpoints.set(id, row);
    return row;
  };
  const delivery = (id: string, endpointId: string, over: Partial<DeliveryRow> = {}) => {
    events.set(`ev-${id}`, event(`ev-${id}`));
    const row: DeliveryRow = {
      id,
      endpoint_id: endpointId,
      event_id: `ev-${id}`,
      event_type: 'bet.confirmed',
      status: 'pending',
      attempts: 0,
      next_attempt_at: new Date(clock.now()),
      created_at: new Date(clock.now()),
      delivered_at: null,
      ...over,
    };
    deliveries.set(id, row);
    return row;
  };
  const dispatcher = new WebhookDispatcher(repo, sender, box, clock, createLogger('silent'), settings);
  return { clock, box, repo, endpoints, deliveries, outcomes, answers, posts, endpoint, delivery, dispatcher };
}

describe('WebhookDispatcher', () => {
  it('sends a due delivery signed with the endpoint secret at the clock time, and records its success', async () => {
    const { dispatcher, endpoint, delivery, posts, deliveries, clock } = setup();
    endpoint('ep-1');
    delivery('d-1', 'ep-1');
    clock.advance(5_000);

    expect(await dispatcher.runOnce()).toBe(1);

    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(post!.url).toBe('https://hooks.test/ep-1');
    expect(JSON.parse(post!.body)).toEqual({
      id: 'ev-d-1',
      seq: '7',
      type: 'bet.confirmed',
      version: 1,
      createdAt: new Date(T0).toISOString(),
      builderAppId: 'app-1',
      data: { amount: '5' },
    });
    expect(post!.headers).toMatchObject({
      'Duelkit-Event-Id': 'ev-d-1',
      'Duelkit-Event-Type': 'bet.confirmed',
      'Duelkit-Delivery-Id': 'd-1',
    });
    const header = post!.headers[SIGNATURE_HEADER]!;
    expect(header.startsWith(`t=${(T0 + 5_000) / 1000},`)).toBe(true);
    expect(verifySignature(post!.body, header, 'whsec_ep-1', (T0 + 5_000) / 1000)).toBe(true);
    expect(deliveries.get('d-1')).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      next_attempt_at: null,
      delivered_at: new Date(T0 + 5_000),
    });
    expect(await dispatcher.runOnce()).toBe(0);
  });

  it('signs with the previous secret too while the rotation overlap lasts, and only then', async () => {
    const { dispatcher, endpoint, delivery, posts, box, clock } = setup();
    endpoint('ep-1', {
      previous_secret_sealed: box.seal('whsec_old'),
      previous_secret_expires_at: new Date(T0 + 1_000),
    });
    delivery('d-1', 'ep-1');
    await dispatcher.runOnce();
    clock.advance(1_000);
    delivery('d-2', 'ep-1');
    await dispatcher.runOnce();

    const [during, after] = posts;
    const t = (p: typeof during) => Number(p!.headers[SIGNATURE_HEADER]!.split(',')[0]!.slice(2));
    expect(verifySignature(during!.body, during!.headers[SIGNATURE_HEADER]!, 'whsec_old', t(during))).toBe(true);
    expect(verifySignature(during!.body, during!.headers[SIGNATURE_HEADER]!, 'whsec_ep-1', t(during))).toBe(true);
    expect(verifySignature(after!.body, after!.headers[SIGNATURE_HEADER]!, 'whsec_old', t(after))).toBe(false);
    expect(verifySignature(after!.body, after!.headers[SIGNATURE_HEADER]!, 'whsec_ep-1', t(after))).toBe(true);
  });

  it('retries a non-2xx answer or an unreachable endpoint after a doubling wait, up to the cap', async () => {
    const { dispatcher, endpoint, delivery, answers, deliveries, outcomes, clock } = setup();
    endpoint('ep-1');
    delivery('d-1', 'ep-1');
    answers.set('https://hooks.test/ep-1', [500, new Error('ECONNREFUSED'), 302, 404, 503]);
    const waits: number[] = [];

    for (let i = 0; i < 5; i++) {
      const before = clock.now();
      expect(await dispatcher.runOnce()).toBe(1);
      const next = deliveries.get('d-1')!.next_attempt_at!.getTime();
      waits.push(next - before);
      clock.advance(next - before - 1);
      expect(await dispatcher.runOnce()).toBe(0); // not yet due
      clock.advance(1);
    }

    expect(waits).toEqual([10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(outcomes.map((o) => [o.attempt, o.statusCode, o.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, null, 'ECONNREFUSED'],
      [3, 302, 'HTTP 302'],
      [4, 404, 'HTTP 404'],
      [5, 503, 'HTTP 503'],
    ]);
    expect(deliveries.get('d-1')).toMatchObject({ status: 'pending', attempts: 5 });
    await dispatcher.runOnce();
    expect(deliveries.get('d-1')).toMatchObject({ status: 'succeeded', attempts: 6 });
  });

  it('fails a delivery for good once its next attempt would fall past the horizon', async () => {
    const { dispatcher, endpoint, delivery, answers, deliveries, clock } = setup();
    endpoint('ep-1');
    delivery('d-1', 'ep-1');
    answers.set('https://hooks.test/ep-1', [500, 500]);

    clock.advance(SETTINGS.horizonMs - SETTINGS.baseDelayMs);
    await dispatcher.runOnce();
    expect(deliveries.get('d-1')).toMatchObject({
      status: 'pending',
      next_attempt_at: new Date(T0 + SETTINGS.horizonMs),
    });

    clock.advance(SETTINGS.baseDelayMs);
    await dispatcher.runOnce();
    expect(deliveries.get('d-1')).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null });
    clock.advance(SETTINGS.maxDelayMs);
    expect(await dispatcher.runOnce()).toBe(0);
  });

  it('disables an endpoint whose delivery fails for good after the allowed run of consecutive failures', async () => {
    const { dispatcher, endpoint, delivery, answers, endpoints, clock } = setup();
    endpoint('ep-1', { consecutive_failures: SETTINGS.disableAfterFailures - 1 });
    endpoint('ep-2', { consecutive_failures: SETTINGS.disableAfterFailures - 2 });
    const late = { created_at: new Date(T0 - SETTINGS.horizonMs) };
    delivery('d-1', 'ep-1', late);
    delivery('d-2', 'ep-2', late);
    answers.set('https://hooks.test/ep-1', [500]);
    answers.set('https://hooks.test/ep-2', [500]);

    await dispatcher.runOnce();

    expect(endpoints.get('ep-1')).toMatchObject({ status: 'disabled', consecutive_failures: 3 });
    expect(endpoints.get('ep-1')?.disabled_reason).toContain('3 consecutive failed attempts');
    expect(endpoints.get('ep-1')?.disabled_reason).toContain('HTTP 500');
    expect(endpoints.get('ep-2')).toMatchObject({ status: 'enabled', consecutive_failures: 2 });

    delivery('d-3', 'ep-1');
    clock.advance(1_000);
    expect(await dispatcher.runOnce()).toBe(0);
  });

  it('a success resets the run of consecutive failures', async () => {
    const { dispatcher, endpoint, delivery, endpoints } = setup();
    endpoint('ep-1', { consecutive_failures: 2 });
    delivery('d-1', 'ep-1');

    await dispatcher.runOnce();

    expect(endpoints.get('ep-1')?.consecutive_failures).toBe(0);
  });

  it('works through every due delivery, a batch at a time, in one run', async () => {
    const { dispatcher, endpoint, delivery, posts, deliveries } = setup();
    endpoint('ep-1');
    for (const id of ['d-1', 'd-2', 'd-3', 'd-4', 'd-5']) delivery(id, 'ep-1');

    expect(await dispatcher.runOnce()).toBe(5);

    expect(posts.map((p) => p.headers['Duelkit-Delivery-Id']).sort()).toEqual(['d-1', 'd-2', 'd-3', 'd-4', 'd-5']);
    expect([...deliveries.values()].every((d) => d.status === 'succeeded')).toBe(true);
  });

  it('reserves a claimed delivery for the claim period: a second worker takes it only once that passes', async () => {
    const { dispatcher, repo, endpoint, delivery, posts, clock, deliveries } = setup();
    endpoint('ep-1');
    delivery('d-1', 'ep-1');
    // The first worker claims the delivery and dies before sending it.
    await repo.claimDue(new Date(clock.now()), new Date(clock.now() + SETTINGS.claimMs), SETTINGS.batchSize);

    clock.advance(SETTINGS.claimMs - 1);
    expect(await dispatcher.runOnce()).toBe(0);
    clock.advance(1);
    expect(await dispatcher.runOnce()).toBe(1);
    expect(posts).toHaveLength(1);
    expect(deliveries.get('d-1')?.status).toBe('succeeded');
  });

  it('defaults to ten seconds doubling to six hours within three days', () => {
    expect(DEFAULT_DISPATCH).toMatchObject({
      baseDelayMs: 10_000,
      maxDelayMs: 6 * 3_600_000,
      horizonMs: 3 * 24 * 3_600_000,
    });
  });
});
