import { keccak256, toHex, type Address, type Hash, type Hex, type LocalAccount } from 'viem';
import { verifyLeaf } from '../../platform/merkle/merkle-tree.js';
import type { CollateralKind } from './chain.port.js';
import { revertError } from './revert-errors.js';
import type { PrizeVaultPort, VaultDistributionKind, VaultReceipt, VaultWriteKey } from './prize-vault.port.js';

interface Distribution {
  root: Hex;
  total: bigint;
  claimed: bigint;
  accounts: Set<string>;
}

/**
 * An in-memory prize vault with the contract's rules (pool balances, one root per pool and kind,
 * proofs checked with the vault's leaf encoding, one claim per leaf, one write per key), for unit
 * tests of the areas. Wallet balances are not modelled: deposits always have the money.
 */
export class MemoryPrizeVault implements PrizeVaultPort {
  private readonly pools = new Map<string, bigint>();
  private readonly distributions = new Map<string, Distribution>();
  private readonly receipts = new Map<Hash, VaultReceipt>();
  private readonly writes = new Map<string, Hash>();
  private counter = 0;

  address(collateral: CollateralKind): Address {
    return collateral === 'usdc'
      ? '0x00000000000000000000000000000000000a0001'
      : '0x00000000000000000000000000000000000a0002';
  }

  async deposit(
    signer: LocalAccount,
    collateral: CollateralKind,
    poolId: Hex,
    stage: number,
    amount: bigint,
    write?: Partial<VaultWriteKey>,
  ) {
    return this.once(write?.key, () => {
      if (amount <= 0n) throw revert('ZeroAmount');
      this.add(collateral, poolId, amount);
      return {
        status: 'success',
        sender: signer.address,
        deposits: [
          {
            collateral,
            poolId,
            stage,
            from: signer.address,
            amount,
            txHash: '0x',
            logIndex: 0,
            blockNumber: 0n,
          },
        ],
        claims: [],
      };
    });
  }

  async release(
    collateral: CollateralKind,
    poolId: Hex,
    _to: Address,
    amount: bigint,
    _reason: string,
    write: VaultWriteKey,
  ) {
    return this.once(write.key, () => {
      if (amount <= 0n) throw revert('ZeroAmount');
      this.take(collateral, poolId, amount);
      return { status: 'success', sender: null, deposits: [], claims: [] };
    });
  }

  async setRoot(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    root: Hex,
    total: bigint,
    write: VaultWriteKey,
  ) {
    return this.once(write.key, () => {
      const key = this.key(collateral, poolId, kind);
      if (this.distributions.has(key)) throw revert('RootAlreadySet');
      this.take(collateral, poolId, total);
      this.distributions.set(key, { root, total, claimed: 0n, accounts: new Set() });
      return { status: 'success', sender: null, deposits: [], claims: [] };
    });
  }

  async claim(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    account: Address,
    amount: bigint,
    proof: readonly Hex[],
    write: VaultWriteKey,
  ) {
    return this.once(write.key, () => {
      const d = this.distributions.get(this.key(collateral, poolId, kind));
      if (!d) throw revert('RootNotSet');
      if (d.accounts.has(account.toLowerCase())) throw revert('AlreadyClaimed');
      if (!verifyLeaf(d.root, poolId, { account, amount, proof })) throw revert('InvalidProof');
      if (amount > d.total - d.claimed) throw revert('DistributionExhausted');
      d.accounts.add(account.toLowerCase());
      d.claimed += amount;
      return { status: 'success', sender: null, deposits: [], claims: [{ collateral, poolId, kind, account, amount }] };
    });
  }

  async poolBalance(collateral: CollateralKind, poolId: Hex) {
    return this.pools.get(this.key(collateral, poolId)) ?? 0n;
  }

  async distribution(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind) {
    const d = this.distributions.get(this.key(collateral, poolId, kind));
    return { root: d?.root ?? null, total: d?.total ?? 0n, claimed: d?.claimed ?? 0n };
  }

  async isClaimed(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind, account: Address) {
    return this.distributions.get(this.key(collateral, poolId, kind))?.accounts.has(account.toLowerCase()) ?? false;
  }

  async receipt(txHash: Hash): Promise<VaultReceipt> {
    return this.receipts.get(txHash) ?? { status: 'pending', sender: null, deposits: [], claims: [] };
  }

  private once(key: string | undefined, apply: () => VaultReceipt): Hash {
    const known = key ? this.writes.get(key) : undefined;
    if (known) return known;
    const result = apply();
    const hash = keccak256(toHex(`memory-vault-tx-${++this.counter}`));
    this.receipts.set(hash, {
      ...result,
      deposits: result.deposits.map((d) => ({ ...d, txHash: hash, blockNumber: BigInt(this.counter) })),
    });
    if (key) this.writes.set(key, hash);
    return hash;
  }

  private add(collateral: CollateralKind, poolId: Hex, amount: bigint) {
    const k = this.key(collateral, poolId);
    this.pools.set(k, (this.pools.get(k) ?? 0n) + amount);
  }

  private take(collateral: CollateralKind, poolId: Hex, amount: bigint) {
    const k = this.key(collateral, poolId);
    const available = this.pools.get(k) ?? 0n;
    if (amount > available)
      throw revert('InsufficientPoolBalance', { available: available.toString(), needed: amount.toString() });
    this.pools.set(k, available - amount);
  }

  private key(...parts: string[]): string {
    return parts.map((p) => p.toLowerCase()).join('|');
  }
}

function revert(name: string, details: Record<string, unknown> = {}) {
  return revertError(name, Object.values(details));
}
