import { EVENT_CATALOGUE, type EventType } from '@duelkit/contract';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainPort } from '../../adapters/chain/chain.port.js';
import type { MarketEvent } from '../../adapters/chain/chain.types.js';
import { entities } from '../../entities.js';
import { createLogger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { sqlIn } from '../../platform/db/sql.js';
import type { RecordedTx } from '../../platform/chain-tx/chain-tx.types.js';
import { Lease } from '../../platform/jobs/lease.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { insertDuel, newDuelId } from '../../../test/support/duel-fixture.js';
import { ContestRepository } from '../settlement/contest.repository.js';
import { MarketAdminRepository } from '../settlement/market-admin.repository.js';
import { MarketEventLogRepository } from './market-event-log.repository.js';
import { MarketIndexer } from './market-indexer.js';

const UNIT = 10n ** 18n;
const ALICE = getAddress('0x00000000000000000000000000000000000a11ce');
const logger = createLogger('silent');
let db: TestDatabase;
let orm: Orm;
const clock = new ManualClock(Date.UTC(2026, 10, 28, 12));

interface EventRow {
  type: EventType;
  builder_app_id: string;
  duel_id: string;
  is_private: boolean;
  data: Record<string, unknown>;
  created_at: Date;
  seq: string | null;
}

const eventsOf = async (duelId: string): Promise<EventRow[]> =>
  orm.em
    .fork()
    .getConnection()
    .execute<EventRow[]>('select * from events where duel_id = ? order by created_at, type', [duelId]);

/** A chain that answers the scripted events once, from block 1. */
function scriptedChain(events: MarketEvent[]): ChainPort {
  return {
    safeHead: () => Promise.resolve(10n),
    marketEvents: (from: bigint) => Promise.resolve(from <= 1n ? events : []),
  } as unknown as ChainPort;
}

const hex32 = (n: number): `0x${string}` => `0x${String(n).padStart(64, '0')}`;
const base = (duelId: string, logIndex: number) => ({
  duelId: duelId as `0x${string}`,
  txHash: hex32(logIndex),
  logIndex,
  blockNumber: 1n,
  timestamp: Math.floor(clock.now() / 1000),
});

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 3, false);
}, 60_000);
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('market events (the outbox of the markets flow)', () => {
  it('writes exactly one event per indexed change, with the snapshot after it, even when a batch is replayed', async () => {
    const duelId = newDuelId();
    await insertDuel(orm.em.fork().getConnection(), { duelId, chainState: 'pending', status: 'open' });
    const after = [90n * UNIT, 112n * UNIT];
    const script: MarketEvent[] = [
      { ...base(duelId, 1), kind: 'created', creator: ALICE, options: 2, funding: 100n * UNIT },
      {
        ...base(duelId, 2),
        kind: 'bought',
        trader: ALICE,
        option: 0,
        collateral: 12n * UNIT,
        fee: 0n,
        shares: 22n * UNIT,
        balances: after,
      },
      { ...base(duelId, 3), kind: 'resolved', outcome: 0, contestEndsAt: Math.floor(clock.now() / 1000) + 60 },
      { ...base(duelId, 4), kind: 'settled', outcome: 0 },
    ];
    const sinks = [new MarketEventLogRepository(clock)];
    const indexer = new MarketIndexer(
      orm,
      scriptedChain(script),
      new Lease(orm, 'ix', 'a', 5_000),
      logger,
      2_000n,
      undefined,
      sinks,
      clock,
    );
    await indexer.runOnce();
    // Replay the same batch, as after a crash between the chain read and the cursor's commit.
    await orm.em.fork().getConnection().execute(`update chain_cursors set last_block = 0 where name = 'markets'`);
    await indexer.runOnce();

    const events = await eventsOf(duelId);
    expect(events.map((e) => e.type).sort()).toEqual([
      'bet.confirmed',
      'duel.confirmed',
      'duel.resolved',
      'duel.settled',
    ]);
    for (const e of events) {
      expect(EVENT_CATALOGUE[e.type].data.safeParse(e.data).success, e.type).toBe(true);
      expect(new Date(e.created_at).getTime()).toBe(clock.now());
      expect(e.seq).toBeNull(); // numbered by the relay, not by the writer
    }
    const byType = Object.fromEntries(events.map((e) => [e.type, e.data]));
    expect(byType['duel.confirmed']).toMatchObject({ duelId, status: 'open', chainState: 'confirmed' });
    expect(byType['bet.confirmed']).toMatchObject({
      duelId,
      trader: ALICE,
      side: 'buy',
      optionIndex: 0,
      collateral: (12n * UNIT).toString(),
      shares: (22n * UNIT).toString(),
      poolBalances: after.map(String),
    });
    expect(byType['duel.resolved']).toMatchObject({ status: 'pending_contest', winningOptionIndex: 0 });
    expect(byType['duel.settled']).toMatchObject({ status: 'settled', winningOptionIndex: 0 });
  });

  it('announces closing, contests, cancellations and refused trades once each', async () => {
    const ended = newDuelId();
    await insertDuel(orm.em.fork().getConnection(), {
      duelId: ended,
      chainState: 'confirmed',
      status: 'open',
      isPrivate: true,
      startTime: new Date(clock.now() - 7_200_000),
      endTime: new Date(clock.now() - 1_000),
    });
    const admin = new MarketAdminRepository(orm);
    expect(await admin.closeEnded(new Date(clock.now()))).toBeGreaterThanOrEqual(1);
    expect(await admin.closeEnded(new Date(clock.now()))).toBe(0);
    let events = await eventsOf(ended);
    expect(events.map((e) => e.type)).toEqual(['duel.closed']);
    expect(events[0]).toMatchObject({ is_private: true, data: { status: 'pending', isPrivate: true } });

    await orm.em
      .fork()
      .getConnection()
      .execute(`update duels set status = 'pending_contest', winning_option_index = 1 where duel_id = ?`, [ended]);
    const contests = new ContestRepository(orm);
    const contest = {
      duelId: ended,
      userAddress: ALICE,
      userId: null as unknown as string,
      reason: 'the other side won',
    };
    clock.advance(1_000);
    expect(await contests.insert({ ...contest, proposedOptionIndex: 0 }, new Date(clock.now()))).not.toBeNull();
    expect(await contests.insert({ ...contest, proposedOptionIndex: 0 }, new Date(clock.now()))).toBeNull();

    const log = new MarketEventLogRepository(clock);
    const cancel: MarketEvent = { ...base(ended, 9), kind: 'cancelled' };
    await orm.em.fork().transactional(async (em) => {
      await em
        .getConnection()
        .execute(`update duels set status = 'cancelled' where duel_id = ?`, [ended], 'all', em.getTransactionContext());
      await log.apply(em, cancel);
      await log.apply(em, cancel);
    });
    const failed: RecordedTx = {
      id: '1',
      kind: 'markets.sell',
      key: null,
      account: ALICE,
      txHash: `0x${'ab'.repeat(32)}`,
      nonce: 3,
      effect: { duelId: ended, option: 1, returnAmount: '5' },
    };
    await orm.em.fork().transactional(async (em) => {
      await log.betFailed(sqlIn(em), failed, { status: 'reverted', blockNumber: 5n });
      await log.betFailed(sqlIn(em), failed, { status: 'reverted', blockNumber: 5n });
    });

    events = await eventsOf(ended);
    expect(events.map((e) => e.type).sort()).toEqual([
      'bet.failed',
      'duel.cancelled',
      'duel.closed',
      'duel.contest_opened',
    ]);
    for (const e of events) expect(EVENT_CATALOGUE[e.type].data.safeParse(e.data).success, e.type).toBe(true);
    const byType = Object.fromEntries(events.map((e) => [e.type, e.data]));
    expect(byType['duel.contest_opened']).toMatchObject({
      proposedOptionIndex: 0,
      contests: 1,
      duel: { status: 'pending_contest' },
    });
    expect(JSON.stringify(byType['duel.contest_opened'])).not.toContain(ALICE.slice(2).toLowerCase());
    expect(byType['bet.failed']).toMatchObject({ side: 'sell', optionIndex: 1, outcome: 'reverted', trader: ALICE });
    expect(byType['duel.cancelled']).toMatchObject({ status: 'cancelled' });
  });
});
