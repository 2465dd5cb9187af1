import { createHmac } from 'node:crypto';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { frame, sse } from '../test/event-stream.js';
import { client, DUEL_ID, duelFixture, M, mockService } from '../test/mock-service.js';
import type { DuelkitClient } from './client.js';
import { AbortError, TimeoutError } from './core/errors.js';
import { DuelWaitTimeoutError, waitForDuel, type WaitForDuelDeps } from './wait-for-duel.js';

describe('client.webhooks.verify', () => {
  it('verifies a delivery like verifyWebhookSignature, next to the webhook routes', async () => {
    const body = '{"id":"e1","seq":"7","type":"duel.settled"}';
    const t = Math.floor(Date.now() / 1000);
    const header = `t=${t},v1=${createHmac('sha256', 'whsec_a').update(`${t}.${body}`).digest('hex')}`;
    const c = client();
    expect(typeof c.webhooks.createEndpoint).toBe('function');
    expect(await c.webhooks.verify(body, header, 'whsec_a')).toBe(true);
    expect(await c.webhooks.verify(body, header, 'whsec_b')).toBe(false);
    expect(await c.webhooks.verify(body, header, 'whsec_a', { now: new Date((t + 301) * 1000) })).toBe(false);
  });
});

const server = mockService();
const STREAM = `${M}/svc/builder/events/stream`;
const GET_DUEL = `${M}/svc/user/duels/get-duel-by-id/:duelId`;

/** An injected clock: sleeps wait until the test advances it, never for real. */
function fakeClock() {
  let now = 0;
  const timers: { at: number; ms: number; resolve: () => void }[] = [];
  return {
    sleep: (ms: number, signal?: AbortSignal): Promise<void> => {
      return new Promise((resolve, reject) => {
        const timer = { at: now + ms, ms, resolve };
        timers.push(timer);
        signal?.addEventListener(
          'abort',
          () => {
            timers.splice(timers.indexOf(timer), 1);
            reject(new AbortError('aborted'));
          },
          { once: true },
        );
      });
    },
    /** The lengths of the sleeps still pending. */
    pending: () => timers.map((t) => t.ms).sort((a, b) => a - b),
    advance(ms: number) {
      now += ms;
      for (const t of timers.filter((x) => x.at <= now)) {
        timers.splice(timers.indexOf(t), 1);
        t.resolve();
      }
    },
  };
}

function deps(c: DuelkitClient, clock: ReturnType<typeof fakeClock>): WaitForDuelDeps {
  return {
    events: c.events,
    getDuel: (id, signal) => c.duels.getById({ params: { duelId: id }, query: {} }, { signal }),
    sleep: clock.sleep,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  };
}

describe('client.waitForDuel', () => {
  it('resolves from a stream event, reading the market once more, without waiting for a poll', async () => {
    let reads = 0;
    let streamQuery: URLSearchParams | undefined;
    server.use(
      http.get(GET_DUEL, () => HttpResponse.json(duelFixture(++reads === 1 ? 'open' : 'settled'))),
      http.get(STREAM, ({ request }) => {
        streamQuery = new URL(request.url).searchParams;
        return sse([': heartbeat\n\n', frame(9, 'duel.settled', 'settled')], { hold: true });
      }),
    );
    const clock = fakeClock();
    const result = await waitForDuel(deps(client(), clock), DUEL_ID, { status: 'settled', timeoutMs: 60_000 });
    expect(result.status).toBe('settled');
    expect(reads).toBe(2);
    expect(streamQuery?.get('duelIds')).toBe(DUEL_ID);
    expect(streamQuery?.get('types')).toContain('duel.settled');
    // The timeout and the poll were pending, never reached, and released.
    expect(clock.pending()).toEqual([]);
  });

  it('falls back to reading the market every 30 s when the stream is unavailable', async () => {
    let reads = 0;
    server.use(
      http.get(GET_DUEL, () => HttpResponse.json(duelFixture(++reads < 3 ? 'pending' : 'settled'))),
      http.get(STREAM, () =>
        HttpResponse.json({ code: 'NOT_FOUND', message: 'no stream', requestId: 'r' }, { status: 404 }),
      ),
    );
    const clock = fakeClock();
    const waiting = waitForDuel(deps(client(), clock), DUEL_ID, { status: ['settled', 'cancelled'] });
    await vi.waitFor(() => expect(clock.pending()).toEqual([30_000]));
    expect(reads).toBe(1);
    clock.advance(29_999);
    expect(reads).toBe(1);
    clock.advance(1);
    await vi.waitFor(() => expect(reads).toBe(2));
    await vi.waitFor(() => expect(clock.pending()).toEqual([30_000]));
    clock.advance(30_000);
    expect((await waiting).status).toBe('settled');
    expect(reads).toBe(3);
  });

  it('rejects with DuelWaitTimeoutError when the status is not reached in time, and AbortError on the signal', async () => {
    let reads = 0;
    server.use(
      http.get(GET_DUEL, () => {
        reads += 1;
        return HttpResponse.json(duelFixture('open'));
      }),
      http.get(STREAM, () => sse([': heartbeat\n\n'], { hold: true })),
    );
    const clock = fakeClock();
    const waiting = waitForDuel(deps(client(), clock), DUEL_ID, { status: 'settled', timeoutMs: 45_000 });
    await vi.waitFor(() => expect(clock.pending()).toEqual([30_000, 45_000]));
    clock.advance(30_000);
    await vi.waitFor(() => expect(reads).toBe(2));
    await vi.waitFor(() => expect(clock.pending()).toEqual([30_000, 45_000]));
    clock.advance(15_000);
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuelWaitTimeoutError);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ duelId: DUEL_ID, expected: ['settled'], lastStatus: 'open' });

    const controller = new AbortController();
    const aborted = waitForDuel(deps(client(), fakeClock()), DUEL_ID, { status: 'settled', signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
  });

  it('is a client method with the real clock', async () => {
    server.use(
      http.get(GET_DUEL, () => HttpResponse.json(duelFixture('cancelled'))),
      http.get(STREAM, () => sse([': heartbeat\n\n'], { hold: true })),
    );
    expect((await client().waitForDuel(DUEL_ID, { status: 'cancelled' })).status).toBe('cancelled');
  });
});
