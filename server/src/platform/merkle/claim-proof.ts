import type { ClaimProof } from '@duelkit/contract';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type { UnsignedCall } from '../../adapters/chain/prize-vault.port.js';
import type { LeafProof } from './distribution-book.js';

const KIND_INDEX = { payout: 0, refund: 1 } as const;

/**
 * The one answer of every claim-proof route (packs and tournaments, payouts and refunds): the
 * leaf, where it is claimed, and the `PrizeVault.claim` call that pays it, ready to send. `call` is
 * the prize-vault port's `claimCall` of the leaf; its `to` is the vault the answer names.
 */
export function claimProofOf(
  leaf: LeafProof,
  collateral: CollateralKind,
  call: UnsignedCall,
  claimed: boolean,
): ClaimProof {
  return {
    kind: leaf.kind,
    kindIndex: KIND_INDEX[leaf.kind],
    poolId: leaf.poolId,
    account: leaf.account,
    amount: leaf.amount.toString(),
    proof: [...leaf.proof],
    root: leaf.root,
    vaultAddress: call.to,
    collateralStack: collateral,
    published: leaf.published,
    claimed,
    claimTxHash: leaf.claimTxHash,
    call: {
      to: call.to,
      data: call.data,
      description: `PrizeVault.claim of the ${leaf.kind} ${leaf.amount} to ${leaf.account}; anyone may send it`,
    },
  };
}
