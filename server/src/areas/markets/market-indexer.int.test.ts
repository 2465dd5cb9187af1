import { randomUUID } from 'node:crypto';
import { createPublicClient, createWalletClient, http, keccak256, toHex, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ViemChainAdapter } from '../../adapters/chain/viem-chain.adapter.js';
import { CollateralTokenAbi } from '../../adapters/chain/artifacts/CollateralToken.js';
import { DuelMarketsAbi } from '../../adapters/chain/artifacts/DuelMarkets.js';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { entities } from '../../entities.js';
import { Lease } from '../../platform/jobs/lease.js';
import { createLogger } from '../../logger.js';
import { chainConfig, chainStores } from '../../../test/support/chain.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { insertDuel } from '../../../test/support/duel-fixture.js';
import { MarketIndexer } from './market-indexer.js';

const UNIT = 10n ** 18n;
let db: TestDatabase;
let orm: Orm;
let chain: ViemChainAdapter;
let pub: ReturnType<typeof createPublicClient>;
const logger = createLogger('silent');

async function write(
  account: PrivateKeyAccount,
  address: Address,
  abi: typeof DuelMarketsAbi | typeof CollateralTokenAbi,
  functionName: string,
  args: readonly unknown[],
) {
  const wallet = createWalletClient({ transport: http(chain.embeddedRpcUrl), account });
  const { request } = await pub.simulateContract({ address, abi, functionName, args, account } as never);
  const hash = await wallet.writeContract(request as never);
  await pub.waitForTransactionReceipt({ hash });
}

async function trader(): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.fundGas(account.address, UNIT);
  await chain.mint('credits', account.address, 1_000n * UNIT);
  await write(account, chain.addresses.credits, CollateralTokenAbi, 'approve', [chain.addresses.markets, 2n ** 255n]);
  return account;
}

/** A duel the API accepted (chainState pending) and its creation sent to the chain. */
async function pendingMarket(creator: PrivateKeyAccount): Promise<`0x${string}`> {
  const duelId = keccak256(toHex(randomUUID()));
  const now = Math.floor(Date.now() / 1000);
  await insertDuel(orm.em.fork().getConnection(), {
    duelId,
    creator: creator.address,
    question: 'Will it rain',
    category: 'Weather',
    startTime: new Date((now + 3600) * 1000),
    endTime: new Date((now + 7200) * 1000),
    chainState: 'pending',
  });
  const args = [
    duelId,
    chain.addresses.credits,
    2,
    BigInt(now + 3600),
    BigInt(now + 7200),
    100,
    false,
    100n * UNIT,
    0n,
    0n,
  ];
  await write(creator, chain.addresses.markets, DuelMarketsAbi, 'createMarket', args);
  return duelId;
}

const count = async (sql: string, params: unknown[] = []) =>
  Number((await orm.em.fork().getConnection().execute<{ n: string }[]>(sql, params))[0]?.n);

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 3, false);
  chain = await ViemChainAdapter.connect(chainConfig(), logger, chainStores(orm));
  pub = createPublicClient({ transport: http(chain.embeddedRpcUrl) });
}, 60_000);
afterAll(async () => {
  await chain?.close();
  await orm?.close(true);
  await db?.drop();
});

