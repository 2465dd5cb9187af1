import { z } from 'zod';
import { PaginationQuerySchema, PaginationSchema } from '../common/pagination.js';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  DuelIdSchema,
  HexSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import { ChainStateSchema, CreateDuelRequestSchema } from './duels.schemas.js';
import { PriceSeriesSchema, TimeRangeSchema } from './price-history.schemas.js';

/** The smallest entry fee: the platform's 5-unit minimum (18 decimals). */
export const PACK_MIN_ENTRY_FEE = 5n * 10n ** 18n;
/** How many markets one pack bundles at most. */
export const PACK_MAX_MARKETS = 20;
/** Points a correct pick scores at most: the probability against it, in basis points. */
export const PACK_POINTS_SCALE = 10_000;

/** Life of a pack (docs/packs.md). */
export const PackStatusSchema = z
  .enum(['draft', 'published', 'locked', 'resolving', 'settled', 'claimed', 'cancelled'])
  .describe(
    'draft (being built), published (entries and picks open), locked (picks closed), resolving (markets being resolved), ' +
      'settled (ranked, payout table built), claimed (every payout claimed), cancelled (entries refunded)',
  );
export type PackStatus = z.infer<typeof PackStatusSchema>;

/** Where one market of a pack stands, read from its duel (the duel's outcome is the market's). */
export const PackMarketStatusSchema = z
  .enum(['pending', 'open', 'closed', 'resolving', 'resolved', 'voided'])
  .describe(
    'pending (creation not confirmed on chain), open (trading), closed (ended, awaiting its result), ' +
      'resolving (resolved, inside its contest period), resolved (settled: its outcome scores), voided (scores neutral)',
  );

export const PackIdParamsSchema = z.object({ packId: z.string().uuid().describe('Pack id (uuid)') }).strict();

export const PackMarketParamsSchema = z
  .object({
    packId: z.string().uuid().describe('Pack id (uuid)'),
    marketId: DuelIdSchema.describe('The market’s on-chain duelId'),
  })
  .strict();

const EntryFeeSchema = AmountSchema.refine((v) => BigInt(v) >= PACK_MIN_ENTRY_FEE, {
  message: `must be at least ${PACK_MIN_ENTRY_FEE} (5 units)`,
}).describe('Entry fee in base units of the pack’s collateral, at least 5 units');

export const CreatePackRequestSchema = z
  .object({
    title: z.string().trim().min(3).max(200).describe('e.g. "Weekend football pack"'),
    description: z.string().trim().max(2_000).optional(),
    category: z.string().trim().min(1).max(50),
    coverImageUrl: z.string().url().max(2_000).optional(),
    collateralStack: CollateralStackSchema.default('credits').describe(
      'Collateral of the entry fee and the prizes; usdc is geo-gated',
    ),
    entryFee: EntryFeeSchema,
    lockAt: TimestampSchema.describe(
      'When picks close; in the future, and no later than the end of any market of the pack',
    ),
  })
  .strict();

/** One market of a pack, with its outcome as the pack scores it. */
export const PackMarketSchema = z
  .object({
    marketId: DuelIdSchema.describe('The market’s on-chain duelId'),
    question: z.string(),
    options: z.array(z.string()).min(2).max(8),
    status: PackMarketStatusSchema,
    winningOptionIndex: z.number().int().min(0).nullable().describe('Set once the market is resolved'),
    prices: z
      .array(AmountSchema)
      .describe('Current marginal price per option scaled by 1e18: what a pick made now locks'),
    startTime: TimestampSchema,
    endTime: TimestampSchema,
    chainState: ChainStateSchema,
    voidReason: z.string().nullable(),
    voidedAt: TimestampSchema.nullable(),
  })
  .strict();
export type PackMarket = z.infer<typeof PackMarketSchema>;

