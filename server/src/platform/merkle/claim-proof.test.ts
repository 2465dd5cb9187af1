import { ClaimProofSchema } from '@duelkit/contract';
import { decodeFunctionData, getAddress, keccak256, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { PrizeVaultAbi } from '../../adapters/chain/artifacts/PrizeVault.js';
import { claimProofOf } from './claim-proof.js';

const vault = { address: getAddress('0x00000000000000000000000000000000000000aa'), collateral: 'credits' as const };
const account = getAddress('0x00000000000000000000000000000000000000bb');
const node = (s: string): Hex => keccak256(toHex(s));

describe('claimProofOf', () => {
  for (const [kind, kindIndex] of [
    ['payout', 0],
    ['refund', 1],
  ] as const) {
    it(`answers a ${kind} leaf as a ClaimProof whose call is PrizeVault.claim with the leaf's arguments`, () => {
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
      const proof = claimProofOf(leaf, vault, false);
      expect(ClaimProofSchema.parse(proof)).toEqual(proof);
      expect(proof).toMatchObject({
        kind,
        kindIndex,
        account,
        amount: '5000000000000000000',
        vaultAddress: vault.address,
        collateralStack: 'credits',
      });
      expect(proof.call.to).toBe(vault.address);
      const decoded = decodeFunctionData({ abi: PrizeVaultAbi, data: proof.call.data as Hex });
      expect(decoded.functionName).toBe('claim');
      expect(decoded.args).toEqual([leaf.poolId, kindIndex, account, leaf.amount, leaf.proof]);
    });
  }
});
