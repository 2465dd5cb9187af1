import type { Address, Hash, Hex, LocalAccount } from 'viem';
import type { CollateralKind } from '../../src/adapters/chain/chain.port.js';
import type {
  DescribedCall,
  PrizeVaultPort,
  UnsignedCall,
  VaultClaim,
  VaultDeposit,
  VaultDepositKey,
  VaultDistributionKind,
  VaultReceipt,
  VaultWriteKey,
} from '../../src/adapters/chain/prize-vault.port.js';
import { claimCallOf, depositCallsOf } from '../../src/adapters/chain/viem-prize-vault.adapter.js';

/** A write as the service asked for it: the call's own arguments, without the hash it got. */
export type VaultCall =
  | {
      readonly op: 'deposit';
      /** Undefined for a deposit sent without a key (a fresh write). */
      readonly key: string | undefined;
      readonly poolId: Hex;
      readonly from: Address;
      readonly amount: bigint;
    }
  | {
      readonly op: 'release';
      readonly key: string;
      readonly poolId: Hex;
      readonly to: Address;
      readonly amount: bigint;
      readonly reason: string;
    }
  | {
      readonly op: 'setRoot';
      readonly key: string;
      readonly poolId: Hex;
      readonly kind: VaultDistributionKind;
      readonly root: Hex;
      readonly total: bigint;
    };

/** One write the fake accepted. */
export interface VaultWrite {
  readonly method: VaultCall['op'];
  readonly key: string | undefined;
  readonly collateral: CollateralKind;
  readonly poolId: Hex;
  /** Deposited, released, or set aside by a root. */
  readonly amount: bigint;
  readonly to?: Address;
  readonly stage?: number;
  readonly hash: Hash;
  readonly call: VaultCall;
}

const VAULTS: Record<CollateralKind, Address> = {
  credits: '0x00000000000000000000000000000000000C0001',
  usdc: '0x00000000000000000000000000000000000C0002',
};

/** The collateral tokens the fake's deposit calls approve. */
const TOKENS: Record<CollateralKind, Address> = {
  credits: '0x00000000000000000000000000000000000C0c01',
  usdc: '0x00000000000000000000000000000000000C0c02',
};

const NOT_MINED: VaultReceipt = { status: 'pending', sender: null, deposits: [], claims: [] };

/**
 * The prize vaults in memory, as `ViemPrizeVaultAdapter` behaves over the chain-transaction
 * pipeline: one write per key (a keyed write asked again answers its first hash and changes
 * nothing), pool balances moved by deposits and releases, roots set once per key, and claims a test
 * marks as a claimant's own transaction would. A deposit through the fake ends as `depositOutcome`
 * says (mined at once by default); receipts of transactions a client made are whatever the test
 * registers, and an unknown hash is pending, as the node answers. `failWith` is a chain outage.
 */
export class PrizeVaultFake implements PrizeVaultPort {
  readonly writes: VaultWrite[] = [];
  readonly receipts = new Map<string, VaultReceipt>();
  /** By `collateral|poolId`. */
  readonly balances = new Map<string, bigint>();
  /** Published roots, by `collateral|poolId|kind`. */
  readonly roots = new Map<string, { root: Hex; total: bigint }>();
  /** What claims have paid, by `collateral|poolId|kind`. */
  readonly claimedAmount = new Map<string, bigint>();
  /** Claimed leaves, by `collateral|poolId|kind|account`. */
  readonly claimed = new Set<string>();
  /** While set, every write throws it (a node that is down, or a pre-flight refusal). */
  failWith: Error | undefined;
  /** How a deposit's transaction ends: mined as sent (the default), still pending, or reverted. */
  depositOutcome: VaultReceipt['status'] = 'success';
  private n = 0;

  address(collateral: CollateralKind): Address {
    return VAULTS[collateral];
  }

  /** A fresh transaction hash, never one a write got. */
  nextHash(): Hash {
    return `0x${(++this.n).toString(16).padStart(64, 'f')}`;
  }

  /** Registers a mined transaction holding `deposits`. */
  mined(txHash: Hash, deposits: Omit<VaultDeposit, 'txHash' | 'logIndex' | 'blockNumber'>[]): Hash {
    this.receipts.set(txHash.toLowerCase(), {
      status: 'success',
      sender: deposits[0]?.from ?? null,
      deposits: deposits.map((d, i) => ({ ...d, txHash, logIndex: i, blockNumber: 1n })),
      claims: [],
    });
    return txHash;
  }