describe('MarketIndexer', () => {
  it('turns chain events into duels, trades and positions exactly once, and resumes from its cursor', async () => {
    const creator = await trader();
    const duelId = await pendingMarket(creator);
    const alice = await trader();
    await write(alice, chain.addresses.markets, DuelMarketsAbi, 'buy', [duelId, 0, 20n * UNIT, 0n]);
    await write(alice, chain.addresses.markets, DuelMarketsAbi, 'buy', [duelId, 1, 10n * UNIT, 0n]);
    await write(alice, chain.addresses.markets, DuelMarketsAbi, 'sellForReturn', [duelId, 0, 5n * UNIT, 2n ** 255n]);

    const first = new MarketIndexer(orm, chain, new Lease(orm, 'indexer:markets', 'a', 5_000), logger);
    const run = await first.runOnce();
    expect(run.events).toBe(4);
    const [duel] = await orm.em
      .fork()
      .getConnection()
      .execute<{ chain_state: string; pool_balances: string[]; unique_participants: number; total_volume: string }[]>(
        'select chain_state, pool_balances, unique_participants, total_volume::text from duels where duel_id = ?',
        [duelId],
      );
    expect(duel?.chain_state).toBe('confirmed');
    expect(duel?.pool_balances).toEqual((await chain.poolBalances(duelId)).map(String));
    expect(duel?.unique_participants).toBe(1);
    expect(duel?.total_volume).toBe((35n * UNIT).toString());
    for (const option of [0, 1]) {
      const onChain = await pub.readContract({
        address: chain.addresses.markets,
        abi: DuelMarketsAbi,
        functionName: 'shares',
        args: [duelId, alice.address, BigInt(option)],
      });
      const [pos] = await orm.em
        .fork()
        .getConnection()
        .execute<{ shares: string }[]>(
          'select shares::text from positions where duel_id = ? and holder = ? and option_index = ?',
          [duelId, alice.address, option],
        );
      expect(pos?.shares).toBe(onChain.toString());
    }
    expect(await count('select count(*) as n from trades where duel_id = ?', [duelId])).toBe(3);
    // Average cost: a buy adds its collateral, a sale removes the sold fraction, rounded toward zero.
    const conn = orm.em.fork().getConnection();
    const trades = await conn.execute<{ side: string; option_index: number; shares: string; collateral: string }[]>(
      'select side, option_index, shares::text, collateral::text from trades where duel_id = ? order by block_number, log_index',
      [duelId],
    );
    for (const option of [0, 1]) {
      let shares = 0n;
      let cost = 0n;
      for (const t of trades.filter((row) => row.option_index === option)) {
        const n = BigInt(t.shares);
        if (t.side === 'buy') cost += BigInt(t.collateral);
        else cost = shares === 0n ? 0n : cost - (cost * n) / shares;
        shares += t.side === 'buy' ? n : -n;
      }
      const [pos] = await conn.execute<{ cost_basis: string }[]>(
        'select cost_basis::text from positions where duel_id = ? and holder = ? and option_index = ?',
        [duelId, alice.address, option],
      );
      expect(cost).toBeGreaterThan(0n);
      expect(pos?.cost_basis).toBe(cost.toString());
    }
    // The sale's share of the cost is not a whole number here: the rounding is what is checked.
    const sale = trades.find((t) => t.side === 'sell');
    const bought = trades.find((t) => t.side === 'buy' && t.option_index === 0);
    expect((BigInt(bought?.collateral ?? '0') * BigInt(sale?.shares ?? '0')) % BigInt(bought?.shares ?? '1')).not.toBe(
      0n,
    );

    // Nothing new: nothing applied twice.
    expect((await first.runOnce()).events).toBe(0);
    // Replaying from an older cursor (a crash before the cursor moved) does not duplicate trades.
    await orm.em.fork().getConnection().execute("update chain_cursors set last_block = 0 where name = 'markets'");
    const positionsBefore = await conn.execute<{ shares: string; cost_basis: string }[]>(
      'select shares::text, cost_basis::text from positions where duel_id = ? order by option_index',
      [duelId],
    );
    // The duel's volume and the price snapshots are additive too.
    const totals = () =>
      conn.execute(
        `select total_volume::text, (select count(*)::int from price_snapshots where duel_id = ?) as snapshots
           from duels where duel_id = ?`,
        [duelId, duelId],
      );
    const totalsBefore = await totals();
    expect(totalsBefore[0]?.['snapshots']).toBe(3);
    await first.runOnce();
    expect(await totals()).toEqual(totalsBefore);
    expect(await count('select count(*) as n from trades where duel_id = ?', [duelId])).toBe(3);
    // Nor does it move a position twice: the position change is additive, so only the trade's
    // `on conflict do nothing` stands between a replay and a doubled position.
    expect(
      await conn.execute(
        'select shares::text, cost_basis::text from positions where duel_id = ? order by option_index',
        [duelId],
      ),
    ).toEqual(positionsBefore);

    // Another instance cannot write while the lease is held; after release it resumes from the cursor.
    const second = new MarketIndexer(orm, chain, new Lease(orm, 'indexer:markets', 'b', 5_000), logger);
    expect((await second.runOnce()).skipped).toBe(true);
    await new Lease(orm, 'indexer:markets', 'a', 5_000).release();
    await write(alice, chain.addresses.markets, DuelMarketsAbi, 'buy', [duelId, 1, 5n * UNIT, 0n]);
    const resumed = await second.runOnce();
    expect(resumed.events).toBe(1);
    expect(await count('select count(*) as n from trades where duel_id = ?', [duelId])).toBe(4);

    // Participants: alice once for her four trades, bob once; a replay counts nobody again.
    const participants = () => count('select unique_participants as n from duels where duel_id = ?', [duelId]);
    expect(await participants()).toBe(1);
    const bob = await trader();
    await write(bob, chain.addresses.markets, DuelMarketsAbi, 'buy', [duelId, 0, 6n * UNIT, 0n]);
    await write(bob, chain.addresses.markets, DuelMarketsAbi, 'buy', [duelId, 1, 6n * UNIT, 0n]);
    expect((await second.runOnce()).events).toBe(2);
    expect(await participants()).toBe(2);
    await orm.em.fork().getConnection().execute("update chain_cursors set last_block = 0 where name = 'markets'");
    await second.runOnce();
    expect(await participants()).toBe(2);
    expect(await participants()).toBe(
      await count('select count(distinct trader) as n from trades where duel_id = ?', [duelId]),
    );
  }, 60_000);

  it('applies a batch atomically: a failure leaves no row and no cursor move behind', async () => {
    const creator = await trader();
    const duelId = await pendingMarket(creator);
    await write(creator, chain.addresses.markets, DuelMarketsAbi, 'buy', [duelId, 1, 7n * UNIT, 0n]);
    const cursor = async () =>
      (
        await orm.em
          .fork()
          .getConnection()
          .execute<{ last_block: string }[]>("select last_block from chain_cursors where name = 'markets'")
      )[0]?.last_block;
    const before = await cursor();
    const lease = () => new Lease(orm, 'indexer:markets', 'b', 5_000);
    const failing = new MarketIndexer(orm, chain, lease(), logger, 2_000n, undefined, [
      {
        apply: (_em, e) => (e.kind === 'bought' ? Promise.reject(new Error('sink failed')) : Promise.resolve()),
      },
    ]);
    await expect(failing.runOnce()).rejects.toThrow('sink failed');
    expect(await count('select count(*) as n from trades where duel_id = ?', [duelId])).toBe(0);
    expect(await count("select count(*) as n from duels where duel_id = ? and chain_state = 'pending'", [duelId])).toBe(
      1,
    );
    expect(await cursor()).toBe(before);

    await new MarketIndexer(orm, chain, lease(), logger).runOnce();
    expect(await count('select count(*) as n from trades where duel_id = ?', [duelId])).toBe(1);
    expect(
      await count("select count(*) as n from duels where duel_id = ? and chain_state = 'confirmed'", [duelId]),
    ).toBe(1);
  }, 60_000);
});
