import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import type { Orm } from '../../platform/db/orm.js';
import { MarketIndexRepository } from '../markets/market-index.repository.js';
import { insertDuel, newDuelId } from '../../../test/support/duel-fixture.js';

/** One collateral unit in base units (18 decimals). */
export const U = 10n ** 18n;

/** A decimal number of units as base units: `amount('4.9')` = 4.9 × 10^18. */
export function amount(units: string): bigint {
  const [whole = '0', fraction = ''] = units.replace('-', '').split('.');
  const value = BigInt(whole) * U + BigInt((fraction + '0'.repeat(18)).slice(0, 18));
  return units.startsWith('-') ? -value : value;
}

export const ALICE = getAddress(`0x${'a1'.repeat(20)}`);
export const BOB = getAddress(`0x${'b2'.repeat(20)}`);
export const CAROL = getAddress(`0x${'c3'.repeat(20)}`);
export const DAVE = getAddress(`0x${'d4'.repeat(20)}`);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface DuelSeed {
  creator: string;
  status: 'open' | 'pending' | 'pending_contest' | 'settled' | 'cancelled';
  chainState?: 'pending' | 'confirmed' | 'failed';
  collateralStack: 'usdc' | 'credits';
  isPrivate?: boolean;
  category: string;
  winningOptionIndex?: number | null;
  poolBalances: bigint[];
  endTime: Date;
}

export interface TradeSeed {
  trader: string;
  side: 'buy' | 'sell';
  optionIndex: number;
  collateral: bigint;
  shares: bigint;
  at: Date;
}

/** Writes rows the way the market indexer does, positions included (average-cost basis). */
export class ReadModelWriter {
  private block = 1_000n;

  constructor(private readonly orm: Orm) {}

  async duel(seed: DuelSeed): Promise<string> {
    const duelId = newDuelId();
    return insertDuel(this.conn(), {
      duelId,
      creator: seed.creator,
      question: `Question ${duelId.slice(2, 8)}?`,
      category: seed.category,
      collateralStack: seed.collateralStack,
      isPrivate: seed.isPrivate ?? false,
      startTime: new Date(seed.endTime.getTime() - 30 * DAY),
      endTime: seed.endTime,
      createdAt: new Date(seed.endTime.getTime() - 31 * DAY),
      status: seed.status,
      chainState: seed.chainState ?? 'confirmed',
      winningOptionIndex: seed.winningOptionIndex ?? null,
      poolBalances: seed.poolBalances,
    });
  }

