import { http, HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { apiError, client, DUEL_ID, duelFixture, M, mockService } from '../test/mock-service.js';
import type { BetsCreateInput, Duel } from './api.generated.js';
import type { DuelkitClient } from './client.js';
import { AbortError, ConflictError, TimeoutError } from './core/errors.js';
import type { InputOf, OutputOf } from './core/types.js';
import { fromBaseUnits, toBaseUnits } from './core/units.js';
import { QuoteRejectedError } from './trade.js';

const server = mockService();
const UNIT = 10n ** 18n;
const MANAGED = '0x00000000000000000000000000000000000000Bb';
const TX = `0x${'cd'.repeat(32)}`;

const duel = duelFixture('open');

function estimate(amountIn: bigint, optionIndex: number, slippageBps: number) {
  return {
    quoteId: 'q-1',
    side: 'buy',
    trader: MANAGED,
    duelId: DUEL_ID,
    optionIndex,
    amountIn: amountIn.toString(),
    fee: '0',
    sharesOut: (2n * amountIn).toString(),
    minSharesOut: ((2n * amountIn * BigInt(10_000 - slippageBps)) / 10_000n).toString(),
    slippageBps,
    avgPrice: '500000000000000000',
    pricesBefore: ['500000000000000000', '500000000000000000'],
    pricesAfter: ['600000000000000000', '400000000000000000'],
    priceImpactBps: 1000,
    quotedAt: '2026-11-22T12:00:00.000Z',
    expiresAt: '2026-11-22T12:01:00.000Z',
  };
}

/** A market maker: the duel, quotes, bets (created after `createFailures` 503s) and positions indexed after `indexAfterReads`. */
function market(options: { createFailures?: number; indexAfterReads?: number; duelOverride?: object } = {}) {
  const seen = {
    estimateKeys: [] as (string | null)[],
    createKeys: [] as (string | null)[],
    createBodies: [] as unknown[],
  };
  let shares = 0n;
  let pendingShares = 0n;
  let readsSinceBet = 0;
  let failures = options.createFailures ?? 0;
  server.use(
    http.get(`${M}/svc/user/duels/get-duel-by-id/:duelId`, () =>
      HttpResponse.json({ ...fullDuel(), ...(options.duelOverride ?? {}) }),
    ),
    http.post(`${M}/svc/user/bets/estimate-buy`, async ({ request }) => {
      seen.estimateKeys.push(request.headers.get('idempotency-key'));
      const body = (await request.json()) as { betAmountUsdc: string; optionIndex: number; slippageBps: number };
      return HttpResponse.json(
        { success: true, estimate: estimate(BigInt(body.betAmountUsdc), body.optionIndex, body.slippageBps) },
        { status: 201 },
      );
    }),
    http.post(`${M}/svc/user/bets/create`, async ({ request }) => {
      seen.createKeys.push(request.headers.get('idempotency-key'));
      const body = (await request.json()) as { estimate: ReturnType<typeof estimate>; optionIndex: number };
      seen.createBodies.push(body);
      if (failures > 0) {
        failures -= 1;
        return apiError(503, 'CHAIN_UNAVAILABLE', { 'retry-after-ms': '1' });
      }
      pendingShares = BigInt(body.estimate.sharesOut);
      readsSinceBet = 0;
      return HttpResponse.json(
        {
          success: true,
          txHash: TX,
          duelId: DUEL_ID,
          optionIndex: body.optionIndex,
          betAmount: body.estimate.amountIn,
          expectedSharesOut: body.estimate.sharesOut,
          minSharesOut: body.estimate.minSharesOut,
          chainState: 'pending',
        },
        { status: 201 },
      );
    }),
    http.get(`${M}/svc/user/bets/user-shares/:duelId/:address`, () => {
      readsSinceBet += 1;
      if (pendingShares > 0n && readsSinceBet > (options.indexAfterReads ?? 0)) {
        shares += pendingShares;
        pendingShares = 0n;
      }
      return HttpResponse.json({
        duelId: DUEL_ID,
        address: MANAGED,
        shares: [
          { optionIndex: 0, label: 'YES', shares: shares.toString(), costBasis: '0', sellValue: '0' },
          { optionIndex: 1, label: 'NO', shares: '0', costBasis: '0', sellValue: '0' },
        ],
      });
    }),
  );
  return seen;
}

function fullDuel() {
  return {
    ...duel,
    isPrivate: false,
    leagueId: null,
    parentMarketId: null,
    coverImageUrl: null,
    creatorAddress: MANAGED,
    startTime: '2026-11-22T12:00:00.000Z',
    endTime: '2026-11-23T12:00:00.000Z',
    createdAt: '2026-11-22T11:00:00.000Z',
    status: 'open',
    chainState: 'confirmed',
    txHash: TX,
    chainError: null,
    winningOptionIndex: null,
    poolBalances: ['0', '0'],
    prices: ['500000000000000000', '500000000000000000'],
    yesPercentage: 50,
    totalVolume: '0',
    uniqueParticipants: 0,
    extMarketId: null,
    extMarketVolume24h: null,
    extLive: false,
    isCanonical: false,
  };
}

describe('method types', () => {
  it('name what a route takes and answers', () => {
    expectTypeOf<OutputOf<DuelkitClient['duels']['getById']>>().toEqualTypeOf<Duel>();
    expectTypeOf<InputOf<DuelkitClient['bets']['create']>>().toEqualTypeOf<BetsCreateInput>();
  });
});

describe('units', () => {
  it('converts whole units to base units and back, exactly', () => {
    expect(toBaseUnits('12.5')).toBe(12n * UNIT + UNIT / 2n);
    expect(toBaseUnits('5')).toBe(5n * UNIT);
    expect(toBaseUnits('0.000000000000000001')).toBe(1n);
    expect(fromBaseUnits(12n * UNIT + UNIT / 2n)).toBe('12.5');
    expect(fromBaseUnits('5000000000000000000')).toBe('5');
    expect(() => toBaseUnits('1.0000000000000000001')).toThrow(RangeError);
    expect(() => toBaseUnits('-1')).toThrow(RangeError);
    expect(() => toBaseUnits('1e3')).toThrow(RangeError);
  });
});

describe('trade.buy', () => {
  it('quotes and places the bet with one Idempotency-Key, repeating the quote in the bet', async () => {
    const seen = market();
    const result = await client().trade.buy({ duelId: DUEL_ID, option: 'yes', amount: '12.5', maxSlippageBps: 200 });
    expect(result.bet.txHash).toBe(TX);
    expect(result.optionIndex).toBe(0);
    expect(result.managedAddress).toBe(MANAGED);
    expect(seen.estimateKeys).toEqual([result.idempotencyKey]);
    expect(seen.createKeys).toEqual([result.idempotencyKey]);
    expect(seen.createBodies[0]).toMatchObject({
      estimate: { amountIn: (12n * UNIT + UNIT / 2n).toString(), slippageBps: 200 },
      duelId: DUEL_ID,
      duelType: 'PREDICTION',
      bet: 'YES',
      optionIndex: 0,
      betAmount: (12n * UNIT + UNIT / 2n).toString(),
      betAmountUsdc: (12n * UNIT + UNIT / 2n).toString(),
      slippageBps: 200,
      tokenDecimals: 18,
    });
  });

  it('takes base units as a bigint and an option by index, and keeps a key you pass', async () => {
    const seen = market();
    const result = await client().trade.buy(
      { duelId: DUEL_ID, option: 1, amountBaseUnits: 5n * UNIT },
      { idempotencyKey: 'my-key-1' },
    );
    expect(result.idempotencyKey).toBe('my-key-1');
    expect(seen.createKeys).toEqual(['my-key-1']);
    expect(seen.createBodies[0]).toMatchObject({ bet: 'NO', optionIndex: 1, betAmount: (5n * UNIT).toString() });
  });

  it('sends the same key and the same quote again when placing the bet is retried', async () => {
    const seen = market({ createFailures: 1 });
    const result = await client().trade.buy({ duelId: DUEL_ID, option: 0, amount: '5' });
    expect(seen.estimateKeys).toHaveLength(1);
    expect(seen.createKeys).toEqual([result.idempotencyKey, result.idempotencyKey]);
    expect(seen.createBodies[1]).toEqual(seen.createBodies[0]);
  });

  it('waits until the position is indexed', async () => {
    market({ indexAfterReads: 3 });
    const result = await client().trade.buy({ duelId: DUEL_ID, option: 'YES', amount: '5' });
    const position = await result.wait({ intervalMs: 1 });
    expect(BigInt(position.shares)).toBeGreaterThanOrEqual(BigInt(result.bet.minSharesOut));
  });

  it('gives up waiting with TimeoutError, and with AbortError when the signal fires', async () => {
    market({ indexAfterReads: 1_000 });
    const result = await client().trade.buy({ duelId: DUEL_ID, option: 'YES', amount: '5' });
    const timedOut = await result.wait({ timeoutMs: 30, intervalMs: 5 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect((timedOut as TimeoutError).idempotencyKey).toBe(result.idempotencyKey);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(result.wait({ signal: controller.signal, intervalMs: 5 })).rejects.toBeInstanceOf(AbortError);
  });

  it('throws QuoteRejectedError when the service will not quote, and places nothing', async () => {
    const seen = market();
    server.use(
      http.post(`${M}/svc/user/bets/estimate-buy`, () =>
        HttpResponse.json({ success: false, code: 'BET_BELOW_MINIMUM', message: 'at least 5 units' }, { status: 201 }),
      ),
    );
    const err = await client()
      .trade.buy({ duelId: DUEL_ID, option: 'YES', amount: '1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuoteRejectedError);
    expect((err as QuoteRejectedError).code).toBe('BET_BELOW_MINIMUM');
    expect(seen.createKeys).toEqual([]);
  });

  it('refuses an unknown option and an ambiguous or missing amount before sending anything', async () => {
    const seen = market();
    const c = client();
    await expect(c.trade.buy({ duelId: DUEL_ID, option: 'MAYBE', amount: '5' })).rejects.toThrow(/no option "MAYBE"/);
    await expect(c.trade.buy({ duelId: DUEL_ID, option: 0, amount: 'five' })).rejects.toThrow(RangeError);
    const both = { duelId: DUEL_ID, option: 0, amount: '5', amountBaseUnits: 5n } as unknown as Parameters<
      typeof c.trade.buy
    >[0];
    await expect(c.trade.buy(both)).rejects.toThrow(/not both/);
    expect(seen.estimateKeys).toEqual([]);
  });

  it('passes an error of the bet through with the key it used', async () => {
    market();
    server.use(http.post(`${M}/svc/user/bets/create`, () => apiError(409, 'CONFLICT')));
    const err = await client({ maxRetries: 0 })
      .trade.buy({ duelId: DUEL_ID, option: 'YES', amount: '5' }, { idempotencyKey: 'k-2' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).idempotencyKey).toBe('k-2');
  });
});