const packFields = {
  id: z.string().uuid(),
  title: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  coverImageUrl: z.string().nullable(),
  status: PackStatusSchema,
  collateralStack: CollateralStackSchema,
  entryFee: AmountSchema,
  feeBps: z.number().int().min(0).max(2_000).describe('Platform fee on the prize pool, basis points'),
  lockAt: TimestampSchema,
  creatorAddress: AddressSchema.describe('The creator’s managed wallet; the platform operator for admin packs'),
  createdBy: z.enum(['creator', 'admin']),
  poolId: HexSchema.describe('The pack’s pool on the prize vault: keccak256("duelkit:pack:" + id)'),
  vaultAddress: AddressSchema.describe('The prize vault of the pack’s collateral'),
  entrants: z.number().int().min(0).describe('Entries whose deposit is confirmed'),
  prizePool: AmountSchema.describe('Confirmed entry fees in the pool, before the platform fee'),
  marketCount: z.number().int().min(0),
  createdAt: TimestampSchema,
  publishedAt: TimestampSchema.nullable(),
  lockedAt: TimestampSchema.nullable(),
  settledAt: TimestampSchema.nullable(),
  claimedAt: TimestampSchema.nullable(),
  cancelledAt: TimestampSchema.nullable(),
  cancelReason: z.string().nullable(),
};

/** A pack in lists. */
export const PackSummarySchema = z.object(packFields).strict();
export type PackSummary = z.infer<typeof PackSummarySchema>;

/** A pack with its markets. */
export const PackSchema = z
  .object({ ...packFields, markets: z.array(PackMarketSchema).describe('In the order they were added') })
  .strict();
export type Pack = z.infer<typeof PackSchema>;

export const PackListQuerySchema = PaginationQuerySchema.extend({
  status: PackStatusSchema.exclude(['draft']).optional(),
  collateralStack: CollateralStackSchema.optional(),
}).strict();

export const PackListResponseSchema = z
  .object({ data: z.array(PackSummarySchema), pagination: PaginationSchema })
  .strict();

/** A new market created for the pack (signed by the creator's managed wallet, like duels/create). */
const NewPackMarketSchema = CreateDuelRequestSchema.omit({ isPrivate: true, category: true })
  .extend({ category: z.string().trim().min(1).max(50).optional().describe('Default: the pack’s category') })
  .strict();

export const CreatorAddPackMarketRequestSchema = z.discriminatedUnion('source', [
  z
    .object({
      source: z.literal('new'),
      market: NewPackMarketSchema.describe('A new public market, funded by your managed wallet'),
    })
    .strict(),
  z
    .object({
      source: z.literal('existing'),
      marketId: DuelIdSchema.describe('One of your own open public markets that belongs to no parent market yet'),
    })
    .strict(),
]);

export const AddPackMarketResponseSchema = z
  .object({
    packId: z.string().uuid(),
    market: PackMarketSchema,
    txHash: TxHashSchema.nullable().describe('Creation transaction of a new market; null for an existing one'),
  })
  .strict();

export const EmptyBodySchema = z.object({}).strict();

export const PackEntrySchema = z
  .object({
    packId: z.string().uuid(),
    userAddress: AddressSchema,
    status: z
      .enum(['pending', 'confirmed', 'failed'])
      .describe('pending until the deposit is mined and verified; failed when it reverted or did not match'),
    amount: AmountSchema,
    txHash: TxHashSchema.nullable().describe('The deposit into the pack’s pool'),
    failureReason: z.string().nullable(),
    enteredAt: TimestampSchema,
    confirmedAt: TimestampSchema.nullable(),
  })
  .strict();

export const PickInputSchema = z
  .object({ marketId: DuelIdSchema, optionIndex: z.number().int().min(0).max(7) })
  .strict();

export const PicksRequestSchema = z
  .object({
    picks: z
      .array(PickInputSchema)
      .min(1)
      .max(PACK_MAX_MARKETS)
      .refine((p) => new Set(p.map((x) => x.marketId.toLowerCase())).size === p.length, 'one pick per market')
      .describe('One pick per market; a market picked again replaces the earlier pick (and its price)'),
  })
  .strict();

const PointsSchema = z.number().int().min(0).max(PACK_POINTS_SCALE);

export const PickEstimateSchema = z
  .object({
    marketId: DuelIdSchema,
    optionIndex: z.number().int().min(0),
    optionLabel: z.string(),
    price: AmountSchema.describe('The option’s price now, scaled by 1e18'),
    pointsIfCorrect: PointsSchema.describe('10000 × (1 − price), floored: the probability against the pick'),
  })
  .strict();