  /** Inserts the trade and moves the position with the indexer's own statement. */
  async trade(duelId: string, t: TradeSeed): Promise<void> {
    this.block += 1n;
    const conn = this.conn();
    await conn.execute(
      `insert into trades (id, duel_id, tx_hash, log_index, block_number, trader, side, option_index, collateral, fee, shares, created_at)
       values (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        randomUUID(),
        duelId,
        `0x${randomBytes(32).toString('hex')}`,
        this.block.toString(),
        t.trader,
        t.side,
        t.optionIndex,
        t.collateral.toString(),
        (t.collateral / 100n).toString(), // 1% fee
        t.shares.toString(),
        t.at,
      ],
    );
    await new MarketIndexRepository().applyTradeToPosition(this.orm.em.fork(), duelId, t.trader, t.optionIndex, {
      side: t.side,
      shares: t.shares,
      collateral: t.collateral,
    });
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}

export interface Seeded {
  /** Public, usdc, open; prices 0.7 / 0.3. */
  open: string;
  /** Public, credits, settled on option 0, ended a day ago. */
  settled: string;
  /** Public, usdc, cancelled. */
  cancelled: string;
  /** Private, usdc, open; prices 0.5 / 0.5. */
  privateOpen: string;
  /** Public but not confirmed on chain. */
  unconfirmed: string;
}

/**
 * The scenario the analytics tests assert on (figures in units; fees are 1% of collateral).
 *
 * | market | trades | positions after |
 * |---|---|---|
 * | open (CAROL, usdc, 30/70) | ALICE buys 0: 10 → 14 sh (−2h), sells 7 sh for 6 (−1h); BOB buys 1: 5 → 8 sh (−30m) | ALICE 0: 7 sh / 5; BOB 1: 8 sh / 5 |
 * | settled (CAROL, credits, wins 0) | ALICE buys 0: 20 → 30 sh (−3d); BOB buys 1: 10 → 15 sh (−3d+1h), sells 3 sh for 1.5 (−36h) | ALICE 0: 30 / 20; BOB 1: 12 / 8 |
 * | cancelled (BOB, usdc) | ALICE buys 1: 4 → 6 sh (−5d); BOB buys 0: 6 → 9 sh (−5d) | ALICE 1: 6 / 4; BOB 0: 9 / 6 |
 * | private (BOB, usdc, 50/50) | ALICE buys 0: 100 → 150 sh (−50m) | ALICE 0: 150 / 100 |
 * | unconfirmed (DAVE) | BOB buys 0: 1000 → 1500 sh (−1h) | — |
 */
export async function seedScenario(orm: Orm, now: Date): Promise<Seeded> {
  const w = new ReadModelWriter(orm);
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const future = new Date(now.getTime() + 7 * DAY);
  const open = await w.duel({
    creator: CAROL,
    status: 'open',
    collateralStack: 'usdc',
    category: 'Football',
    poolBalances: [amount('30'), amount('70')],
    endTime: future,
  });
  const settled = await w.duel({
    creator: CAROL,
    status: 'settled',
    collateralStack: 'credits',
    category: 'Cricket',
    winningOptionIndex: 0,
    poolBalances: [amount('40'), amount('60')],
    endTime: ago(DAY),
  });
  const cancelled = await w.duel({
    creator: BOB,
    status: 'cancelled',
    collateralStack: 'usdc',
    category: 'Football',
    poolBalances: [amount('50'), amount('50')],
    endTime: future,
  });
  const privateOpen = await w.duel({
    creator: BOB,
    status: 'open',
    collateralStack: 'usdc',
    category: 'Football',
    isPrivate: true,
    poolBalances: [amount('50'), amount('50')],
    endTime: future,
  });
  const unconfirmed = await w.duel({
    creator: DAVE,
    status: 'open',
    chainState: 'pending',
    collateralStack: 'usdc',
    category: 'Tennis',
    poolBalances: [amount('50'), amount('50')],
    endTime: future,
  });
  const buy = (trader: string, optionIndex: number, collateral: string, shares: string, at: Date): TradeSeed => ({
    trader,
    side: 'buy',
    optionIndex,
    collateral: amount(collateral),
    shares: amount(shares),
    at,
  });
  const sell = (trader: string, optionIndex: number, collateral: string, shares: string, at: Date): TradeSeed => ({
    ...buy(trader, optionIndex, collateral, shares, at),
    side: 'sell',
  });
  await w.trade(cancelled, buy(ALICE, 1, '4', '6', ago(5 * DAY)));
  await w.trade(cancelled, buy(BOB, 0, '6', '9', ago(5 * DAY - 1000)));
  await w.trade(settled, buy(ALICE, 0, '20', '30', ago(3 * DAY)));
  await w.trade(settled, buy(BOB, 1, '10', '15', ago(3 * DAY - HOUR)));
  await w.trade(settled, sell(BOB, 1, '1.5', '3', ago(36 * HOUR)));
  await w.trade(open, buy(ALICE, 0, '10', '14', ago(2 * HOUR)));
  await w.trade(open, sell(ALICE, 0, '6', '7', ago(HOUR)));
  await w.trade(unconfirmed, buy(BOB, 0, '1000', '1500', ago(HOUR)));
  await w.trade(privateOpen, buy(ALICE, 0, '100', '150', ago(50 * 60_000)));
  await w.trade(open, buy(BOB, 1, '5', '8', ago(30 * 60_000)));
  return { open, settled, cancelled, privateOpen, unconfirmed };
}
