import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import type { Body } from '../../../test/support/http.js';
import { conditionIdOf } from './parlay-conditions.mapper.js';
import { TOURNAMENT_ENV, UNIT, player, tournamentsApi, type Player } from '../tournaments/tournaments.test-kit.js';

/** Saturday 5 December 2026, 08:00 UTC: the fake calendar kicks off a game every even hour. */
const T0 = Date.UTC(2026, 11, 5, 8);
const clock = new ManualClock(T0);
const BOOK = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const LP = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
let server: TestServer;
const api = tournamentsApi(() => server);
let alice: Player, bob: Player;
let markets: Body[];

const conditionsOf = async (marketId: string) =>
  (await api(`/api/parlay/markets/${marketId}`)).body['conditions'] as {
    conditionId: string;
    kind: string;
    outcomes: { outcomeId: number }[];
  }[];
const resultOf = async (marketId: string) =>
  (await conditionsOf(marketId)).find((c) => c.kind === 'FULL_TIME_RESULT')!.conditionId;

beforeAll(async () => {
  server = await startTestServer(
    { ...TOURNAMENT_ENV, PARLAY_BOOK_ADDRESS: BOOK, PARLAY_CAP_PER_OUTCOME: (300n * UNIT).toString() },
    { clock },
  );
  [alice, bob] = await Promise.all([player(server, 'parlay_alice'), player(server, 'parlay_bob')]);
  // The pool as the indexer records it from the pool contract's Deposit event.
  await server.container.parlay.repository.recordMovement({
    account: LP,
    kind: 'deposit',
    assets: 100_000n * UNIT,
    shares: 100_000n * UNIT,
    at: new Date(T0),
  });
  markets = (await api('/api/parlay/markets')).body['markets'] as Body[];
}, 120_000);
afterAll(() => server?.close());

describe('parlay catalogue over HTTP', () => {
  it('lists the games of the next day, open until ten minutes before kick-off', async () => {
    // 10:00 to 06:00 the next morning: the game kicking off at 08:00 now is no longer listed.
    expect(markets.length).toBe(11);
    expect(markets[0]).toMatchObject({
      status: 'open',
      leagueId: 8,
      startsAt: '2026-12-05T10:00:00.000Z',
      closesAt: '2026-12-05T09:50:00.000Z',
    });
  });

  it('shows a game with its result, goals line and goalscorer conditions', async () => {
    const id = markets[0]!['marketId'] as string;
    const detail = await api(`/api/parlay/markets/${id}`);
    expect(detail.status).toBe(200);
    const kinds = (detail.body['conditions'] as Body[]).map((c): unknown => c['kind']);
    expect(kinds.slice(0, 2)).toEqual(['FULL_TIME_RESULT', 'GOALS_OVER_UNDER']);
    expect(kinds.filter((k) => k === 'ANYTIME_GOALSCORER')).toHaveLength(6);
    const props = await api(`/api/parlay/markets/${id}/player-props`);
    expect((props.body['props'] as Body[]).map((p): unknown => p['playerId'])).toHaveLength(6);
    const menu = await api(`/api/parlay/markets/${id}/sgp-menu`);
    expect((menu.body['legs'] as Body[]).some((l) => l['kind'] === 'GOALS_OVER_UNDER')).toBe(false);
    const conds = await api(`/api/parlay/conditions?marketId=${id}`);
    expect((conds.body['conditions'] as Body[]).length).toBe(8);
    const odds = await api(`/api/parlay/odds/${id}`);
    expect((odds.body['conditions'] as Body[]).length).toBe(8);
    const one = await api(`/api/parlay/odds/${await resultOf(id)}`);
    expect((one.body['conditions'] as Body[]).map((c) => (c['outcomes'] as Body[]).length)).toEqual([3]);
  });

  it('answers 404 for a condition the game does not have and 400 for a malformed id', async () => {
    const fixtureId = Number(markets[0]!['marketId']);
    const stranger = conditionIdOf({ fixtureId, kind: 'ANYTIME_GOALSCORER', playerId: 1 });
    const res = await api(`/api/parlay/odds/${stranger}`);
    expect([res.status, res.body['code']]).toEqual([404, 'NOT_FOUND']);
    expect((await api('/api/parlay/markets/abc/sgp-menu')).status).toBe(400);
    expect((await api('/api/parlay/markets/0/player-props')).status).toBe(400);
  });

  it('lists every condition of the catalogue', async () => {
    const all = await api('/api/parlay/conditions');
    expect((all.body['conditions'] as Body[]).length).toBe(11 * 8);
  });

  it('builds the Saturday accumulator and a team run', async () => {
    const sat = await api('/api/parlay/builders/european-saturday');
    expect(sat.status).toBe(200);
    expect(sat.body['date']).toBe('2026-12-05');
    expect((sat.body['legs'] as Body[]).map((l): unknown => l['marketId'])).toEqual(
      markets.slice(0, 4).map((m): unknown => m['marketId']),
    );
    const home = markets[0]!['homeTeam'] as string;
    const run = await api(`/api/parlay/builders/same-team-run?team=${encodeURIComponent(home.toUpperCase())}`);
    expect(run.status).toBe(200);
    expect(run.body['team']).toBe(home);
    expect((run.body['legs'] as Body[])[0]).toMatchObject({ marketId: markets[0]!['marketId'], outcomeId: 0 });
    expect((await api('/api/parlay/builders/same-team-run?team=Nobody')).status).toBe(404);
  });
});

