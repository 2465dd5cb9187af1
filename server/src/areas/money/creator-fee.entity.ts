import { EntitySchema } from '@mikro-orm/core';

export type CreatorFeeClaimStatus = 'submitted' | 'paid';

/**
 * One claim of a settled market's creator fees: unique per market, written in the same database
 * transaction that records the chain write (so a crash after signing still leaves the row).
 */
export interface CreatorFeeClaimRow {
  id: string;
  duelId: string;
  creator: string;
  collateralStack: 'usdc' | 'credits';
  amount: string;
  status: CreatorFeeClaimStatus;
  txHash: string | null;
  paidAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const CreatorFeeClaimEntity = new EntitySchema<CreatorFeeClaimRow>({
  name: 'CreatorFeeClaim',
  tableName: 'creator_fee_claims',
  uniques: [{ name: 'creator_fee_claims_duel_unique', properties: ['duelId'] }],
  indexes: [{ name: 'creator_fee_claims_creator_idx', properties: ['creator'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    duelId: { type: 'string', length: 66 },
    creator: { type: 'string', length: 42 },
    collateralStack: { type: 'string', length: 8 },
    amount: { type: 'decimal', columnType: 'numeric(78,0)' },
    status: { type: 'string', length: 10 },
    txHash: { type: 'string', length: 66, nullable: true },
    paidAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
