import { getAddress, keccak256, toHex, type Address, type Hash, type Hex, type LocalAccount } from 'viem';
import type { CollateralKind } from '../../src/adapters/chain/chain.port.js';
import type {
  PrizeVaultPort,
  VaultDepositKey,
  VaultDistributionKind,
  VaultReceipt,
  VaultWriteKey,
} from '../../src/adapters/chain/prize-vault.port.js';

/** One operator or user write the fake vault accepted. */
export type VaultWrite =
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
    }
  | {
      readonly op: 'deposit';
      readonly key: string;
      readonly poolId: Hex;
      readonly from: Address;
      readonly amount: bigint;
    };

/**
 * The prize vaults without a chain: every write is recorded once per key (a repeat answers the
 * first hash, as the chain-transaction pipeline does), receipts and claims are whatever the test
 * sets, and `failWith` makes the next writes throw.
 */
export class FakePrizeVault implements PrizeVaultPort {
  readonly writes: VaultWrite[] = [];
  readonly receipts = new Map<string, VaultReceipt>();
  readonly claimed = new Set<string>();
  readonly claimedAmount = new Map<string, bigint>();
  private readonly hashes = new Map<string, Hash>();
  private fresh = 0;
  /** While set, every write throws it (a chain outage). */
  failWith: Error | undefined;
  /** How a deposit's transaction ends: mined as sent (the default), still pending, or reverted. */
  depositOutcome: VaultReceipt['status'] = 'success';

  address(collateral: CollateralKind): Address {
    return collateral === 'usdc'
      ? getAddress('0x00000000000000000000000000000000000000c1')
      : getAddress('0x00000000000000000000000000000000000000c2');
  }

  private write(key: string | undefined, record: (hashKey: string) => VaultWrite): Promise<Hash> {
    if (this.failWith) return Promise.reject(this.failWith);
    const k = key ?? `fresh:${this.fresh++}`;
    const known = this.hashes.get(k);
    if (known) return Promise.resolve(known);
    const hash = keccak256(toHex(k));
    this.hashes.set(k, hash);
    this.writes.push(record(k));
    return Promise.resolve(hash);
  }

  async deposit(
    signer: LocalAccount,
    collateral: CollateralKind,
    poolId: Hex,
    stage: number,
    amount: bigint,
    write?: VaultDepositKey,
  ): Promise<Hash> {
    const before = this.writes.length;
    const txHash = await this.write(write?.key ?? write?.write?.key, (key) => ({
      op: 'deposit',
      key,
      poolId,
      from: signer.address,
      amount,
    }));
    if (this.writes.length > before) {
      const from = signer.address;
      const deposits = [{ collateral, poolId, stage, from, amount, txHash, logIndex: 0, blockNumber: 1n }];
      this.receipts.set(txHash, {
        status: this.depositOutcome,
        sender: this.depositOutcome === 'pending' ? null : from,
        deposits: this.depositOutcome === 'success' ? deposits : [],
        claims: [],
      });
    }
    return txHash;
  }

  release(
    _collateral: CollateralKind,
    poolId: Hex,
    to: Address,
    amount: bigint,
    reason: string,
    write: VaultWriteKey,
  ): Promise<Hash> {
    return this.write(write.key, (key) => ({ op: 'release', key, poolId, to, amount, reason }));
  }

  setRoot(
    _collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    root: Hex,
    total: bigint,
    write: VaultWriteKey,
  ): Promise<Hash> {
    return this.write(write.key, (key) => ({ op: 'setRoot', key, poolId, kind, root, total }));
  }

  claim(): Promise<Hash> {
    return Promise.reject(new Error('FakePrizeVault.claim is not modelled'));
  }

  poolBalance(): Promise<bigint> {
    return Promise.resolve(0n);
  }

  distribution(
    _collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
  ): Promise<{ root: Hex | null; total: bigint; claimed: bigint }> {
    const root = this.writes.find((w) => w.op === 'setRoot' && w.poolId === poolId && w.kind === kind);
    return Promise.resolve({
      root: root?.op === 'setRoot' ? root.root : null,
      total: root?.op === 'setRoot' ? root.total : 0n,
      claimed: this.claimedAmount.get(`${poolId}:${kind}`) ?? 0n,
    });
  }

  isClaimed(_collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind, account: Address): Promise<boolean> {
    return Promise.resolve(this.claimed.has(`${poolId}:${kind}:${account.toLowerCase()}`));
  }

  /** Marks a leaf claimed on chain, as a claimant's own transaction would. */
  markClaimed(poolId: Hex, kind: VaultDistributionKind, account: string, amount = 0n): void {
    this.claimed.add(`${poolId}:${kind}:${account.toLowerCase()}`);
    const k = `${poolId}:${kind}`;
    this.claimedAmount.set(k, (this.claimedAmount.get(k) ?? 0n) + amount);
  }

  receipt(txHash: Hash): Promise<VaultReceipt> {
    return Promise.resolve(
      this.receipts.get(txHash.toLowerCase()) ?? { status: 'pending', sender: null, deposits: [], claims: [] },
    );
  }

  /** The writes of one kind, for assertions. */
  of<K extends VaultWrite['op']>(op: K): Extract<VaultWrite, { op: K }>[] {
    return this.writes.filter((w): w is Extract<VaultWrite, { op: K }> => w.op === op);
  }
}
