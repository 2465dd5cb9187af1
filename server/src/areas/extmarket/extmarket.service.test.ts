import { randomBytes } from 'node:crypto';
import { decodeFunctionData, getAddress, type Address, type LocalAccount } from 'viem';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  ExtPreparedRelayerTx,
  ExtRelayerRequest,
  ExtRelayerTx,
  ExternalExchange,
} from '../../adapters/extmarket/external-exchange.port.js';
import { EXT_CALL_ABI, EXT_CONTRACTS } from '../../adapters/extmarket/extmarket.protocol.js';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import type { IdempotentRun } from '../../platform/idempotency/idempotent-run.js';
import { operationContext, type OperationContext } from '../../platform/operation.context.js';
import { SecretBox } from '../identity/secret-box.js';
import { ExtAccounts } from './extmarket-accounts.port.js';
import { MemoryExtStore } from './extmarket-store.test-kit.js';
import { ExtMarketService } from './extmarket.service.js';

type Fault = 'lose-answer' | 'unreachable';

/**
 * The relayer as the service sees it: a nonce per wallet, a batch runs only at its wallet's
 * current nonce (then the nonce moves on), pUSD moves when a batch runs, and a fault either loses
 * the answer after the relayer accepted the transaction or never lets the request reach it.
 */
class FakeRelayer {
  txs: (ExtRelayerTx & { prepared: ExtPreparedRelayerTx })[] = [];
  nonces = new Map<string, bigint>();
  pUsd = new Map<string, bigint>();
  deployed = new Set<string>();
  faults: Fault[] = [];
  signed = 0;
  store: MemoryExtStore | undefined;
  /** Whether each submission found its intent already recorded (the rule: record, then send). */
  intentBeforeSend: boolean[] = [];

  asPort(): ExternalExchange {
    return this as unknown as ExternalExchange;
  }
  async isDeployed(wallet: Address) {
    return this.deployed.has(wallet.toLowerCase());
  }
  async polygonBalances(addresses: readonly Address[]) {
    return Object.fromEntries(
      addresses.map((a) => [a, { [EXT_CONTRACTS.pUsd]: (this.pUsd.get(a.toLowerCase()) ?? 0n).toString() }]),
    );
  }
  async prepareRelayerTx(signer: LocalAccount, request: ExtRelayerRequest): Promise<ExtPreparedRelayerTx> {
    if ('deploy' in request) throw new Error('not used here');
    this.signed++;
    return {
      type: request.kind,
      from: signer.address,
      wallet: request.wallet,
      nonce: (this.nonces.get(request.wallet.toLowerCase()) ?? 0n).toString(),
      deadline: '0',
      calls: request.calls,
      signature: `0x${String(this.signed).padStart(130, '0')}`,
      metadata: request.metadata,
    };
  }
  async submitRelayerTx(p: ExtPreparedRelayerTx): Promise<ExtRelayerTx> {
    this.intentBeforeSend.push(
      [...(this.store?.relayerIntents.values() ?? [])].some((i) => i.request.signature === p.signature),
    );
    const fault = this.faults.shift();
    if (fault === 'unreachable') throw new DomainError('UPSTREAM_UNAVAILABLE', 'relayer: connection reset');
    const wallet = p.wallet.toLowerCase();
    if (p.nonce !== (this.nonces.get(wallet) ?? 0n).toString())
      throw new DomainError('UPSTREAM_ERROR', 'relayer refused: invalid nonce', { details: { status: 400 } });
    this.nonces.set(wallet, BigInt(p.nonce) + 1n);
    for (const c of p.calls) {
      const d = decodeFunctionData({ abi: EXT_CALL_ABI, data: c.data });
      if (d.functionName !== 'transfer') continue;
      const [to, amount] = d.args;
      this.pUsd.set(wallet, (this.pUsd.get(wallet) ?? 0n) - amount);
      this.pUsd.set(to.toLowerCase(), (this.pUsd.get(to.toLowerCase()) ?? 0n) + amount);
    }
    const at = new Date(Date.UTC(2026, 10, 28)).toISOString();
    const tx = {
      transactionId: `tx-${this.txs.length + 1}`,
      transactionHash: `0x${String(this.txs.length + 1).padStart(64, '0')}`,
      state: 'STATE_NEW',
      type: p.type,
      createdAt: at,
      updatedAt: at,
      prepared: p,
    };
    this.txs.push(tx);
    if (fault === 'lose-answer') throw new DomainError('UPSTREAM_UNAVAILABLE', 'relayer: socket hang up');
    return tx;
  }
  async findRelayerTx(p: ExtPreparedRelayerTx) {
    return this.txs.find(
      (t) =>
        t.prepared.wallet.toLowerCase() === p.wallet.toLowerCase() &&
        t.prepared.nonce === p.nonce &&
        t.prepared.signature === p.signature,
    );
  }
  async relayerTransaction(id: string) {
    return this.txs.find((t) => t.transactionId === id);
  }
}

