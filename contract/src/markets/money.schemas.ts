import { z } from 'zod';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import { AmountSchema, CollateralStackSchema, DuelIdSchema, TxHashSchema } from '../common/primitives.js';

/**
 * What one claim did. `submitted`: the payment was sent now (or is the one sent by an earlier claim
 * or the distribution job, still unmined); `already_paid`: it was paid before and nothing was sent;
 * `nothing_to_claim`: nothing is owed; `deferred`: the creator's payout waits until every other
 * holder of the market is paid.
 */
export const ClaimStatusSchema = z
  .enum(['submitted', 'already_paid', 'nothing_to_claim', 'deferred'])
  .describe('submitted | already_paid | nothing_to_claim | deferred (the creator is paid after every other holder)');

/** Body of POST /svc/user/withdraw/claim-winnings. */
export const ClaimWinningsRequestSchema = z
  .object({
    duelId: DuelIdSchema.optional().describe('Claim one settled market; omitted: every claimable one (at most 50)'),
  })
  .strict();
export type ClaimWinningsRequest = z.infer<typeof ClaimWinningsRequestSchema>;

/** The outcome of a claim of one market. */
export const MarketClaimSchema = z
  .object({
    duelId: DuelIdSchema,
    status: ClaimStatusSchema,
    amount: AmountSchema.nullable().describe('What the payment pays (base units); null when nothing was paid or sent'),
    txHash: TxHashSchema.nullable().describe('The one payment transaction; the same hash on every repeated claim'),
  })
  .strict();
export type MarketClaim = z.infer<typeof MarketClaimSchema>;

export const ClaimWinningsResponseSchema = z
  .object({
    claims: z.array(MarketClaimSchema).describe('One entry per market looked at'),
    totalSubmitted: AmountSchema.describe('Sum of the `submitted` amounts'),
  })
  .strict();
export type ClaimWinningsResponse = z.infer<typeof ClaimWinningsResponseSchema>;

/** Query of GET /svc/user/withdraw/creator-fees. */
export const CreatorFeesQuerySchema = PaginationQuerySchema.extend({
  collateralStack: CollateralStackSchema,
  collateralMode: CollateralStackSchema.describe('The same collateral as `collateralStack` (both are required)'),
}).strict();
export type CreatorFeesQuery = z.infer<typeof CreatorFeesQuerySchema>;

/**
 * Where a market's creator fees stand: `accruing` while it trades or awaits settlement,
 * `claimable` once settled, `submitted` / `paid` once claimed, `refunded` when the market was
 * cancelled (fees go back to the traders with their refunds).
 */
export const CreatorFeeStatusSchema = z.enum(['accruing', 'claimable', 'submitted', 'paid', 'refunded']);

export const CreatorFeeMarketSchema = z
  .object({
    duelId: DuelIdSchema,
    question: z.string(),
    duelStatus: z.string().describe('The market’s status (open, pending, pending_contest, settled, cancelled)'),
    accrued: AmountSchema.describe('Trading fees the market has taken (buys and sells), base units'),
    claimable: AmountSchema.describe('What claim-fees would pay for this market now'),
    status: CreatorFeeStatusSchema,
    paidAmount: AmountSchema.nullable(),
    txHash: TxHashSchema.nullable(),
  })
  .strict();
export type CreatorFeeMarket = z.infer<typeof CreatorFeeMarketSchema>;

export const CreatorFeesResponseSchema = paginated(CreatorFeeMarketSchema)
  .extend({
    collateralStack: CollateralStackSchema,
    totalAccrued: AmountSchema.describe('Fees of every market you created in this collateral'),
    totalClaimable: AmountSchema.describe('Fees of your settled markets not claimed yet'),
    totalPaid: AmountSchema.describe('Fees already paid to you'),
  })
  .strict();
export type CreatorFeesResponse = z.infer<typeof CreatorFeesResponseSchema>;

/** Body of POST /svc/user/withdraw/claim-fees. */
export const ClaimFeesRequestSchema = z
  .object({
    collateralStack: CollateralStackSchema,
    collateralMode: CollateralStackSchema.optional().describe('Must equal `collateralStack` when sent'),
    duelId: DuelIdSchema.optional().describe('Claim one settled market; omitted: every claimable one (at most 50)'),
  })
  .strict();
export type ClaimFeesRequest = z.infer<typeof ClaimFeesRequestSchema>;

export const ClaimFeesResponseSchema = z
  .object({
    claims: z.array(MarketClaimSchema),
    totalSubmitted: AmountSchema,
  })
  .strict();
export type ClaimFeesResponse = z.infer<typeof ClaimFeesResponseSchema>;
