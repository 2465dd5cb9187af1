import { ClaimProofSchema } from '@duelkit/contract';
import { getAddress, keccak256, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { claimCallOf } from '../../adapters/chain/viem-prize-vault.adapter.js';
import { claimProofOf } from './claim-proof.js';

const vault = getAddress('0x00000000000000000000000000000000000000aa');
const account = getAddress('0x00000000000000000000000000000000000000bb');
const node = (s: string): Hex => keccak256(toHex(s));

describe('claimProofOf', () => {
  for (const [kind, kindIndex] of [
    ['payout', 0],
    ['refund', 1],
  ] as const) {
    it(`answers a ${kind} leaf as a ClaimProof carrying the vault's claim call`, () => {
      const leaf = {
        poolId: node('pool'),
        kind,
        root: node('root'),
        account,
        amount: 5n * 10n ** 18n,
        proof: [node('a'), node('b')],
        published: true,
        claimed: false,
        claimTxHash: null,
      };
      const call = claimCallOf(vault, leaf);
      const proof = claimProofOf(leaf, 'credits', call, false);
      expect(ClaimProofSchema.parse(proof)).toEqual(proof);
      expect(proof).toEqual({
        kind,
        kindIndex,
        poolId: leaf.poolId,
        account,
        amount: '5000000000000000000',
        proof: leaf.proof,
        root: leaf.root,
        vaultAddress: vault,
        collateralStack: 'credits',
        published: true,
        claimed: false,
        claimTxHash: null,
        call: {
          to: vault,
          data: call.data,
          description: `PrizeVault.claim of the ${kind} 5000000000000000000 to ${account}; anyone may send it`,
        },
      });
    });
  }
});
