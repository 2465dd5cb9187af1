import { randomUUID } from 'node:crypto';
import { systemClock } from '../../platform/clock.js';
import { createPublicClient, createWalletClient, http, keccak256, toHex, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ViemChainAdapter } from '../../adapters/chain/viem-chain.adapter.js';
import { CollateralTokenAbi } from '../../adapters/chain/artifacts/CollateralToken.js';
import { DuelMarketsAbi } from '../../adapters/chain/artifacts/DuelMarkets.js';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { DomainError } from '../../errors.js';
import { MarketIndexer } from '../markets/market-indexer.js';
import { JobEngine } from '../../platform/jobs/job-engine.js';
import { Lease } from '../../platform/jobs/lease.js';
import { createLogger } from '../../logger.js';
import { DuelRepository } from '../markets/duel.repository.js';
import { chainConfig, chainStores } from '../../../test/support/chain.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { insertDuel } from '../../../test/support/duel-fixture.js';
import { DistributionLedgerRepository } from './distribution-ledger.repository.js';
import { DistributionService, type DistributionFaults } from './distribution.service.js';
import { MarketAdminQueries } from './market-admin.queries.js';
import { MarketAdminRepository } from './market-admin.repository.js';
import { MarketAdminService } from './market-admin.service.js';
import { MarketSettingsStore } from './market-settings.js';
import { testContext } from '../../../test/support/operation.js';

const UNIT = 10n ** 18n;
const FUNDING = 100n * UNIT;
const ADMIN = { adminId: randomUUID(), email: 'ops@example.com' };
const logger = createLogger('silent');

let db: TestDatabase;
let orm: Orm;
let chain: ViemChainAdapter;
let pub: ReturnType<typeof createPublicClient>;
let indexer: MarketIndexer;
const engines: JobEngine[] = [];

async function write(
  account: PrivateKeyAccount,
  address: Address,
  abi: unknown,
  functionName: string,
  args: unknown[],
) {
  const wallet = createWalletClient({ transport: http(chain.embeddedRpcUrl), account });
  const { request } = await pub.simulateContract({ address, abi, functionName, args, account } as never);
  await pub.waitForTransactionReceipt({ hash: await wallet.writeContract(request as never) });
}

async function trader(): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.fundGas(account.address, UNIT);
  // Minted once mined: under load a broadcast mint can still be pending when the first buy is simulated.
  await pub.waitForTransactionReceipt({ hash: await chain.mint('credits', account.address, 1_000n * UNIT) });
  await write(account, chain.addresses.credits, CollateralTokenAbi, 'approve', [chain.addresses.markets, 2n ** 255n]);
  return account;
}

const buy = (who: PrivateKeyAccount, duelId: string, option: number, units: bigint) =>
  write(who, chain.addresses.markets, DuelMarketsAbi, 'buy', [duelId, option, units * UNIT, 0n]);
const sell = (who: PrivateKeyAccount, duelId: string, option: number, units: bigint) =>
  write(who, chain.addresses.markets, DuelMarketsAbi, 'sellForReturn', [duelId, option, units * UNIT, 2n ** 255n]);
const balance = (a: Address) => chain.collateralBalance('credits', a);

/** The chain's clock (automined blocks run ahead of the wall clock under bursts), seconds. */
async function chainNow(): Promise<number> {
  return Number((await pub.getBlock({ blockTag: 'pending' })).timestamp);
}

/** A market recorded as the API would, then created on chain by `creator`. */
async function market(creator: PrivateKeyAccount, startIn: number, endIn: number): Promise<`0x${string}`> {
  const duelId = keccak256(toHex(randomUUID()));
  const now = await chainNow();
  await insertDuel(orm.em.fork().getConnection(), {
    duelId,
    creator: creator.address,
    question: 'Refund me',
    startTime: new Date((now + startIn) * 1000),
    endTime: new Date((now + endIn) * 1000),
    chainState: 'pending',
    initialLiquidity: FUNDING,
  });
  await write(creator, chain.addresses.markets, DuelMarketsAbi, 'createMarket', [
    duelId,
    chain.addresses.credits,
    2,
    BigInt(now + startIn),
    BigInt(now + endIn),
    100,
    false,
    FUNDING,
    0n,
    0n,
  ]);
  await index();
  return duelId;
}

async function index() {
  for (let i = 0; i < 10; i++) if ((await indexer.runOnce()).caughtUp) return;
}