export const PicksEstimateResponseSchema = z
  .object({
    packId: z.string().uuid(),
    pricedAt: TimestampSchema,
    picks: z.array(PickEstimateSchema),
    pointsIfAllCorrect: z.number().int().min(0),
  })
  .strict();

export const PackPickSchema = PickEstimateSchema.extend({
  price: AmountSchema.describe('The option’s price when the pick was made, scaled by 1e18'),
  pickedAt: TimestampSchema,
  result: z.enum(['pending', 'won', 'lost', 'void']),
  points: PointsSchema.nullable().describe('Points scored; null until the market is resolved or voided'),
}).strict();

export const PicksResponseSchema = z
  .object({
    packId: z.string().uuid(),
    picks: z.array(PackPickSchema).describe('All your picks in this pack'),
    final: z.literal(false).describe('Picks are accepted, not final: they can be changed until lockAt'),
    changeableUntil: TimestampSchema,
  })
  .strict();

export const MyPackSchema = z
  .object({
    packId: z.string().uuid(),
    status: PackStatusSchema,
    entry: PackEntrySchema.nullable(),
    picks: z.array(PackPickSchema),
    points: z.number().int().min(0).describe('Points from markets resolved so far (final once settled)'),
    rank: z.number().int().min(1).nullable().describe('Set once the pack is settled'),
    payout: AmountSchema.nullable().describe('Your payout once settled'),
    refund: AmountSchema.nullable().describe('Your refund once cancelled'),
  })
  .strict();

export const StandingSchema = z
  .object({
    rank: z.number().int().min(1).describe('Ties share a rank (1, 2, 2, 4)'),
    userAddress: AddressSchema,
    username: z.string().nullable(),
    points: z.number().int().min(0),
    correctPicks: z.number().int().min(0),
    picks: z.number().int().min(0),
    payout: AmountSchema.nullable().describe('Set once the pack is settled (preview: what settle would write)'),
  })
  .strict();

export const LeaderboardResponseSchema = z
  .object({
    packId: z.string().uuid(),
    final: z.boolean().describe('true once the pack is settled; before that, standings from results so far'),
    data: z.array(StandingSchema),
    pagination: PaginationSchema,
  })
  .strict();

export const PackPriceHistoryQuerySchema = z
  .object({
    timeRange: TimeRangeSchema.default('ALL'),
    limit: z.coerce.number().int().min(1).max(1_000).default(500).describe('At most this many points per series'),
  })
  .strict();

export const PackPriceHistorySchema = z
  .object({
    packId: z.string().uuid(),
    timeRange: TimeRangeSchema,
    bucketSeconds: z.number().int().positive(),
    scoringRule: z.string().describe('How a pick’s price at pick time becomes points'),
    series: z.array(PriceSeriesSchema).describe('One series per market of the pack, in pack order'),
  })
  .strict();

export const DistributionKindSchema = z.enum(['payout', 'refund']);

export const ProofQuerySchema = z
  .object({
    account: AddressSchema.optional().describe('Whose leaf; default the bearer’s managed wallet'),
  })
  .strict();

export const DistributionSummarySchema = z
  .object({
    packId: z.string().uuid(),
    kind: DistributionKindSchema,
    status: z
      .enum(['not_ready', 'built', 'published'])
      .describe('not_ready (no table yet), built (table and root stored), published (root set on the vault)'),
    root: HexSchema.nullable(),
    total: AmountSchema.describe('Sum of every leaf'),
    leafCount: z.number().int().min(0),
    claimedAmount: AmountSchema.describe('Claimed on the vault so far'),
    poolId: HexSchema,
    vaultAddress: AddressSchema,
    mine: z
      .object({
        account: AddressSchema,
        amount: AmountSchema,
        claimed: z.boolean(),
        claimTxHash: TxHashSchema.nullable(),
      })
      .strict()
      .nullable()
      .describe('The caller’s (or `account`’s) leaf; null without one'),
  })
  .strict();
