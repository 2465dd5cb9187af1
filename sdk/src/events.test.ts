import { http, HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Contract from '@duelkit/contract';
import { frame, sse } from '../test/event-stream.js';
import { client, DUEL_ID, KEY, M, mockService } from '../test/mock-service.js';
import { AuthenticationError } from './core/errors.js';
import type {
  BetFailureSnapshot,
  BetSnapshot,
  ContestSnapshot,
  DepositCreditedSnapshot,
  DuelkitEvent,
  DuelSnapshot,
  PayoutClaimableSnapshot,
  TournamentStageSettledSnapshot,
} from './events.js';

const server = mockService();
const STREAM = `${M}/svc/builder/events/stream`;

describe('client.events.stream', () => {
  it('types its events like the contract catalogue', () => {
    expectTypeOf<DuelkitEvent['type']>().toEqualTypeOf<Contract.EventType>();
    expectTypeOf<Contract.DuelSnapshot>().toMatchTypeOf<DuelSnapshot>();
    expectTypeOf<keyof DuelSnapshot>().toEqualTypeOf<keyof Contract.DuelSnapshot>();
    expectTypeOf<Contract.BetSnapshot>().toMatchTypeOf<BetSnapshot>();
    expectTypeOf<keyof BetSnapshot>().toEqualTypeOf<keyof Contract.BetSnapshot>();
    expectTypeOf<Contract.BetFailureSnapshot>().toMatchTypeOf<BetFailureSnapshot>();
    expectTypeOf<keyof BetFailureSnapshot>().toEqualTypeOf<keyof Contract.BetFailureSnapshot>();
    expectTypeOf<Contract.ContestSnapshot>().toMatchTypeOf<ContestSnapshot>();
    expectTypeOf<Contract.PayoutClaimableSnapshot>().toMatchTypeOf<PayoutClaimableSnapshot>();
    expectTypeOf<keyof PayoutClaimableSnapshot>().toEqualTypeOf<keyof Contract.PayoutClaimableSnapshot>();
    expectTypeOf<Contract.DepositCreditedSnapshot>().toMatchTypeOf<DepositCreditedSnapshot>();
    expectTypeOf<keyof DepositCreditedSnapshot>().toEqualTypeOf<keyof Contract.DepositCreditedSnapshot>();
    expectTypeOf<Contract.TournamentStageSettledSnapshot>().toMatchTypeOf<TournamentStageSettledSnapshot>();
    expectTypeOf<keyof TournamentStageSettledSnapshot>().toEqualTypeOf<keyof Contract.TournamentStageSettledSnapshot>();
    expectTypeOf<keyof DuelkitEvent>().toEqualTypeOf<keyof Contract.DuelkitEvent>();
  });

  it('sends the filters and the builder key, and parses events split across chunks among heartbeats', async () => {
    const text = `retry: 2000\n\n: heartbeat\n\n${frame(1)}: heartbeat\n\n${frame(2, 'duel.closed', 'pending')}`;
    let seen: URL | undefined;
    let key: string | null = null;
    server.use(
      http.get(STREAM, ({ request }) => {
        seen = new URL(request.url);
        key = request.headers.get('x-builder-api-key');
        // Cut mid-line and mid-field, 7 bytes at a time.
        const chunks: string[] = [];
        for (let i = 0; i < text.length; i += 7) chunks.push(text.slice(i, i + 7));
        return sse(chunks, { hold: true });
      }),
    );
    const controller = new AbortController();
    const got: Extract<DuelkitEvent, { type: 'duel.settled' | 'duel.closed' }>[] = [];
    for await (const event of client().events.stream({
      types: ['duel.settled', 'duel.closed'],
      duelIds: [DUEL_ID],
      signal: controller.signal,
    })) {
      got.push(event);
      if (got.length === 2) controller.abort();
    }
    expect(got.map((e) => [e.seq, e.type, e.data.duelId])).toEqual([
      ['1', 'duel.settled', DUEL_ID],
      ['2', 'duel.closed', DUEL_ID],
    ]);
    expect(seen?.searchParams.get('types')).toBe('duel.settled,duel.closed');
    expect(seen?.searchParams.get('duelIds')).toBe(DUEL_ID);
    expect(seen?.searchParams.has('prices')).toBe(false);
    expect(key).toBe(KEY);
  });

  it('yields price updates with prices: true', async () => {
    const price = { duelId: DUEL_ID, yesBps: 6000, poolBalances: ['3', '2'], seq: '4' };
    let prices: string | null = null;
    server.use(
      http.get(STREAM, ({ request }) => {
        prices = new URL(request.url).searchParams.get('prices');
        return sse([`event: price\ndata: ${JSON.stringify(price)}\n\n`], { hold: true });
      }),
    );
    for await (const event of client().events.stream({ prices: true })) {
      expect(event).toEqual({ type: 'price', data: price });
      break;
    }
    expect(prices).toBe('true');
  });

  it('reconnects after a dropped connection with Last-Event-ID, honouring retry:, and repeats nothing', async () => {
    const lastIds: (string | null)[] = [];
    server.use(
      http.get(STREAM, ({ request }) => {
        lastIds.push(request.headers.get('last-event-id'));
        if (lastIds.length === 1) return sse(['retry: 5\n\n', frame(1), frame(2)]); // then the connection ends
        if (lastIds.length === 2) return HttpResponse.error(); // a network failure
        // A replay of 2 would be a duplicate: the client drops it.
        return sse([frame(2), frame(3)], { hold: true });
      }),
    );
    const seqs: (string | null)[] = [];
    const started = Date.now();
    for await (const event of client().events.stream()) {
      seqs.push(event.seq);
      if (seqs.length === 3) break;
    }
    expect(seqs).toEqual(['1', '2', '3']);
    expect(lastIds).toEqual([null, '2', '2']);
    // retry: 5 then 10 (a failed reconnect doubles it): milliseconds, not the default 2 s.
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('resumes from a given lastEventId', async () => {
    let lastId: string | null = null;
    server.use(
      http.get(STREAM, ({ request }) => {
        lastId = request.headers.get('last-event-id');
        return sse([frame(42)], { hold: true });
      }),
    );
    for await (const event of client().events.stream({ lastEventId: '41' })) {
      expect(event.seq).toBe('42');
      break;
    }
    expect(lastId).toBe('41');
  });

  it('ends without an error when the signal fires while waiting for an event or a reconnect', async () => {
    server.use(http.get(STREAM, () => sse(['retry: 2000\n\n', ': heartbeat\n\n'], { hold: true })));
    const waiting = new AbortController();
    const events: unknown[] = [];
    const done = (async () => {
      for await (const event of client().events.stream({ signal: waiting.signal })) events.push(event);
    })();
    setTimeout(() => waiting.abort(), 20);
    await expect(done).resolves.toBeUndefined();
    expect(events).toEqual([]);

    // Dropped at once, then waiting 60 s to reconnect: the abort cuts the wait short.
    server.use(http.get(STREAM, () => sse(['retry: 60000\n\n'])));
    const reconnecting = new AbortController();
    const ended = (async () => {
      for await (const event of client().events.stream({ signal: reconnecting.signal })) events.push(event);
    })();
    setTimeout(() => reconnecting.abort(), 20);
    await expect(ended).resolves.toBeUndefined();
  });

  it('throws a non-retryable refusal (a bad builder key) instead of reconnecting', async () => {
    let calls = 0;
    server.use(
      http.get(STREAM, () => {
        calls += 1;
        return HttpResponse.json({ code: 'UNAUTHENTICATED', message: 'bad key', requestId: 'r' }, { status: 401 });
      }),
    );
    const iterate = async () => {
      for await (const event of client().events.stream()) void event;
    };
    await expect(iterate()).rejects.toBeInstanceOf(AuthenticationError);
    expect(calls).toBe(1);
  });

  it('userStream reads the user stream with the session’s bearer token beside the builder key', async () => {
    let auth: string | null = null;
    let key: string | null = null;
    server.use(
      http.get(`${M}/svc/user/events/stream`, ({ request }) => {
        auth = request.headers.get('authorization');
        key = request.headers.get('x-builder-api-key');
        return sse(['retry: 2000\n\n', frame(7)], { hold: true });
      }),
    );
    const session = { token: 'user.jwt.value', expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
    const controller = new AbortController();
    const got: DuelkitEvent[] = [];
    const events = client({ tokenStore: { get: () => session, set: () => undefined } }).events.userStream({
      signal: controller.signal,
    });
    for await (const event of events) {
      got.push(event);
      controller.abort();
    }
    expect(got.map((e) => e.seq)).toEqual(['7']);
    expect(auth).toBe('Bearer user.jwt.value');
    expect(key).toBe(KEY);
  });
});