describe('legs and quotes over HTTP', () => {
  let legs: { conditionId: string; outcomeId: number }[];
  let quote: Body;
  beforeAll(async () => {
    legs = [
      { conditionId: await resultOf(markets[1]!['marketId'] as string), outcomeId: 1 },
      { conditionId: await resultOf(markets[2]!['marketId'] as string), outcomeId: 1 },
    ];
  });

  it('validates legs for a signed-in caller, with every problem per leg', async () => {
    expect((await api('/api/parlay/legs/validate', { body: { legs } })).status).toBe(401);
    const ok = await api('/api/parlay/legs/validate', { token: alice.token, body: { legs } });
    expect(ok.status).toBe(200);
    expect(ok.body['valid']).toBe(true);
    const bad = await api('/api/parlay/legs/validate', { token: alice.token, body: { legs: [legs[0], legs[0]] } });
    expect(bad.status).toBe(422);
    expect(bad.body['code']).toBe('LEGS_INVALID');
    expect(bad.body['fieldErrors']).toEqual({ 'legs.1': ['duplicate of leg 0'] });
  });

  it('quotes a signed ticket bound to the caller, with its nonce', async () => {
    const res = await api('/api/parlay/quote', {
      token: alice.token,
      body: { bettor: alice.address, legs, stake: (10n * UNIT).toString() },
    });
    expect(res.status).toBe(201);
    quote = res.body;
    expect(quote['nonce']).toBe('0');
    expect((quote['typedData'] as Body)['domain']).toMatchObject({ name: 'Duelkit Parlay', verifyingContract: BOOK });
    expect((await api(`/api/parlay/quote/${quote['quoteId'] as string}`)).body['payout']).toBe(quote['payout']);
    expect((await api(`/api/parlay/users/${alice.address}/nonce`)).body['nonce']).toBe('1');
    expect((await api('/api/parlay/quote/pq_000000000000000000000000')).status).toBe(404);
  });

  it('answers a repeated Idempotency-Key with the same quote, holding its exposure once', async () => {
    const headers = { 'idempotency-key': 'parlay-quote-once' };
    const body = { bettor: alice.address, legs, stake: (10n * UNIT).toString() };
    const first = await api('/api/parlay/quote', { token: alice.token, body, headers });
    const second = await api('/api/parlay/quote', { token: alice.token, body, headers });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body['quoteId']).toBe(first.body['quoteId']);
    expect((await api(`/api/parlay/users/${alice.address}/nonce`)).body['nonce']).toBe('2');
  });

  it('refuses a quote for someone else, a stake below the minimum, and no credential', async () => {
    const body = { bettor: bob.address, legs, stake: (10n * UNIT).toString() };
    expect((await api('/api/parlay/quote', { token: alice.token, body })).body['code']).toBe('QUOTE_NOT_YOURS');
    const low = await api('/api/parlay/quote', {
      token: alice.token,
      body: { ...body, bettor: alice.address, stake: UNIT.toString() },
    });
    expect([low.status, low.body['code'], (low.body['details'] as Body)['limit']]).toEqual([
      422,
      'PARLAY_LIMIT',
      'minStake',
    ]);
    expect((await api('/api/parlay/quote', { body })).status).toBe(401);
  });

  it('validates the quote as issued and refuses it tampered or for another bettor', async () => {
    const message = (quote['typedData'] as Body)['message'] as Body;
    const signature = quote['signature'];
    const ok = await api('/api/parlay/quote/validate', { token: alice.token, body: { quote: message, signature } });
    expect([ok.status, ok.body['quoteId']]).toEqual([200, quote['quoteId']]);
    const tampered = { ...message, stake: (1n * UNIT).toString() };
    expect(
      (await api('/api/parlay/quote/validate', { token: alice.token, body: { quote: tampered, signature } })).body[
        'code'
      ],
    ).toBe('QUOTE_INVALID');
    expect(
      (await api('/api/parlay/quote/validate', { token: bob.token, body: { quote: message, signature } })).body['code'],
    ).toBe('QUOTE_NOT_YOURS');
  });

  it('refuses the quote once the server’s clock passes its expiry', async () => {
    const message = (quote['typedData'] as Body)['message'] as Body;
    clock.advance(120_000);
    const res = await api('/api/parlay/quote/validate', {
      token: alice.token,
      body: { quote: message, signature: quote['signature'] },
    });
    expect([res.status, res.body['code']]).toEqual([400, 'QUOTE_EXPIRED']);
    expect((await api(`/api/parlay/quote/${quote['quoteId'] as string}`)).body['status']).toBe('expired');
  });

  it('holds the cap of one outcome under 50 concurrent quotes', async () => {
    const target = [
      { conditionId: await resultOf(markets[5]!['marketId'] as string), outcomeId: 2 },
      { conditionId: await resultOf(markets[6]!['marketId'] as string), outcomeId: 2 },
    ];
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        api('/api/parlay/quote', {
          token: bob.token,
          body: { bettor: bob.address, legs: target, stake: (10n * UNIT).toString() },
        }),
      ),
    );
    const accepted = results.filter((r) => r.status === 201);
    expect(results.every((r) => r.status === 201 || r.body['code'] === 'EXPOSURE_LIMIT')).toBe(true);
    const held = accepted.reduce((a, r) => a + BigInt(r.body['exposure'] as string), 0n);
    expect(held).toBeLessThanOrEqual(300n * UNIT);
    expect(held + BigInt(accepted[0]!.body['exposure'] as string)).toBeGreaterThan(300n * UNIT);
    const breakdown = await api('/api/lp/exposure-breakdown');
    const row = (breakdown.body['byOutcome'] as Body[]).find((r) => r['conditionId'] === target[0]!.conditionId);
    expect(row?.['exposure']).toBe(held.toString());
    const mine = await api(`/api/lp/bettor/${bob.address}/exposure`);
    expect([mine.body['total'], mine.body['liveQuotes']]).toEqual([held.toString(), accepted.length]);
  });

  it('shows the fee configuration and previews a fee to the base unit', async () => {
    expect((await api('/api/parlay/fees/config')).body).toMatchObject({ feeBps: 100, marginBps: 500, decimals: 18 });
    expect((await api('/api/parlay/fees/preview/999')).body).toEqual({
      amount: '999',
      fee: '9',
      netStake: '990',
      feeBps: 100,
    });
    expect((await api('/api/parlay/fees/preview/-1')).status).toBe(400);
  });
});

