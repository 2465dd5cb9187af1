import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainPort, MarketEvent } from '../../adapters/chain/chain.port.js';
import { ONE, prices } from './fpmm.math.js';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { entities } from '../../entities.js';
import { isDomainError } from '../../errors.js';
import { MarketIndexer } from './market-indexer.js';
import { Lease } from '../../platform/jobs/lease.js';
import { createLogger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { insertDuel as insertDuelRow, newDuelId, type DuelFixture } from '../../../test/support/duel-fixture.js';
import { DuelRepository } from './duel.repository.js';
import { MarketAccess } from './market-access.js';
import { PriceHistoryService, type PriceHistoryQuery } from './price-history.service.js';
import { PriceSnapshotRepository, recordTradeSnapshot } from './price-snapshot.repository.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const CREATOR = '0x00000000000000000000000000000000000000Aa' as const;
const STRANGER = '0x00000000000000000000000000000000000000bB';
/** A member of every private duel (the membership directory is the invitations area's). */
const MEMBER = '0x00000000000000000000000000000000000000cC';

interface DuelSeed {
  isPrivate?: boolean;
  creator?: string;
  parent?: string | null;
  status?: DuelFixture['status'];
  chainState?: DuelFixture['chainState'];
  balances?: readonly bigint[];
  createdAt?: Date;
}

async function insertDuel(orm: Orm, seed: DuelSeed = {}): Promise<string> {
  const duelId = newDuelId();
  return insertDuelRow(orm.em.fork().getConnection(), {
    duelId,
    creator: (seed.creator ?? CREATOR).toLowerCase(),
    question: `Question ${duelId.slice(0, 10)}`,
    isPrivate: seed.isPrivate ?? false,
    parentMarketId: seed.parent ?? null,
    createdAt: seed.createdAt ?? new Date(NOW.getTime() - 3 * 86_400_000),
    status: seed.status ?? 'open',
    chainState: seed.chainState ?? 'confirmed',
    poolBalances: seed.balances ?? [ONE, ONE],
  });
}

/** A two-option pool whose option-0 price is yes / (yes + no). */
const pool = (yes: number, no: number): bigint[] => [BigInt(no) * ONE, BigInt(yes) * ONE];

async function snapshot(orm: Orm, duelId: string, time: Date, balances: readonly bigint[]): Promise<void> {
  await recordTradeSnapshot(orm.em.fork().getConnection(), duelId, balances, time.getTime() / 1000);
}

const at = (hhmmss: string, day = '2026-11-23') => new Date(`${day}T${hhmmss}.000Z`);
const q = (timeRange: PriceHistoryQuery['timeRange'], limit = 500): PriceHistoryQuery => ({ timeRange, limit });
const summary = (points: readonly { timestamp: string; yesPercentage: number }[]) =>
  points.map((p) => [p.timestamp, p.yesPercentage]);

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (isDomainError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a rejection');
}

async function setup() {
  const db = await createTestDatabase();
  const orm = await initOrm(entities, db.url, 3, false);
  const service = new PriceHistoryService(
    new DuelRepository(orm),
    new PriceSnapshotRepository(orm),
    new MarketAccess({
      isMember: (_duelId, address) => Promise.resolve(address.toLowerCase() === MEMBER.toLowerCase()),
    }),
    new ManualClock(NOW.getTime()),
  );
  return { db, orm, service };
}

describe('PriceHistoryService reads', () => {
  let db: TestDatabase;
  let orm: Orm;
  let service: PriceHistoryService;
  let charted: string;
  let quiet: string;
  let secret: string;
  let publicChild: string;
  let privateChild: string;
  const parent = randomUUID();
  const strangersParent = randomUUID();

  beforeAll(async () => {
    ({ db, orm, service } = await setup());
    charted = await insertDuel(orm);
    // Two days ago: before every window but ALL, so it is the price carried in at the window start.
    await snapshot(orm, charted, new Date(NOW.getTime() - 2 * 86_400_000), pool(20, 80));
    // One 30-minute bucket [10:00, 10:30) with three snapshots: the last (90 %) stands for it.
    await snapshot(orm, charted, at('10:00:00'), pool(50, 50));
    await snapshot(orm, charted, at('10:10:00'), pool(75, 25));
    await snapshot(orm, charted, at('10:29:59'), pool(90, 10));
    await snapshot(orm, charted, at('11:00:00'), pool(25, 75));
    // Two trades of one block share a timestamp: insertion order decides which is last.
    await snapshot(orm, charted, at('11:40:00'), pool(50, 50));
    await snapshot(orm, charted, at('11:40:00'), pool(80, 20));

    quiet = await insertDuel(orm, { balances: pool(25, 75) });
    secret = await insertDuel(orm, { isPrivate: true, creator: CREATOR });
    await snapshot(orm, secret, at('11:00:00'), pool(60, 40));

    publicChild = await insertDuel(orm, { parent, createdAt: at('09:00:00', '2026-11-01') });
    privateChild = await insertDuel(orm, { parent, isPrivate: true, createdAt: at('10:00:00', '2026-11-01') });
    await insertDuel(orm, { parent, chainState: 'failed' });
    await snapshot(orm, publicChild, at('11:00:00'), pool(30, 70));
    await snapshot(orm, privateChild, at('11:10:00'), pool(70, 30));
    await insertDuel(orm, { parent: strangersParent, isPrivate: true, creator: STRANGER });
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  it('returns the last snapshot of each bucket, oldest first, after the price carried in at the window start', async () => {
    const history = await service.duelHistory(charted, q('1D'), null);
    expect(history).toMatchObject({ duelId: charted, timeRange: '1D', bucketSeconds: 1800 });
    expect(summary(history.points)).toEqual([
      ['2026-11-22T12:00:00.000Z', 20],
      ['2026-11-23T10:29:59.000Z', 90],
      ['2026-11-23T11:00:00.000Z', 25],
      ['2026-11-23T11:40:00.000Z', 80],
    ]);
    expect(history.points[3]?.prices).toEqual(prices(pool(80, 20)).map(String));
    expect(history.points[3]?.prices).toEqual(['800000000000000000', '200000000000000000']);
  });

  it('keeps only the most recent `limit` points, dropping the starting point first', async () => {
    const three = await service.duelHistory(charted, q('1D', 3), null);
    expect(summary(three.points)).toEqual([
      ['2026-11-23T10:29:59.000Z', 90],
      ['2026-11-23T11:00:00.000Z', 25],
      ['2026-11-23T11:40:00.000Z', 80],
    ]);
    const one = await service.duelHistory(charted, q('1D', 1), null);
    expect(summary(one.points)).toEqual([['2026-11-23T11:40:00.000Z', 80]]);
  });

  it('narrows the bucket with the range and carries the last earlier price into a short window', async () => {
    const halfHour = await service.duelHistory(charted, q('30M'), null);
    expect(halfHour.bucketSeconds).toBe(60);
    expect(summary(halfHour.points)).toEqual([
      ['2026-11-23T11:30:00.000Z', 25],
      ['2026-11-23T11:40:00.000Z', 80],
    ]);
    const sixHours = await service.duelHistory(charted, q('6H'), null);
    expect(sixHours.bucketSeconds).toBe(600);
    // 10-minute buckets split the 10:00 bucket of the 1D chart in three.
    expect(summary(sixHours.points).map(([, y]) => y)).toEqual([20, 50, 75, 90, 25, 80]);
  });

  it('charts the whole history with ALL, choosing the narrowest bucket that fits the limit', async () => {
    const all = await service.duelHistory(charted, q('ALL'), null);
    // Two days in at most 500 buckets: 1 and 2 minutes are too narrow, 10 minutes fit.
    expect(all.bucketSeconds).toBe(600);
    expect(summary(all.points)).toEqual([
      ['2026-11-21T12:00:00.000Z', 20],
      ['2026-11-23T10:00:00.000Z', 50],
      ['2026-11-23T10:10:00.000Z', 75],
      ['2026-11-23T10:29:59.000Z', 90],
      ['2026-11-23T11:00:00.000Z', 25],
      ['2026-11-23T11:40:00.000Z', 80],
    ]);
    const coarse = await service.duelHistory(charted, q('ALL', 10), null);
    expect(coarse.bucketSeconds).toBe(12 * 3600);
    expect(summary(coarse.points).map(([, y]) => y)).toEqual([20, 80]);
  });

  it('answers with the current pool price when a duel has no snapshot yet', async () => {
    const history = await service.duelHistory(quiet, q('1W'), null);
    expect(history.bucketSeconds).toBe(3 * 3600);
    expect(history.points).toEqual([
      { timestamp: NOW.toISOString(), yesPercentage: 25, prices: ['250000000000000000', '750000000000000000'] },
    ]);
  });

  it('says which id it expected for an unknown duel', async () => {
    const err = await rejection(service.duelHistory(newDuelId(), q('1D'), null));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toContain('on-chain duelId (0x + 64 hex)');
  });

  it('hides a private duel from public callers and strangers but shows it to its creator and members', async () => {
    expect((await rejection(service.duelHistory(secret, q('1D'), null))).code).toBe('PRIVATE_MARKET');
    expect((await rejection(service.duelHistory(secret, q('1D'), STRANGER))).code).toBe('PRIVATE_MARKET');
    const own = await service.duelHistory(secret, q('1D'), CREATOR);
    expect(summary(own.points)).toEqual([['2026-11-23T11:00:00.000Z', 60]]);
    expect(summary((await service.duelHistory(secret, q('1D'), MEMBER)).points)).toEqual(summary(own.points));
  });

  it('returns one series per visible child of a parent market, oldest child first', async () => {
    const forStranger = await service.parentHistory(parent, q('1D'), STRANGER);
    expect(forStranger).toMatchObject({ parentMarketId: parent, timeRange: '1D', bucketSeconds: 1800 });
    expect(forStranger.series.map((s) => s.duelId)).toEqual([publicChild]);
    const forCreator = await service.parentHistory(parent, q('1D'), CREATOR);
    expect(forCreator.series.map((s) => [s.duelId, s.options, summary(s.points)])).toEqual([
      [publicChild, ['YES', 'NO'], [['2026-11-23T11:00:00.000Z', 30]]],
      [privateChild, ['YES', 'NO'], [['2026-11-23T11:10:00.000Z', 70]]],
    ]);
    const forMember = await service.parentHistory(parent, q('1D'), MEMBER);
    expect(forMember.series.map((s) => s.duelId)).toEqual([publicChild, privateChild]);
    expect((await rejection(service.parentHistory(randomUUID(), q('1D'), CREATOR))).code).toBe('NOT_FOUND');
    expect((await rejection(service.parentHistory(strangersParent, q('1D'), CREATOR))).code).toBe('PRIVATE_MARKET');
  });
});

describe('PriceHistoryService.snapshotOpenMarkets', () => {
  let db: TestDatabase;
  let orm: Orm;
  let service: PriceHistoryService;
  let idle: string;
  let tradedThisBucket: string;
  let tradedEarlier: string;
  let hidden: string;

  interface ScheduledRow {
    duelId: string;
    createdAt: Date;
    bucketStart: Date;
    optionPrices: string[];
    yesBps: number;
  }
  const scheduled = async () =>
    orm.em
      .fork()
      .getConnection()
      .execute<ScheduledRow[]>(
        `select duel_id as "duelId", created_at as "createdAt", bucket_start as "bucketStart",
           option_prices as "optionPrices", yes_bps as "yesBps"
         from price_snapshots where source = 'schedule' order by created_at, duel_id`,
      );

  beforeAll(async () => {
    ({ db, orm, service } = await setup());
    idle = await insertDuel(orm, { balances: pool(75, 25) });
    tradedThisBucket = await insertDuel(orm);
    tradedEarlier = await insertDuel(orm);
    hidden = await insertDuel(orm, { isPrivate: true });
    await insertDuel(orm, { status: 'settled' });
    await insertDuel(orm, { chainState: 'pending', balances: [] });
    await snapshot(orm, tradedThisBucket, at('12:01:00'), pool(60, 40));
    await snapshot(orm, tradedEarlier, at('11:50:00'), pool(60, 40));
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  it('snapshots every confirmed open duel without a snapshot in the current bucket, once per bucket', async () => {
    expect(await service.snapshotOpenMarkets(at('12:02:30'))).toBe(3);
    const first = await scheduled();
    expect(first.map((r) => r.duelId).sort()).toEqual([idle, tradedEarlier, hidden].sort());
    const row = first.find((r) => r.duelId === idle);
    expect(row).toMatchObject({ optionPrices: ['750000000000000000', '250000000000000000'], yesBps: 7500 });
    expect(new Date(row!.createdAt).toISOString()).toBe('2026-11-23T12:02:30.000Z');
    expect(new Date(row!.bucketStart).toISOString()).toBe('2026-11-23T12:00:00.000Z');

    // A retried job in the same 5-minute bucket adds nothing.
    expect(await service.snapshotOpenMarkets(at('12:02:30'))).toBe(0);
    expect(await service.snapshotOpenMarkets(at('12:04:59'))).toBe(0);
    expect(await scheduled()).toHaveLength(3);

    // The next bucket snapshots every open duel, the one traded in the previous bucket included.
    expect(await service.snapshotOpenMarkets(at('12:05:00'))).toBe(4);
    expect(await scheduled()).toHaveLength(7);
  });

  it('writes one row per duel and bucket even when runs race', async () => {
    const counts = await Promise.all([
      service.snapshotOpenMarkets(at('12:10:01')),
      service.snapshotOpenMarkets(at('12:10:02')),
      service.snapshotOpenMarkets(at('12:10:03')),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(4);
    const rows = (await scheduled()).filter(
      (r) => new Date(r.bucketStart).toISOString() === '2026-11-23T12:10:00.000Z',
    );
    expect(rows.map((r) => r.duelId).sort()).toEqual([idle, tradedThisBucket, tradedEarlier, hidden].sort());
  });

  it('gives the chart a point in every bucket between trades', async () => {
    const history = await service.duelHistory(idle, q('30M'), null);
    expect(history.points.map((p) => p.yesPercentage)).toEqual([75, 75, 75]);
    expect(history.points.map((p) => p.timestamp.slice(11, 16))).toEqual(['12:02', '12:05', '12:10']);
  });
});

describe('MarketIndexer price snapshots', () => {
  let db: TestDatabase;
  let orm: Orm;
  let service: PriceHistoryService;

  beforeAll(async () => {
    ({ db, orm, service } = await setup());
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  it('records the prices each indexed trade leaves, once per trade', async () => {
    const duelId = await insertDuel(orm);
    const trade = (logIndex: number, balances: bigint[]): MarketEvent => ({
      kind: 'bought',
      duelId: duelId as `0x${string}`,
      txHash: `0x${'ab'.repeat(32)}`,
      logIndex,
      blockNumber: 7n,
      timestamp: at('11:45:00').getTime() / 1000,
      trader: CREATOR,
      option: 0,
      collateral: ONE,
      fee: 0n,
      shares: ONE,
      balances,
    });
    const events = [trade(0, pool(60, 40)), trade(1, pool(70, 30))];
    const chain = { safeHead: async () => 7n, marketEvents: async () => events } as unknown as ChainPort;
    const indexer = new MarketIndexer(orm, chain, new Lease(orm, 'test-indexer', 'me', 60_000), createLogger('silent'));
    await indexer.runOnce();
    // Replaying the block (cursor reset) adds nothing: the trades are already applied.
    await orm.em.fork().getConnection().execute('delete from chain_cursors');
    await indexer.runOnce();

    const history = await service.duelHistory(duelId, q('1D'), null);
    expect(summary(history.points)).toEqual([['2026-11-23T11:45:00.000Z', 70]]);
    const [row] = await orm.em
      .fork()
      .getConnection()
      .execute<{ n: number; sources: string[] }[]>(
        `select count(*)::int as n, array_agg(distinct source) as sources from price_snapshots where duel_id = ?`,
        [duelId],
      );
    expect(row).toEqual({ n: 2, sources: ['trade'] });
  });
});
