import type { Address, Hash, Hex, LocalAccount } from 'viem';
import type { CollateralKind } from '../../src/adapters/chain/chain.port.js';
import type {
  PrizeVaultPort,
  VaultDeposit,
  VaultDepositKey,
  VaultDistributionKind,
  VaultReceipt,
  VaultWriteKey,
} from '../../src/adapters/chain/prize-vault.port.js';

/** One write the fake accepted. */
export interface VaultWrite {
  readonly method: 'deposit' | 'release' | 'setRoot';
  readonly key: string | undefined;
  readonly collateral: CollateralKind;
  readonly poolId: Hex;
  readonly amount: bigint;
  readonly to?: Address;
  readonly stage?: number;
  readonly hash: Hash;
}

const VAULTS: Record<CollateralKind, Address> = {
  credits: '0x00000000000000000000000000000000000C0001',
  usdc: '0x00000000000000000000000000000000000C0002',
};

/**
 * The prize vaults in memory: one write per key (a keyed write asked again answers its first
 * hash and changes nothing), pool balances moved by deposits and releases, and receipts a test
 * registers for transactions a client made. A deposit through the fake is mined at once.
 */
export class PrizeVaultFake implements PrizeVaultPort {
  readonly writes: VaultWrite[] = [];
  readonly receipts = new Map<string, VaultReceipt>();
  readonly balances = new Map<string, bigint>();
  readonly roots = new Map<string, { root: Hex; total: bigint; claimed: bigint }>();
  readonly claimed = new Set<string>();
  /** Set to make the next writes fail (a node that is down). */
  failWrites: Error | null = null;
  private n = 0;

  address(collateral: CollateralKind): Address {
    return VAULTS[collateral];
  }

  /** A fresh transaction hash. */
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

  private write(w: Omit<VaultWrite, 'hash'>): { hash: Hash; fresh: boolean } {
    if (this.failWrites) throw this.failWrites;
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
    const { hash, fresh } = this.write({
      method: 'deposit',
      key: write?.key ?? write?.write?.key,
      collateral,
      poolId,
      amount,
      stage,
    });
    if (fresh) {
      this.move(collateral, poolId, amount);
      this.mined(hash, [{ collateral, poolId, stage, from: signer.address, amount }]);
    }
    return hash;
  }

  async release(
    collateral: CollateralKind,
    poolId: Hex,
    to: Address,
    amount: bigint,
    _reason: string,
    write: VaultWriteKey,
  ): Promise<Hash> {
    const { hash, fresh } = this.write({ method: 'release', key: write.key, collateral, poolId, amount, to });
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
    const { hash, fresh } = this.write({ method: 'setRoot', key: write.key, collateral, poolId, amount: total });
    if (fresh) this.roots.set(`${collateral}|${poolId.toLowerCase()}|${kind}`, { root, total, claimed: 0n });
    return hash;
  }

  claim(): Promise<Hash> {
    return Promise.reject(new Error('PrizeVaultFake.claim is not used by these tests'));
  }

  poolBalance(collateral: CollateralKind, poolId: Hex): Promise<bigint> {
    return Promise.resolve(this.balances.get(`${collateral}|${poolId.toLowerCase()}`) ?? 0n);
  }

  distribution(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind) {
    const d = this.roots.get(`${collateral}|${poolId.toLowerCase()}|${kind}`);
    return Promise.resolve(d ?? { root: null, total: 0n, claimed: 0n });
  }

  isClaimed(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind, account: Address) {
    return Promise.resolve(this.claimed.has(`${collateral}|${poolId.toLowerCase()}|${kind}|${account.toLowerCase()}`));
  }

  receipt(txHash: Hash): Promise<VaultReceipt> {
    return Promise.resolve(
      this.receipts.get(txHash.toLowerCase()) ?? { status: 'pending', sender: null, deposits: [], claims: [] },
    );
  }
}