  /** Marks a leaf claimed on chain, as a claimant's own transaction would (`amount`: what it paid). */
  markClaimed(
    poolId: Hex,
    kind: VaultDistributionKind,
    account: string,
    amount = 0n,
    collateral: CollateralKind = 'credits',
  ): void {
    const k = distributionKey(collateral, poolId, kind);
    this.claimed.add(`${k}|${account.toLowerCase()}`);
    this.claimedAmount.set(k, (this.claimedAmount.get(k) ?? 0n) + amount);
  }

  /** The writes of one method as the service asked for them, for assertions on whole calls. */
  of<K extends VaultCall['op']>(op: K): Extract<VaultCall, { op: K }>[] {
    return this.writes.filter((w) => w.method === op).map((w) => w.call as Extract<VaultCall, { op: K }>);
  }

  private write(w: Omit<VaultWrite, 'hash'>): { hash: Hash; fresh: boolean } {
    if (this.failWith) throw this.failWith;
    const earlier = w.key === undefined ? undefined : this.writes.find((x) => x.key === w.key);
    if (earlier) return { hash: earlier.hash, fresh: false };
    const hash = this.nextHash();
    this.writes.push({ ...w, hash });
    return { hash, fresh: true };
  }

  private move(collateral: CollateralKind, poolId: Hex, delta: bigint) {
    const k = `${collateral}|${poolId.toLowerCase()}`;
    this.balances.set(k, (this.balances.get(k) ?? 0n) + delta);
  }

  async deposit(
    signer: LocalAccount,
    collateral: CollateralKind,
    poolId: Hex,
    stage: number,
    amount: bigint,
    write?: VaultDepositKey,
  ): Promise<Hash> {
    const key = write?.key ?? write?.write?.key;
    const from = signer.address;
    const { hash, fresh } = this.write({
      method: 'deposit',
      key,
      collateral,
      poolId,
      amount,
      stage,
      call: { op: 'deposit', key, poolId, from, amount },
    });
    if (!fresh) return hash;
    const deposit = { collateral, poolId, stage, from, amount };
    if (this.depositOutcome === 'success') {
      this.move(collateral, poolId, amount);
      this.mined(hash, [deposit]);
    } else if (this.depositOutcome === 'reverted') {
      this.receipts.set(hash, { status: 'reverted', sender: from, deposits: [], claims: [] });
    }
    return hash;
  }

  async release(
    collateral: CollateralKind,
    poolId: Hex,
    to: Address,
    amount: bigint,
    reason: string,
    write: VaultWriteKey,
  ): Promise<Hash> {
    const { hash, fresh } = this.write({
      method: 'release',
      key: write.key,
      collateral,
      poolId,
      amount,
      to,
      call: { op: 'release', key: write.key, poolId, to, amount, reason },
    });
    if (fresh) this.move(collateral, poolId, -amount);
    return hash;
  }

  async setRoot(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    root: Hex,
    total: bigint,
    write: VaultWriteKey,
  ): Promise<Hash> {
    const { hash, fresh } = this.write({
      method: 'setRoot',
      key: write.key,
      collateral,
      poolId,
      amount: total,
      call: { op: 'setRoot', key: write.key, poolId, kind, root, total },
    });
    if (fresh) this.roots.set(distributionKey(collateral, poolId, kind), { root, total });
    return hash;
  }

  claim(): Promise<Hash> {
    return Promise.reject(new Error('PrizeVaultFake.claim is not modelled'));
  }

  /** The adapter's own calldata, on the fake's vault addresses. */
  claimCall(collateral: CollateralKind, claim: VaultClaim): UnsignedCall {
    return claimCallOf(VAULTS[collateral], claim);
  }

  depositCalls(collateral: CollateralKind, poolId: Hex, stage: number, amount: bigint): DescribedCall[] {
    return depositCallsOf(TOKENS[collateral], VAULTS[collateral], poolId, stage, amount);
  }

  poolBalance(collateral: CollateralKind, poolId: Hex): Promise<bigint> {
    return Promise.resolve(this.balances.get(`${collateral}|${poolId.toLowerCase()}`) ?? 0n);
  }

  distribution(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind) {
    const k = distributionKey(collateral, poolId, kind);
    const d = this.roots.get(k);
    return Promise.resolve({ root: d?.root ?? null, total: d?.total ?? 0n, claimed: this.claimedAmount.get(k) ?? 0n });
  }

  isClaimed(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind, account: Address) {
    return Promise.resolve(this.claimed.has(`${distributionKey(collateral, poolId, kind)}|${account.toLowerCase()}`));
  }

  receipt(txHash: Hash): Promise<VaultReceipt> {
    return Promise.resolve(this.receipts.get(txHash.toLowerCase()) ?? NOT_MINED);
  }
}

function distributionKey(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind): string {
  return `${collateral}|${poolId.toLowerCase()}|${kind}`;
}
