import { z } from 'zod';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  DuelIdSchema,
  TimestampSchema,
} from '../common/primitives.js';

/** Query of the referral views: a page, and optionally one collateral. */
export const ReferralQuerySchema = PaginationQuerySchema.extend({
  collateralStack: CollateralStackSchema.optional().describe('Only markets in this collateral (default: both)'),
}).strict();
export type ReferralQuery = z.infer<typeof ReferralQuerySchema>;

export const ReferralAddressParamsSchema = z.object({ address: AddressSchema }).strict();

/** One person referred: a wallet that joined a private market through one of the referrer's invitations. */
export const RefereeSchema = z
  .object({
    address: AddressSchema,
    invitations: z.number().int().min(0).describe('Distinct invitations of the referrer the referee used'),
    duels: z.number().int().min(0).describe('Markets the referee joined through them'),
    volume: AmountSchema.describe('What the referee traded (buys and sells, base units) in those markets'),
    firstJoinedAt: TimestampSchema,
  })
  .strict();
export type Referee = z.infer<typeof RefereeSchema>;

export const ReferralTotalsSchema = z
  .object({
    referees: z.number().int().min(0),
    invitationsCreated: z.number().int().min(0),
    invitationUses: z.number().int().min(0).describe('Joins through the invitations'),
    inviteVolume: AmountSchema.describe('Volume the referees traded in the markets they were invited to'),
  })
  .strict();

export const ReferralAnalyticsSchema = paginated(RefereeSchema)
  .extend({
    referrer: AddressSchema,
    collateralStack: CollateralStackSchema.nullable(),
    totals: ReferralTotalsSchema,
  })
  .strict();
export type ReferralAnalytics = z.infer<typeof ReferralAnalyticsSchema>;

export const ReferrerRowSchema = ReferralTotalsSchema.extend({ referrer: AddressSchema }).strict();
export type ReferrerRow = z.infer<typeof ReferrerRowSchema>;

export const ReferrerListSchema = paginated(ReferrerRowSchema);
export type ReferrerList = z.infer<typeof ReferrerListSchema>;

export const ReferralSummarySchema = ReferralTotalsSchema.extend({
  collateralStack: CollateralStackSchema.nullable(),
  referrers: z.number().int().min(0).describe('Addresses whose invitations brought at least one referee'),
}).strict();
export type ReferralSummary = z.infer<typeof ReferralSummarySchema>;

export const CreatedMarketSchema = z
  .object({
    duelId: DuelIdSchema,
    question: z.string(),
    status: z.string(),
    collateralStack: CollateralStackSchema,
    isPrivate: z.boolean(),
    volume: AmountSchema,
    participants: z.number().int().min(0),
    createdAt: TimestampSchema,
  })
  .strict();

export const MarketCreationSchema = paginated(CreatedMarketSchema)
  .extend({
    address: AddressSchema,
    collateralStack: CollateralStackSchema.nullable(),
    totals: z
      .object({
        markets: z.number().int().min(0),
        open: z.number().int().min(0).describe('Markets not settled nor cancelled'),
        settled: z.number().int().min(0),
        cancelled: z.number().int().min(0),
        private: z.number().int().min(0),
        volume: AmountSchema,
        invitationsCreated: z.number().int().min(0),
      })
      .strict(),
  })
  .strict();
export type MarketCreation = z.infer<typeof MarketCreationSchema>;