const MANAGED = getAddress('0x000000000000000000000000000000000000dEaD');
const caller = { userId: 'u1', managedAddress: MANAGED };
let clock: ManualClock;
let store: MemoryExtStore;
let relayer: FakeRelayer;
let service: ExtMarketService;
let wallet: Address;
let record = 0;

/** One execution of a request: under a key, its idempotency record (a retry resumes the same record). */
function execution(recordId?: string): OperationContext {
  const run: IdempotentRun | undefined =
    recordId === undefined
      ? undefined
      : {
          recordId,
          successStatus: 200,
          shape: (b) => b,
          resumed: false,
          names: new Set(),
          scoped: new Map(),
          effectStarted: false,
          pending: undefined,
        };
  return operationContext({ requestId: `r${++record}`, clock, run });
}

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 10, 28));
  store = new MemoryExtStore();
  relayer = new FakeRelayer();
  relayer.store = store;
  const deps = { store, exchange: relayer.asPort(), box: new SecretBox(randomBytes(32)) };
  const row = await new ExtAccounts(deps).ensure(caller, 'deposit-wallet', new Date(clock.now()));
  wallet = getAddress(row.tradingWallet);
  relayer.deployed.add(wallet.toLowerCase());
  relayer.pUsd.set(wallet.toLowerCase(), 10_000_000n);
  service = new ExtMarketService(deps, clock);
});

const held = (a: Address) => relayer.pUsd.get(a.toLowerCase()) ?? 0n;