describe('liquidity pool over HTTP', () => {
  it('shows cash, NAV, share price and the exposure live quotes hold', async () => {
    const pool = await api('/api/lp/pool');
    expect(pool.body).toMatchObject({
      cash: (100_000n * UNIT).toString(),
      nav: (100_000n * UNIT).toString(),
      sharePrice: '1.000000000000000000',
    });
    expect(BigInt(pool.body['lockedExposure'] as string)).toBeGreaterThan(0n);
    const position = await api(`/api/lp/position/${LP}`);
    expect(position.body).toMatchObject({
      shares: (100_000n * UNIT).toString(),
      value: (100_000n * UNIT).toString(),
      pnl: '0',
    });
  });

  it('quotes shares for an amount at the share price, for a signed-in caller', async () => {
    expect((await api('/api/lp/add-liquidity/quote', { body: { amount: '1' } })).status).toBe(401);
    const q = await api('/api/lp/add-liquidity/quote', {
      token: alice.token,
      body: { amount: (500n * UNIT).toString() },
    });
    expect(q.body).toMatchObject({ shares: (500n * UNIT).toString(), lockupSeconds: 7 * 86_400 });
    expect((await api('/api/lp/add-liquidity/quote', { token: alice.token, body: { amount: '0' } })).status).toBe(400);
  });

  it('refuses to quote a removal beyond the caller’s shares', async () => {
    const r = await api('/api/lp/remove-liquidity/quote', { token: alice.token, body: { shares: '1' } });
    expect([r.status, r.body['code']]).toEqual([400, 'INSUFFICIENT_SHARES']);
  });

  it('reports realised results as APY and moves the LP’s position by exactly the result', async () => {
    clock.advance(86_400_000);
    await server.container.parlay.repository.recordMovement({
      account: null,
      kind: 'result',
      assets: 30n * UNIT,
      shares: 0n,
      at: new Date(clock.now()),
    });
    const apy = await api('/api/lp/apy');
    // 30 over 30 days on 100,030 of NAV, annualised: 30 × 10000 × 365 / (100030 × 30) = 36 bp (floored)
    expect(apy.body).toMatchObject({ realisedResult: (30n * UNIT).toString(), apyBps: '36' });
    const position = await api(`/api/lp/position/${LP}`);
    const value = (100_000n * UNIT * (100_030n * UNIT + 1n)) / (100_000n * UNIT + 1n);
    expect(position.body).toMatchObject({ value: value.toString(), pnl: (value - 100_000n * UNIT).toString() });
  });

  it('refuses an LP’s removal quote during its lockup, then quotes it', async () => {
    const lp = await player(server, 'parlay_lp');
    await server.container.parlay.repository.recordMovement({
      account: lp.address,
      kind: 'deposit',
      assets: 1_000n * UNIT,
      shares: 999n * UNIT,
      at: new Date(clock.now()),
    });
    const locked = await api('/api/lp/remove-liquidity/quote', {
      token: lp.token,
      body: { shares: (999n * UNIT).toString() },
    });
    expect([locked.status, locked.body['code'], (locked.body['details'] as Body)['reason']]).toEqual([
      409,
      'LIQUIDITY_LOCKED',
      'lockup',
    ]);
    clock.advance(7 * 86_400_000);
    const ok = await api('/api/lp/remove-liquidity/quote', {
      token: lp.token,
      body: { shares: (999n * UNIT).toString() },
    });
    expect(ok.status).toBe(200);
    expect(BigInt(ok.body['amountOut'] as string)).toBeGreaterThan(999n * UNIT);
  });
});
