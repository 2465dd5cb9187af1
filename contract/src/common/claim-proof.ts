import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  Bytes32Schema,
  CollateralStackSchema,
  HexSchema,
  TxHashSchema,
} from './primitives.js';

export const ContractCallSchema = z
  .object({
    to: AddressSchema,
    data: HexSchema,
    description: z.string(),
  })
  .strict()
  .describe('A transaction a self-custody wallet sends itself');

/** Which distribution of a pool a leaf belongs to: winners' payouts, or the refunds of a cancelled pool. */
export const ClaimKindSchema = z.enum(['payout', 'refund']);

/**
 * One leaf of a Merkle distribution on a PrizeVault (server/contracts/PrizeVault.sol), with
 * everything `PrizeVault.claim(poolId, kind, account, amount, proof)` takes and the call itself.
 * Every claim the service serves (a pack's payout or refund, a tournament's payout or refund)
 * answers this one shape.
 */
export const ClaimProofSchema = z
  .object({
    kind: ClaimKindSchema,
    kindIndex: z.union([z.literal(0), z.literal(1)]).describe('PrizeVault.claim’s kind argument: 0 payout, 1 refund'),
    poolId: Bytes32Schema.describe('PrizeVault.claim’s poolId argument: the pack’s or tournament’s pool'),
    account: AddressSchema.describe('The claimant: the vault pays this account, whoever sends the call'),
    amount: AmountSchema.describe('What the leaf pays, in base units (PrizeVault.claim’s amount argument)'),
    proof: z.array(Bytes32Schema).describe('bytes32[] Merkle proof of the leaf (poolId, account, amount)'),
    root: Bytes32Schema.describe('The distribution’s Merkle root the proof leads to'),
    vaultAddress: AddressSchema.describe('The PrizeVault holding the pool (one vault per collateral)'),
    collateralStack: CollateralStackSchema,
    published: z.boolean().describe('Whether the root is set on the vault: a claim reverts (RootNotSet) before'),
    claimed: z.boolean().describe('Whether the vault has paid this leaf'),
    claimTxHash: TxHashSchema.nullable().describe('The claim transaction, once the service has seen it'),
    call: ContractCallSchema.describe(
      'PrizeVault.claim(poolId, kindIndex, account, amount, proof) on vaultAddress, ready to send; anyone may send it',
    ),
  })
  .strict()
  .describe('A leaf of a PrizeVault distribution and the claim call that pays it');
export type ClaimProof = z.infer<typeof ClaimProofSchema>;
