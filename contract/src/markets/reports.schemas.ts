import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../common/pagination.js';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  SignedAmountSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';

/**
 * The query every report takes. Rows are in the order of the report's time column (ties broken by
 * the row's key); `cursor` continues after the last row of the previous page (keyset pagination,
 * stable under inserts). `format=csv` (or `Accept: text/csv`) answers every selected row as CSV.
 */
function reportQuery<S extends z.ZodTypeAny>(status: S | undefined) {
  return z
    .object({
      from: TimestampSchema.optional().describe('Rows at or after this instant (the report’s time column)'),
      to: TimestampSchema.optional().describe('Rows before this instant'),
      builderAppId: z.string().uuid().optional().describe('Rows of one builder app'),
      order: z.enum(['asc', 'desc']).default('desc').describe('By the time column, then the key'),
      cursor: z
        .string()
        .max(300)
        .optional()
        .describe('`nextCursor` of the previous page; only with the same filters and order'),
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(MAX_PAGE_SIZE)
        .default(50)
        .describe(`Page size, at most ${MAX_PAGE_SIZE} (ignored for CSV)`),
      format: z.enum(['json', 'csv']).default('json').describe('`csv` streams every selected row'),
      ...(status ? { status: status.optional().describe('Rows in this status') } : {}),
    })
    .strict();
}

function page<T extends z.ZodTypeAny>(row: T) {
  return z
    .object({
      data: z.array(row),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
      hasMore: z.boolean(),
    })
    .strict();
}

const builderAppId = z.string().uuid().nullable().describe('The builder app the row belongs to');
const userId = z.string().uuid().nullable();

export const BetReportRowSchema = z
  .object({
    id: z.string().uuid(),
    duelId: z.string(),
    trader: AddressSchema,
    side: z.enum(['buy', 'sell']),
    optionIndex: z.number().int(),
    collateral: AmountSchema,
    fee: AmountSchema,
    shares: AmountSchema,
    collateralStack: CollateralStackSchema,
    txHash: TxHashSchema,
    logIndex: z.number().int(),
    blockNumber: z.string().describe('Decimal block number'),
    builderAppId,
    createdAt: TimestampSchema,
  })
  .strict();

export const ContestReportRowSchema = z
  .object({
    id: z.string().uuid(),
    duelId: z.string(),
    userAddress: AddressSchema,
    userId,
    reason: z.string(),
    proposedOptionIndex: z.number().int().nullable(),
    builderAppId,
    createdAt: TimestampSchema,
  })
  .strict();

export const PlatformRequestStatusSchema = z.enum(['pending', 'approved', 'rejected']);

/** A creator, league or token request (documented extension: POST /svc/user/requests). */
export const RequestReportRowSchema = z
  .object({
    id: z.string().uuid(),
    kind: z.enum(['creator', 'league', 'token']),
    userId: z.string().uuid(),
    username: z.string().nullable(),
    address: AddressSchema,
    status: PlatformRequestStatusSchema,
    message: z.string().nullable(),
    leagueId: z.string().nullable(),
    tokenName: z.string().nullable(),
    tokenSymbol: z.string().nullable(),
    decidedBy: z.string().nullable(),
    decidedAt: TimestampSchema.nullable(),
    decisionReason: z.string().nullable(),
    builderAppId,
    createdAt: TimestampSchema,
  })
  .strict();

export const DuelMembershipReportRowSchema = z
  .object({
    duelId: z.string(),
    memberAddress: AddressSchema,
    userId,
    via: z.string().describe('How the member joined: invite, creator, admin…'),
    invitationId: z.string().uuid().nullable(),
    chainState: z.string(),
    joinedAt: TimestampSchema,
    removedAt: TimestampSchema.nullable(),
    builderAppId,
  })
  .strict();

export const DuelReportRowSchema = z
  .object({
    duelId: z.string(),
    question: z.string(),
    category: z.string(),
    status: z.string(),
    chainState: z.string(),
    collateralStack: CollateralStackSchema,
    isPrivate: z.boolean(),
    creatorAddress: AddressSchema,
    totalVolume: AmountSchema,
    uniqueParticipants: z.number().int(),
    startTime: TimestampSchema,
    endTime: TimestampSchema,
    builderAppId,
    createdAt: TimestampSchema,
  })
  .strict();

export const InvitationUsageReportRowSchema = z
  .object({
    kind: z.enum(['platform', 'duel']).describe('A platform invite code at sign-up, or a private-market invitation'),
    invitationId: z.string().uuid(),
    code: z.string(),
    ownerUserId: userId.describe('The platform code’s owner (null for a duel invitation)'),
    duelId: z.string().nullable(),
    userId,
    userAddress: AddressSchema,
    builderAppId,
    usedAt: TimestampSchema,
  })
  .strict();

