import { getAddress, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import type { FixtureState } from '../../adapters/sports-provider/fixtures.port.js';
import { conditionIdOf } from './parlay-conditions.mapper.js';
import { ParlaySettlementService, resultOf } from './parlay-settlement.service.js';
import type { ConditionResult, StoredTicket, TicketStatus } from './parlay-tickets.repository.js';
import { ParlayTicketsService, isoWeek, type TicketStore } from './parlay-tickets.service.js';

const UNIT = 10n ** 18n;
const BETTOR = getAddress('0x00000000000000000000000000000000000000aa');
const OTHER = getAddress('0x00000000000000000000000000000000000000bb');
const A = conditionIdOf({ fixtureId: 7, kind: 'FULL_TIME_RESULT', playerId: 0 });
const B = conditionIdOf({ fixtureId: 8, kind: 'GOALS_OVER_UNDER', playerId: 0 });
const clock = new ManualClock(Date.UTC(2026, 11, 5, 8));

function ticket(over: Partial<StoredTicket> = {}): StoredTicket {
  return {
    ticketId: `0x${'11'.repeat(32)}`,
    bettor: BETTOR,
    nonce: 0n,
    quoteId: null,
    stake: 10n * UNIT,
    fee: UNIT / 10n,
    payout: 40n * UNIT,
    liability: 9n * UNIT,
    legs: [
      { conditionId: A, outcomeId: 0, odds: (2n * UNIT).toString() },
      { conditionId: B, outcomeId: 1, odds: (2n * UNIT).toString() },
    ],
    status: 'open',
    outcome: null,
    owed: 0n,
    poolResult: null,
    placedTx: `0x${'22'.repeat(32)}`,
    claimTx: null,
    placedAt: new Date(clock.now()),
    settledAt: null,
    claimedAt: null,
    ...over,
  };
}

class MemoryTickets implements TicketStore {
  rows = new Map<string, StoredTicket>();
  resultsBy = new Map<string, ConditionResult>();
  ticket = (id: string) => Promise.resolve(this.rows.get(id.toLowerCase()) ?? null);
  results = (ids: readonly string[]) =>
    Promise.resolve(new Map(ids.flatMap((id) => (this.resultsBy.has(id) ? [[id, this.resultsBy.get(id)!]] : []))));
  bettorTotals = () => Promise.reject(new Error('unused'));
  feeTotals = () => Promise.reject(new Error('unused'));
  compartments = () =>
    Promise.resolve([
      {
        week: new Date(Date.UTC(2026, 10, 30)),
        tickets: 1,
        openTickets: 0,
        stake: UNIT,
        lockedExposure: 0n,
        openLiability: 0n,
        realisedResult: -UNIT,
      },
    ]);
  tickets(f: { bettors?: readonly string[]; statuses?: readonly TicketStatus[]; limit: number; offset: number }) {
    const rows = [...this.rows.values()].filter(
      (t) => (!f.bettors || f.bettors.includes(t.bettor)) && (!f.statuses || f.statuses.includes(t.status)),
    );
    return Promise.resolve({ tickets: rows.slice(f.offset, f.offset + f.limit), total: rows.length });
  }
}

function setup() {
  const store = new MemoryTickets();
  const claims: { ticketId: Hex; key: string }[] = [];
  const service = new ParlayTicketsService({
    store,
    book: {
      claim: (ticketId, w) => (claims.push({ ticketId, key: w.key }), Promise.resolve(`0x${'33'.repeat(32)}` as const)),
    },
    settings: { feeBps: 100 },
  });
  const t = ticket();
  store.rows.set(t.ticketId, t);
  return { store, service, claims, t };
}

const ctx = { writeKey: (name: string) => ({ name }) as never };
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
  );

