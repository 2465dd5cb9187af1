import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { getAddress, type Address, type Hex } from 'viem';

/** Leaf encoding shared with PrizeVault.sol: StandardMerkleTree over (bytes32 poolId, address account, uint256 amount). */
export const LEAF_ENCODING = ['bytes32', 'address', 'uint256'] as const;

export interface DistributionEntry {
  readonly account: Address;
  readonly amount: bigint;
}

export interface BuiltLeaf {
  readonly account: Address;
  readonly amount: bigint;
  readonly proof: readonly Hex[];
}

export interface BuiltDistribution {
  readonly poolId: Hex;
  readonly root: Hex;
  readonly total: bigint;
  /** One leaf per account, in account order. */
  readonly leaves: readonly BuiltLeaf[];
}

/**
 * Builds the Merkle tree of a payout or refund table. Entries of one account are summed into a
 * single leaf (the vault pays each account once per distribution); zero amounts are dropped; the
 * order is canonical (by account), so the same table always gives the same root.
 */
export function buildDistribution(poolId: Hex, entries: readonly DistributionEntry[]): BuiltDistribution {
  if (!/^0x[0-9a-fA-F]{64}$/.test(poolId)) throw new Error(`poolId must be 32 bytes of hex, got ${poolId}`);
  const sums = new Map<Address, bigint>();
  for (const e of entries) {
    if (e.amount < 0n) throw new Error(`negative amount for ${e.account}`);
    const account = getAddress(e.account);
    sums.set(account, (sums.get(account) ?? 0n) + e.amount);
  }
  const rows = [...sums.entries()]
    .filter(([, amount]) => amount > 0n)
    .sort(([a], [b]) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
  if (rows.length === 0) throw new Error('a distribution needs at least one positive amount');
  const tree = StandardMerkleTree.of(
    rows.map(([account, amount]) => [poolId.toLowerCase(), account, amount.toString()]),
    [...LEAF_ENCODING],
    { sortLeaves: true },
  );
  const leaves: BuiltLeaf[] = [];
  for (const [i, [, account, amount]] of tree.entries()) {
    leaves.push({ account: account as Address, amount: BigInt(amount as string), proof: tree.getProof(i) as Hex[] });
  }
  leaves.sort((a, b) => (a.account.toLowerCase() < b.account.toLowerCase() ? -1 : 1));
  return {
    poolId: poolId.toLowerCase() as Hex,
    root: tree.root as Hex,
    total: rows.reduce((sum, [, amount]) => sum + amount, 0n),
    leaves,
  };
}

/** Checks a served proof off chain, with the same leaf encoding the vault uses on chain. */
export function verifyLeaf(
  root: Hex,
  poolId: Hex,
  leaf: { account: Address; amount: bigint; proof: readonly Hex[] },
): boolean {
  return StandardMerkleTree.verify(
    root,
    [...LEAF_ENCODING],
    [poolId.toLowerCase(), getAddress(leaf.account), leaf.amount.toString()],
    [...leaf.proof],
  );
}