export const LaunchedTokenReportRowSchema = z
  .object({
    id: z.string().uuid(),
    requestId: z.string().uuid(),
    userId: z.string().uuid(),
    address: AddressSchema.describe('The requester’s managed wallet'),
    name: z.string(),
    symbol: z.string(),
    tokenAddress: AddressSchema.nullable().describe('Where the token was deployed, as the admin recorded it'),
    launchedBy: z.string(),
    builderAppId,
    launchedAt: TimestampSchema,
  })
  .strict();

export const LeagueMembershipReportRowSchema = z
  .object({
    leagueId: z.string(),
    userId: z.string().uuid(),
    address: AddressSchema,
    requestId: z.string().uuid(),
    builderAppId,
    joinedAt: TimestampSchema,
  })
  .strict();

export const PnlSnapshotReportRowSchema = z
  .object({
    holder: AddressSchema,
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    invested: AmountSchema.describe('Collateral spent on buys up to the snapshot'),
    returned: AmountSchema.describe('Collateral received from sells up to the snapshot'),
    openCostBasis: AmountSchema.describe('Cost basis of the shares still held'),
    realizedPnl: SignedAmountSchema.describe('returned − (invested − openCostBasis)'),
    trades: z.number().int(),
    userId,
    builderAppId,
    snapshotAt: TimestampSchema,
  })
  .strict();

export const UserReportRowSchema = z
  .object({
    id: z.string().uuid(),
    username: z.string().nullable(),
    address: AddressSchema.describe('Managed wallet'),
    eoaAddress: AddressSchema.nullable(),
    inviteCode: z.string().nullable(),
    builderAppId,
    createdAt: TimestampSchema,
  })
  .strict();

export const WithdrawalReportRowSchema = z
  .object({
    id: z.string().uuid(),
    userId: z.string().uuid(),
    address: AddressSchema,
    collateralStack: CollateralStackSchema,
    toAddress: AddressSchema,
    amount: AmountSchema,
    status: z.enum(['reserved', 'submitted', 'completed', 'failed']),
    requestId: z.string().uuid().nullable(),
    txHash: TxHashSchema.nullable(),
    failureReason: z.string().nullable(),
    builderAppId,
    createdAt: TimestampSchema,
    completedAt: TimestampSchema.nullable(),
  })
  .strict();

export const BetReportQuerySchema = reportQuery(z.enum(['buy', 'sell']));
export const ContestReportQuerySchema = reportQuery(undefined);
export const RequestReportQuerySchema = reportQuery(PlatformRequestStatusSchema);
export const DuelMembershipReportQuerySchema = reportQuery(z.enum(['pending', 'confirmed', 'failed', 'removed']));
export const DuelReportQuerySchema = reportQuery(
  z.enum(['open', 'pending', 'settled', 'pending_contest', 'cancelled']),
);
export const InvitationUsageReportQuerySchema = reportQuery(z.enum(['platform', 'duel']));
export const PlainReportQuerySchema = reportQuery(undefined);
export const WithdrawalReportQuerySchema = reportQuery(z.enum(['reserved', 'submitted', 'completed', 'failed']));

export const BetReportPageSchema = page(BetReportRowSchema);
export const ContestReportPageSchema = page(ContestReportRowSchema);
export const RequestReportPageSchema = page(RequestReportRowSchema);
export const DuelMembershipReportPageSchema = page(DuelMembershipReportRowSchema);
export const DuelReportPageSchema = page(DuelReportRowSchema);
export const InvitationUsageReportPageSchema = page(InvitationUsageReportRowSchema);
export const LaunchedTokenReportPageSchema = page(LaunchedTokenReportRowSchema);
export const LeagueMembershipReportPageSchema = page(LeagueMembershipReportRowSchema);
export const PnlSnapshotReportPageSchema = page(PnlSnapshotReportRowSchema);
export const UserReportPageSchema = page(UserReportRowSchema);
export const WithdrawalReportPageSchema = page(WithdrawalReportRowSchema);

/** The report names, as in their paths. */
export const REPORT_NAMES = [
  'bets',
  'contests',
  'creator-requests',
  'duel-memberships',
  'duels',
  'invitation-usage',
  'launched-tokens',
  'league-memberships',
  'league-requests',
  'pnl-snapshots',
  'token-requests',
  'users',
  'withdrawals',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

/** The row schema of every report: its keys, in order, are the CSV columns. */
export const REPORT_ROWS = {
  bets: BetReportRowSchema,
  contests: ContestReportRowSchema,
  'creator-requests': RequestReportRowSchema,
  'duel-memberships': DuelMembershipReportRowSchema,
  duels: DuelReportRowSchema,
  'invitation-usage': InvitationUsageReportRowSchema,
  'launched-tokens': LaunchedTokenReportRowSchema,
  'league-memberships': LeagueMembershipReportRowSchema,
  'league-requests': RequestReportRowSchema,
  'pnl-snapshots': PnlSnapshotReportRowSchema,
  'token-requests': RequestReportRowSchema,
  users: UserReportRowSchema,
  withdrawals: WithdrawalReportRowSchema,
} as const satisfies Record<ReportName, z.AnyZodObject>;