describe('ParlayTicketsService', () => {
  it('shows each leg’s result and whether the ticket can be claimed', async () => {
    const { store, service, t } = setup();
    expect(await service.status(t.ticketId)).toMatchObject({ status: 'open', legsResulted: 0, claimable: false });
    store.resultsBy.set(A, { conditionId: A, isVoid: false, winningOutcome: 0 });
    store.resultsBy.set(B, { conditionId: B, isVoid: true, winningOutcome: 0 });
    const view = await service.ticket(t.ticketId);
    expect(view.legs.map((l) => l.result)).toEqual(['won', 'void']);
    expect(view).toMatchObject({
      claimable: true,
      netStake: (10n * UNIT - UNIT / 10n).toString(),
      legs: [{ odds: '2.00' }, {}],
    });
  });

  it('refuses claims of others, of undecided and lost tickets, and of claimed ones', async () => {
    const { store, service, claims, t } = setup();
    expect(await code(service.claim(ctx, [OTHER], t.ticketId))).toBe('FORBIDDEN');
    expect(await code(service.claim(ctx, [BETTOR], t.ticketId))).toBe('TICKET_NOT_SETTLED');
    store.resultsBy.set(A, { conditionId: A, isVoid: false, winningOutcome: 2 });
    expect(await code(service.claim(ctx, [BETTOR], t.ticketId))).toBe('TICKET_NOT_CLAIMABLE');
    store.rows.set(t.ticketId, { ...t, status: 'claimed', outcome: 'won', owed: UNIT });
    expect(await code(service.claim(ctx, [BETTOR], t.ticketId))).toBe('ALREADY_CLAIMED');
    expect(await code(service.claim(ctx, [BETTOR], `0x${'99'.repeat(32)}`))).toBe('NOT_FOUND');
    expect(claims).toEqual([]);
  });

  it('claims a won ticket once per ticket key', async () => {
    const { store, service, claims, t } = setup();
    store.rows.set(t.ticketId, { ...t, status: 'won', outcome: 'won', owed: 19n * UNIT });
    const res = await service.claim(ctx, [BETTOR], t.ticketId);
    expect(res).toMatchObject({ amount: (19n * UNIT).toString(), status: 'submitted' });
    expect(claims).toEqual([{ ticketId: t.ticketId, key: `parlay:claim:${t.ticketId}` }]);
  });

  it('answers 503 without a ticket contract', async () => {
    const service = new ParlayTicketsService({
      store: new MemoryTickets(),
      book: undefined,
      settings: { feeBps: 100 },
    });
    expect(await code(service.claim(ctx, [BETTOR], `0x${'11'.repeat(32)}`))).toBe('SERVICE_UNAVAILABLE');
  });

  it('pages lists and names compartments by ISO week, closed once the week is over with nothing open', async () => {
    const { service } = setup();
    expect((await service.list([BETTOR], { page: 1, limit: 20 })).pagination).toEqual({
      page: 1,
      limit: 20,
      total: 1,
      hasMore: false,
    });
    expect(isoWeek(new Date(Date.UTC(2026, 10, 30)))).toBe('2026-W49');
    expect((await service.compartments(new Date(clock.now()))).compartments[0]).toMatchObject({ status: 'open' });
    clock.advance(7 * 86_400_000);
    expect((await service.compartments(new Date(clock.now()))).compartments[0]).toMatchObject({ status: 'closed' });
  });
});

describe('parlay settlement', () => {
  const finished = (outcome: 'HOME' | 'DRAW' | 'AWAY', home: number, away: number): FixtureState => ({
    state: 'finished',
    outcome,
    homeScore: home,
    awayScore: away,
  });

  it('maps a finished game to each condition’s winning outcome, and voids goalscorers and void games', () => {
    expect(resultOf({ fixtureId: 1, kind: 'FULL_TIME_RESULT', playerId: 0 }, finished('AWAY', 0, 1))).toEqual({
      isVoid: false,
      winningOutcome: 2,
    });
    expect(resultOf({ fixtureId: 1, kind: 'GOALS_OVER_UNDER', playerId: 0 }, finished('HOME', 2, 1))).toEqual({
      isVoid: false,
      winningOutcome: 0,
    });
    expect(resultOf({ fixtureId: 1, kind: 'GOALS_OVER_UNDER', playerId: 0 }, finished('DRAW', 1, 1))).toMatchObject({
      winningOutcome: 1,
    });
    expect(resultOf({ fixtureId: 1, kind: 'ANYTIME_GOALSCORER', playerId: 9 }, finished('HOME', 1, 0))).toMatchObject({
      isVoid: true,
    });
    expect(resultOf({ fixtureId: 1, kind: 'FULL_TIME_RESULT', playerId: 0 }, { state: 'in_play' })).toBeNull();
    expect(
      resultOf({ fixtureId: 1, kind: 'FULL_TIME_RESULT', playerId: 0 }, { state: 'void', reason: 'x' }),
    ).toMatchObject({
      isVoid: true,
    });
  });

  it('posts results of finished games only, then settles, each write keyed by what it does', async () => {
    const writes: string[] = [];
    const service = new ParlaySettlementService({
      book: {
        postResult: (_c, _v, _o, w) => (writes.push(w.key), Promise.resolve(`0x${'44'.repeat(32)}` as const)),
        settle: (_t, w) => (writes.push(w.key), Promise.resolve(`0x${'55'.repeat(32)}` as const)),
      },
      fixtures: { state: (id) => Promise.resolve(id === 7 ? finished('HOME', 1, 0) : { state: 'scheduled' }) },
      tickets: {
        unresolvedConditions: () => Promise.resolve([A.toLowerCase(), B.toLowerCase()]),
        settleable: () => Promise.resolve([`0x${'11'.repeat(32)}`]),
      },
      logger: { info: () => undefined } as never,
    });
    expect(await service.runOnce()).toEqual({ results: 1, settled: 1 });
    expect(writes).toEqual([`parlay:result:${A.toLowerCase()}`, `parlay:settle:0x${'11'.repeat(32)}`]);
  });
});
