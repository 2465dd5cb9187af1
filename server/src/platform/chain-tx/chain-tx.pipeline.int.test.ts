import { encodeFunctionData } from 'viem';
import { systemClock } from '../clock.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { CollateralTokenAbi } from '../../adapters/chain/artifacts/CollateralToken.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ViemChainAdapter } from '../../adapters/chain/viem-chain.adapter.js';
import { createLogger } from '../../logger.js';
import { chainConfig, chainStores, OPERATOR_KEY, startDevChain, type DevChain } from '../../../test/support/chain.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { proxyStats, setSendRawMode, startRpcProxy } from '../../../test/support/rpc-proxy.js';
import { initOrm, type Orm } from '../db/orm.js';
import { entities } from '../../entities.js';
import { ChainTxReconciler } from './chain-tx.reconciler.js';
import { ChainTxRepository } from './chain-tx.repository.js';

const logger = createLogger('silent');
const UNIT = 10n ** 18n;

let db: TestDatabase;
let dev: DevChain;
let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
/** Two adapters on two connection pools: two processes as far as the database can tell. */
const orms: Orm[] = [];
const adapters: ViemChainAdapter[] = [];

const rows = <T>(sql: string, params: unknown[] = []) =>
  (orms[0] as Orm).em.fork().getConnection().execute<T[]>(sql, params);

beforeAll(async () => {
  db = await createTestDatabase();
  dev = await startDevChain();
  proxy = await startRpcProxy(dev.rpcUrl);
  for (let i = 0; i < 2; i++) {
    const orm = await initOrm(entities, db.url, 4, false);
    orms.push(orm);
    // A broadcast timeout well above the default: 60 sends at once queue on a node that mines each
    // in turn, and on a loaded machine the last wait longer than 5 s. (The faults below close the
    // connection, so none of them waits for this timeout.)
    const config = chainConfig({
      rpcUrl: proxy.url,
      addresses: dev.addresses,
      embeddedRpcPort: null,
      broadcastTimeoutMs: 30_000,
    });
    adapters.push(await ViemChainAdapter.connect(config, logger, chainStores(orm)));
  }
}, 60_000);

afterAll(async () => {
  for (const a of adapters) await a.close();
  for (const orm of orms) await orm.close(true);
  await proxy?.close();
  await dev?.close();
  await db?.drop();
});