function services(faults?: DistributionFaults) {
  const distribution = new DistributionService(new DistributionLedgerRepository(orm), chain, logger, systemClock, {
    concurrency: 1,
    confirmTimeoutMs: 5_000,
    ...(faults ? { faults } : {}),
  });
  const repo = new DuelRepository(orm);
  const duels = {
    async require(id: string) {
      const duel = await repo.byDuelId(id);
      if (!duel) throw new DomainError('NOT_FOUND', `no duel ${id}`);
      return duel;
    },
  };
  const settings = new MarketSettingsStore(orm, {
    feeBps: 100,
    initialLiquidity: FUNDING,
    publicLeadSeconds: 0,
    privateLeadSeconds: 0,
    contestPeriodSeconds: 0,
    resolutionGraceSeconds: 3_600,
  });
  const threshold = { minParticipants: 2, minVolume: 0n };
  const queries = new MarketAdminQueries(orm, duels, distribution, settings, threshold, systemClock);
  const admin = new MarketAdminService(
    new MarketAdminRepository(orm),
    chain,
    duels,
    distribution,
    queries,
    settings,
    threshold,
    logger,
    systemClock,
  );
  return { distribution, admin, queries };
}

/** Runs what the scheduled tasks would (index, sweep) until `done`. */
async function drive<T>(
  distribution: DistributionService,
  read: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    await index();
    await distribution.sweep();
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`not done in ${timeoutMs} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function startEngine(distribution: DistributionService): Promise<JobEngine> {
  const engine = await JobEngine.start({ databaseUrl: db.url, poolMax: 3, embedded: false, logger });
  engines.push(engine);
  distribution.attach(engine);
  return engine;
}

async function stopEngine(engine: JobEngine): Promise<void> {
  await engine.close();
  engines.splice(engines.indexOf(engine), 1);
}

/** Net deposit per trader from the indexed trades: the refund basis (bought − sold). */
async function netDeposits(duelId: string): Promise<Map<string, bigint>> {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<{ trader: string; net: string }[]>(
      `select trader, sum(case when side = 'buy' then collateral else -collateral end)::text as net
         from trades where duel_id = ? group by trader`,
      [duelId],
    );
  return new Map(rows.map((r) => [r.trader, BigInt(r.net)]));
}

async function paidEvents(duelId: string) {
  const events = await chain.marketEvents(0n, await chain.blockNumber());
  return events.filter((e) => e.kind === 'paid' && e.duelId.toLowerCase() === duelId);
}

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(db.url, 4, false);
  chain = await ViemChainAdapter.connect(chainConfig(), logger, chainStores(orm));
  pub = createPublicClient({ transport: http(chain.embeddedRpcUrl) });
  const sink = new DistributionService(new DistributionLedgerRepository(orm), chain, logger, systemClock).paidSink;
  indexer = new MarketIndexer(orm, chain, new Lease(orm, 'indexer:markets', 'test', 30_000), logger, 2_000n, () => {}, [
    sink,
  ]);
}, 60_000);

afterAll(async () => {
  for (const engine of engines) await engine.close().catch(() => undefined);
  await chain?.close();
  await orm?.close(true);
  await db?.drop();
});

describe('refunds of cancelled markets', () => {
  it('cancels public markets that missed the bootstrap threshold by their start, and only those', async () => {
    const { distribution, admin, queries } = services();
    const engine = await startEngine(distribution);
    const creator = await trader();
    const [a, b] = await Promise.all([trader(), trader()]);
    const thin = await market(creator, 12, 3_600);
    const healthy = await market(creator, 12, 3_600);
    await buy(a, thin, 0, 10n);
    await buy(a, healthy, 0, 10n);
    await buy(b, healthy, 1, 10n);
    await index();
    const dryBefore = await admin.cancelExpired(testContext(), ADMIN, { dryRun: true, limit: 50 });
    expect(dryBefore.results.map((r) => r.duelId)).not.toContain(thin);

    await drive(
      distribution,
      () => queries.expired({ page: 1, limit: 100 }),
      (l) => l.data.some((x) => x.duelId === thin),
    );
    const listed = await queries.expired({ page: 1, limit: 100 }, 'bootstrap_threshold');
    expect(listed.data.map((x) => x.duelId)).toContain(thin);
    expect(listed.data.map((x) => x.duelId)).not.toContain(healthy);

    const result = await admin.cancelExpired(testContext(), ADMIN, { dryRun: false, limit: 50 });
    expect(result.results).toContainEqual({
      duelId: thin,
      reason: 'bootstrap_threshold',
      success: true,
      txHash: expect.any(String),
    });
    expect(result.results.map((r) => r.duelId)).not.toContain(healthy);
    const before = await balance(a.address);
    const status = await drive(
      distribution,
      () => queries.discardStatus(thin),
      (s) => s.complete,
    );
    expect(status).toMatchObject({ participants: 2, paid: 2, cancellation: { source: 'bootstrap_threshold' } });
    expect((await balance(a.address)) - before).toBe(10n * UNIT);
    expect((await queries.discardStatus(healthy)).kind).toBeNull();
    await stopEngine(engine);
  }, 120_000);

  it('refunds every participant exactly once after the worker dies halfway, the creator last with what remains', async () => {
    const creator = await trader();
    const [a, b, c, d, e, f] = await Promise.all([trader(), trader(), trader(), trader(), trader(), trader()]);
    const duelId = await market(creator, 3_600, 7_200);
    await buy(a, duelId, 0, 50n);
    await buy(b, duelId, 0, 200n);
    await sell(a, duelId, 0, 55n); // a sold at a profit: net −5, owed nothing
    await buy(c, duelId, 1, 30n);
    await buy(d, duelId, 1, 20n);
    await buy(d, duelId, 0, 10n);
    await buy(e, duelId, 0, 40n);
    await sell(e, duelId, 0, 10n);
    await buy(f, duelId, 1, 25n);
    await index();

    const net = await netDeposits(duelId);
    const held = FUNDING + [...net.values()].reduce((s, n) => s + n, 0n);
    const owedTraders = new Map([...net].filter(([, n]) => n > 0n));
    expect(owedTraders.size).toBe(5);
    const traderTotal = [...owedTraders.values()].reduce((s, n) => s + n, 0n);
    // The documented formula: each trader max(bought − sold, 0); the creator the funding, capped at what remains.
    const creatorRefund = FUNDING < held - traderTotal ? FUNDING : held - traderTotal;
    expect(creatorRefund).toBe(FUNDING - 5n * UNIT);
    const everyone = [creator, a, b, c, d, e, f].map((x) => x.address);
    const before = new Map(await Promise.all(everyone.map(async (x) => [x, await balance(x)] as const)));

    // Phase 1: a worker that dies right after sending its third payment, before recording it.
    let calls = 0;
    let dead = false;
    const first = services({
      beforeSubmit: () => (dead ? Promise.reject(new Error('the worker is dead')) : Promise.resolve()),
      afterSubmit: () => {
        calls++;
        dead = calls >= 3;
        return dead ? Promise.reject(new Error('simulated crash')) : Promise.resolve();
      },
    });
    const discarded = await first.admin.discard(testContext(), ADMIN, [duelId], 'crash test');
    expect(discarded.results).toEqual([{ duelId, success: true, txHash: expect.any(String) }]);
    const engine = await startEngine(first.distribution);
    await drive(
      first.distribution,
      async () => calls,
      (n) => n >= 3,
    );
    await stopEngine(engine);
    const midway = await first.queries.discardStatus(duelId);
    expect(midway.complete).toBe(false);
    expect(midway.entries.find((x) => x.isCreator)?.status).toBe('queued');
    expect(midway.paid).toBeLessThan(5);

    // Phase 2: a new worker on the same database and chain; an admin continues the refunds.
    const second = services();
    await startEngine(second.distribution);
    const continued = await second.admin.continueRefunds(duelId);
    expect(continued.requeued + continued.alreadyPaid + midway.paid).toBe(6);
    const done = await drive(
      second.distribution,
      () => second.queries.discardStatus(duelId),
      (s) => s.complete,
    );
    await drive(
      second.distribution,
      () => second.queries.discardStatus(duelId),
      (s) => BigInt(s.totalPaid) === held,
    );

    expect(done).toMatchObject({ kind: 'refund', participants: 6, paid: 6, failed: 0, duelStatus: 'cancelled' });
    expect(done.cancellation).toMatchObject({ source: 'discard', reason: 'crash test' });
    for (const [holder, amount] of owedTraders) {
      expect((await balance(holder as Address)) - (before.get(holder as Address) ?? 0n), holder).toBe(amount);
    }
    expect(await balance(a.address)).toBe(before.get(a.address));
    expect((await balance(creator.address)) - (before.get(creator.address) ?? 0n)).toBe(creatorRefund);
    const paid = await paidEvents(duelId);
    expect(paid).toHaveLength(6);
    expect(new Set(paid.map((p) => (p.kind === 'paid' ? p.holder : ''))).size).toBe(6);
    const last = paid.at(-1);
    expect(last?.kind === 'paid' ? last.holder : undefined).toBe(creator.address);
    const [ledger] = await orm.em
      .fork()
      .getConnection()
      .execute<{ n: number; total: string }[]>(
        `select count(*)::int as n, sum(amount)::text as total from duel_distributions where duel_id = ? and kind = 'refund'`,
        [duelId],
      );
    expect(ledger).toEqual({ n: 6, total: held.toString() });

    // Continuing again pays nobody twice.
    const again = await second.admin.continueRefunds(duelId);
    expect(again.requeued).toBe(0);
    expect(await paidEvents(duelId)).toHaveLength(6);
  }, 120_000);
});