describe('relayer moves under an Idempotency-Key', () => {
  it('records the signed batch as an intent, and the effect as started, before sending it', async () => {
    const ctx = execution('7');
    const tx = await service.withdrawClob(ctx, caller, { amount: '4000000', unwrap: false });
    expect(tx).toMatchObject({ transactionId: 'tx-1', operation: 'withdraw-clob', state: 'STATE_NEW' });
    expect(relayer.intentBeforeSend).toEqual([true]);
    expect(ctx.run?.effectStarted).toBe(true);
    expect(store.effectStarted).toEqual(new Set(['7']));
    expect(store.relayerIntents.get('idem:7:w:withdraw-clob')).toMatchObject({ transactionId: 'tx-1' });
    expect([held(wallet), held(MANAGED)]).toEqual([6_000_000n, 4_000_000n]);
  });

  it('a retry after the relayer accepted it but the answer was lost finds that transaction and sends nothing', async () => {
    relayer.faults.push('lose-answer');
    await expect(service.withdrawClob(execution('8'), caller, { amount: '4000000', unwrap: false })).rejects.toThrow(
      /socket hang up/,
    );
    expect(relayer.txs).toHaveLength(1);
    // The balance moved, so the check would now refuse a second 10 pUSD; the retry does not run it again.
    const retried = await service.withdrawClob(execution('8'), caller, { amount: '4000000', unwrap: false });
    expect(retried.transactionId).toBe('tx-1');
    expect(relayer.txs).toHaveLength(1);
    expect(relayer.signed).toBe(1);
    expect([held(wallet), held(MANAGED)]).toEqual([6_000_000n, 4_000_000n]);
    expect(store.ops.get('tx-1')).toMatchObject({ kind: 'withdraw-clob', details: { amount: '4000000' } });
  });

  it('a retry after a send that never reached the relayer sends the very same signed batch, once', async () => {
    relayer.faults.push('unreachable');
    await expect(service.withdrawClob(execution('9'), caller, { amount: '10000000', unwrap: false })).rejects.toThrow(
      /connection reset/,
    );
    expect(relayer.txs).toHaveLength(0);
    const retried = await service.withdrawClob(execution('9'), caller, { amount: '10000000', unwrap: false });
    expect(retried.transactionId).toBe('tx-1');
    expect(relayer.signed).toBe(1);
    expect(relayer.txs[0]?.prepared.signature).toBe(
      store.relayerIntents.get('idem:9:w:withdraw-clob')?.request.signature,
    );
    expect([held(wallet), held(MANAGED)]).toEqual([0n, 10_000_000n]);
  });

  it('signs the recorded calls again when the recorded batch can never run (its nonce went to another batch)', async () => {
    relayer.faults.push('unreachable');
    await expect(service.withdrawClob(execution('10'), caller, { amount: '3000000', unwrap: false })).rejects.toThrow();
    // Another request of the user takes the nonce meanwhile.
    await service.approveTrading(execution('11'), caller);
    expect(relayer.txs.map((t) => t.prepared.nonce)).toEqual(['0']);
    const retried = await service.withdrawClob(execution('10'), caller, { amount: '3000000', unwrap: false });
    expect(retried.transactionId).toBe('tx-2');
    expect(relayer.txs.map((t) => t.prepared.nonce)).toEqual(['0', '1']);
    expect(store.relayerIntents.get('idem:10:w:withdraw-clob')).toMatchObject({
      transactionId: 'tx-2',
      request: { nonce: '1' },
    });
    expect([held(wallet), held(MANAGED)]).toEqual([7_000_000n, 3_000_000n]);
  });

  it('a completed move asked again under its key answers the recorded transaction', async () => {
    await service.withdrawClob(execution('12'), caller, { amount: '1000000', unwrap: false });
    const again = await service.withdrawClob(execution('12'), caller, { amount: '1000000', unwrap: false });
    expect(again.transactionId).toBe('tx-1');
    expect(relayer.txs).toHaveLength(1);
  });

  it('still refuses a move the wallet cannot fund before anything is recorded or sent', async () => {
    await expect(
      service.withdrawClob(execution('13'), caller, { amount: '10000001', unwrap: false }),
    ).rejects.toMatchObject({ code: 'EXTMARKET_INSUFFICIENT_BALANCE' });
    expect(store.relayerIntents.size).toBe(0);
    expect(store.effectStarted.size).toBe(0);
    expect(relayer.txs).toHaveLength(0);
  });

  it('recover-funds names one write per wallet, and a resumed sweep answers what the first one swept', async () => {
    relayer.faults.push('lose-answer');
    await expect(service.recoverFunds(execution('14'), caller)).rejects.toThrow(/socket hang up/);
    const resumed = await service.recoverFunds(execution('14'), caller);
    expect(resumed.swept).toEqual([{ from: wallet, token: EXT_CONTRACTS.pUsd, amount: '10000000' }]);
    expect(resumed.transactions.map((t) => t.transactionId)).toEqual(['tx-1']);
    expect(relayer.txs).toHaveLength(1);
    expect(held(MANAGED)).toBe(10_000_000n);
  });

  it('without a key, each call is its own send', async () => {
    await service.withdrawClob(execution(), caller, { amount: '1000000', unwrap: false });
    await service.withdrawClob(execution(), caller, { amount: '1000000', unwrap: false });
    expect(relayer.txs).toHaveLength(2);
    expect(store.relayerIntents.size).toBe(0);
    expect(held(MANAGED)).toBe(2_000_000n);
  });
});
