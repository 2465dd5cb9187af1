import type { ClaimProof } from '@duelkit/contract';
import { encodeFunctionData, type Address } from 'viem';
import { PrizeVaultAbi } from '../../adapters/chain/artifacts/PrizeVault.js';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type { LeafProof } from './distribution-book.js';

const KIND_INDEX = { payout: 0, refund: 1 } as const;

/**
 * The one answer of every claim-proof route (packs and tournaments, payouts and refunds): the
 * leaf, where it is claimed, and the `PrizeVault.claim` call that pays it, ready to send.
 */
export function claimProofOf(
  leaf: LeafProof,
  vault: { readonly address: Address; readonly collateral: CollateralKind },
  claimed: boolean,
): ClaimProof {
  const kindIndex = KIND_INDEX[leaf.kind];
  return {
    kind: leaf.kind,
    kindIndex,
    poolId: leaf.poolId,
    account: leaf.account,
    amount: leaf.amount.toString(),
    proof: [...leaf.proof],
    root: leaf.root,
    vaultAddress: vault.address,
    collateralStack: vault.collateral,
    published: leaf.published,
    claimed,
    claimTxHash: leaf.claimTxHash,
    call: {
      to: vault.address,
      data: encodeFunctionData({
        abi: PrizeVaultAbi,
        functionName: 'claim',
        args: [leaf.poolId, kindIndex, leaf.account, leaf.amount, [...leaf.proof]],
      }),
      description: `PrizeVault.claim of the ${leaf.kind} ${leaf.amount} to ${leaf.account}; anyone may send it`,
    },
  };
}