/** Runs `work` beside a reconciler with a server's settings (`CHAIN_REBROADCAST_AFTER_MS`, 5 s). */
async function withReconciler<T>(work: () => Promise<T>): Promise<T> {
  const reconciler = new ChainTxReconciler(
    new ChainTxRepository(orms[0] as Orm),
    (adapters[0] as ViemChainAdapter).pipeline,
    logger,
    { rebroadcastAfterMs: 5_000, batch: 100 },
    systemClock,
  );
  let done = false;
  const loop = (async () => {
    while (!done) {
      await reconciler.runOnce();
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return await work();
  } finally {
    done = true;
    await loop;
  }
}

describe('the chain transaction pipeline', () => {
  it('gives every write of one account its own nonce across two connection pools: 2 × 30 concurrent mints all land', async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    const hashes = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (adapters[i % 2] as ViemChainAdapter).mint('credits', holder, UNIT)),
    );
    expect(new Set(hashes).size).toBe(60);
    // The node refuses a nonce above the next one (it mines as it takes them), and the pipeline
    // retries such a gap for a moment only. On a loaded machine the write below can be later than
    // that, so the one above stays open until the reconciler sends it again (within a second: the
    // account's later writes wait on it), as in a server.
    const receipts = await withReconciler(() =>
      Promise.all(hashes.map((hash) => dev.client.waitForTransactionReceipt({ hash, pollingInterval: 20 }))),
    );
    expect(receipts.every((r) => r.status === 'success')).toBe(true);
    expect(await adapters[0]?.collateralBalance('credits', holder)).toBe(60n * UNIT);
    const nonces = await rows<{ nonce: string }>(
      `select nonce::text as nonce from chain_txs where kind = 'collateral.mint' and effect->>'to' = ? order by nonce`,
      [holder],
    );
    expect(new Set(nonces.map((n) => n.nonce)).size).toBe(60);
  }, 60_000);

  it('sends nothing new for a key it has recorded, however many callers race with it', async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    const hashes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (adapters[i % 2] as ViemChainAdapter).mint('credits', holder, 7n * UNIT, { key: `grant:${holder}` }),
      ),
    );
    expect(new Set(hashes).size).toBe(1);
    await dev.client.waitForTransactionReceipt({ hash: hashes[0] as `0x${string}`, pollingInterval: 20 });
    const again = await adapters[0]?.mint('credits', holder, 7n * UNIT, { key: `grant:${holder}` });
    expect(again).toBe(hashes[0]);
    expect(await adapters[1]?.collateralBalance('credits', holder)).toBe(7n * UNIT);
  }, 60_000);

  it('fails a write whose nonce another sender used, records why, and the next write carries on', async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    const reconciler = new ChainTxReconciler(
      new ChainTxRepository(orms[0] as Orm),
      (adapters[0] as ViemChainAdapter).pipeline,
      logger,
      {
        rebroadcastAfterMs: 60_000,
        batch: 100,
      },
      systemClock,
    );
    // The write is recorded, but its broadcast never reaches the node…
    await fetch(`${proxy.url}/__proxy`, { method: 'POST', body: JSON.stringify({ mode: 'drop-before', times: 1 }) });
    const lost = (await adapters[0]?.mint('credits', holder, UNIT)) as `0x${string}`;
    const [recorded] = await rows<{ status: string; nonce: string }>(
      'select status, nonce::text as nonce from chain_txs where tx_hash = ?',
      [lost],
    );
    expect(recorded?.status).toBe('signed');
    // …and someone else sends with the operator key, taking that nonce.
    await dev.mint('credits', holder, 100n * UNIT);
    expect(
      await dev.client.getTransactionCount({ address: privateKeyToAccount(OPERATOR_KEY).address }),
    ).toBeGreaterThan(Number(recorded?.nonce));
    const run = await reconciler.runOnce();
    expect(run.failed).toBe(1);
    const [failed] = await rows<{ status: string; last_error: string; intent_key: string | null }>(
      'select status, last_error, intent_key from chain_txs where tx_hash = ?',
      [lost],
    );
    expect(failed).toMatchObject({ status: 'failed', intent_key: null });
    expect(failed?.last_error).toContain(`nonce ${recorded?.nonce} was used by another transaction`);
    const next = (await adapters[1]?.mint('credits', holder, UNIT)) as `0x${string}`;
    expect((await dev.client.waitForTransactionReceipt({ hash: next, pollingInterval: 20 })).status).toBe('success');
    expect(await adapters[0]?.collateralBalance('credits', holder)).toBe(101n * UNIT);
  }, 60_000);

  it("signs again with the chain's count when a sender outside the pipeline used the nonce this process trusted", async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    const adapter = adapters[0] as ViemChainAdapter;
    // A write through the pipeline: from now on this process takes the operator's nonce from the database.
    const first = await adapter.mint('credits', holder, UNIT);
    await dev.client.waitForTransactionReceipt({ hash: first, pollingInterval: 20 });
    // Someone else sends with the operator key: the database's count is one behind the chain.
    await dev.mint('credits', holder, 10n * UNIT);
    const second = await adapter.mint('credits', holder, UNIT);
    expect((await dev.client.waitForTransactionReceipt({ hash: second, pollingInterval: 20 })).status).toBe('success');
    expect(await adapter.collateralBalance('credits', holder)).toBe(12n * UNIT);
    const writes = await rows<{ status: string; last_error: string | null }>(
      `select status, last_error from chain_txs where kind = 'collateral.mint' and effect->>'to' = ? order by id`,
      [holder],
    );
    // The stale signing is recorded as failed (it can never be mined); its re-signing carried the write.
    expect(writes.map((w) => (w.status === 'failed' ? 'failed' : 'live'))).toEqual(['live', 'failed', 'live']);
    expect(writes[1]?.last_error).toContain('was used by another transaction');
  }, 60_000);
  it('makes one effect whatever the send answered: an error after the node took it, a dropped answer, a refusal before it', async () => {
    const adapter = adapters[0] as ViemChainAdapter;
    const reconciler = new ChainTxReconciler(
      new ChainTxRepository(orms[0] as Orm),
      adapter.pipeline,
      logger,
      {
        rebroadcastAfterMs: 0,
        batch: 100,
      },
      systemClock,
    );
    for (const [mode, status] of [
      // The node executed it and answered with an error: settled from its receipt, never signed again.
      ['error-after', 'mined'],
      // The node executed it and the answer was lost: the same.
      ['drop-after', 'mined'],
      // The node never saw it: its nonce is still free, so it stays open until the same bytes are sent again.
      ['drop-before', 'signed'],
    ] as const) {
      const holder = privateKeyToAccount(generatePrivateKey()).address;
      const before = await proxyStats(proxy.url);
      await setSendRawMode(proxy.url, { mode, times: 1 });
      const hash = await adapter.mint('credits', holder, 3n * UNIT);
      const written = () =>
        rows<{ status: string; tx_hash: string }>(
          `select status, tx_hash from chain_txs where kind = 'collateral.mint' and effect->>'to' = ?`,
          [holder],
        );
      expect(await written(), mode).toEqual([{ status, tx_hash: hash }]);
      // A run sends what is open again; the next finds its receipt.
      await reconciler.runOnce();
      await reconciler.runOnce();
      expect(await written(), mode).toEqual([{ status: 'mined', tx_hash: hash }]);
      expect(await adapter.collateralBalance('credits', holder), mode).toBe(3n * UNIT);
      const after = await proxyStats(proxy.url);
      // One copy reached the node: the first send, or (refused before it) the reconciler's.
      expect(after.forwarded - before.forwarded, mode).toBe(1);
    }
  }, 60_000);
  it('keeps writing exactly once through two pipelines after a revert on the embedded chain host they share', async () => {
    // A collateral transfer above the sender's balance, sent as signed bytes straight to the host's RPC port.
    const sender = privateKeyToAccount(generatePrivateKey());
    await dev.setBalance(sender.address, UNIT);
    const fees = await dev.client.estimateFeesPerGas();
    const raw = await sender.signTransaction({
      to: dev.addresses.credits,
      data: encodeFunctionData({ abi: CollateralTokenAbi, functionName: 'transfer', args: [sender.address, 1n] }),
      gas: 100_000n,
      nonce: 0,
      chainId: dev.chainId,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const reverted = await dev.client.request({ method: 'eth_sendRawTransaction', params: [raw] });
    expect((await dev.client.waitForTransactionReceipt({ hash: reverted, pollingInterval: 20 })).status).toBe(
      'reverted',
    );
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    const hashes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (adapters[i % 2] as ViemChainAdapter).mint('credits', holder, UNIT)),
    );
    const receipts = await withReconciler(() =>
      Promise.all(hashes.map((hash) => dev.client.waitForTransactionReceipt({ hash, pollingInterval: 20 }))),
    );
    expect(receipts.every((r) => r.status === 'success')).toBe(true);
    expect(await adapters[1]?.collateralBalance('credits', holder)).toBe(20n * UNIT);
    const written = await rows<{ n: string }>(
      `select count(*)::text as n from chain_txs where kind = 'collateral.mint' and effect->>'to' = ?`,
      [holder],
    );
    expect(written[0]?.n).toBe('20');
  }, 60_000);
});
