import { z } from 'zod';
import {
  AmountSchema,
  DuelIdSchema,
  HexSchema,
  AddressSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import {
  CreatePackRequestSchema,
  DistributionKindSchema,
  PackMarketSchema,
  PackMarketStatusSchema,
  PackStatusSchema,
  StandingSchema,
} from './packs.schemas.js';

export const AdminCreatePackRequestSchema = CreatePackRequestSchema.extend({
  feeBps: z
    .number()
    .int()
    .min(0)
    .max(2_000)
    .optional()
    .describe('Platform fee on the prize pool in basis points; default PACK_FEE_BPS'),
}).strict();

export const AdminAddPackMarketRequestSchema = z
  .object({
    marketId: DuelIdSchema.describe('An open public market of this builder app that belongs to no parent market yet'),
  })
  .strict();

export const CancelPackRequestSchema = z.object({ reason: z.string().trim().min(3).max(500) }).strict();
export const VoidPackMarketRequestSchema = CancelPackRequestSchema;
export const ResolvePackMarketRequestSchema = z.object({ winningOptionIndex: z.number().int().min(0).max(7) }).strict();

export const ResolvePackMarketResponseSchema = z
  .object({
    packId: z.string().uuid(),
    market: PackMarketSchema,
    txHash: TxHashSchema,
    chainState: z.literal('pending').describe('Accepted, not final: the market reads resolved once the chain confirms'),
  })
  .strict();

export const VoidPackMarketResponseSchema = z
  .object({
    packId: z.string().uuid(),
    market: PackMarketSchema,
    cancelTxHash: TxHashSchema.nullable().describe(
      'The market’s own cancellation (its traders are refunded), when it could still be cancelled',
    ),
  })
  .strict();

export const SettlementSchema = z
  .object({
    packId: z.string().uuid(),
    status: PackStatusSchema,
    ready: z.boolean().describe('Whether settle would succeed now'),
    blockers: z.array(z.string()).describe('Why not, when not ready'),
    pool: AmountSchema.describe('Confirmed entry fees'),
    fee: AmountSchema.describe('Platform fee (feeBps of the pool) plus rounding dust, released to the treasury'),
    prizePool: AmountSchema.describe('pool − fee, split by rank'),
    entrants: z.number().int().min(0),
    markets: z.array(
      z
        .object({
          marketId: DuelIdSchema,
          status: PackMarketStatusSchema,
          winningOptionIndex: z.number().int().min(0).nullable(),
        })
        .strict(),
    ),
    standings: z.array(StandingSchema),
    root: HexSchema.nullable().describe('Merkle root of the payout table (null when nobody is paid)'),
    feeTxHash: TxHashSchema.nullable(),
    settledAt: TimestampSchema.nullable(),
  })
  .strict();

export const SubmitRootResponseSchema = z
  .object({
    packId: z.string().uuid(),
    kind: DistributionKindSchema,
    root: HexSchema,
    total: AmountSchema,
    leafCount: z.number().int().min(1),
    poolId: HexSchema,
    vaultAddress: AddressSchema,
    txHash: TxHashSchema,
  })
  .strict();

export const ClaimRunSchema = z
  .object({
    status: z.enum(['queued', 'running', 'done', 'failed']),
    generation: z.number().int().min(1).describe('Runs of this distribution so far'),
    sent: z.number().int().min(0).describe('Claims this run sent'),
    skipped: z.number().int().min(0).describe('Leaves found already claimed (by their account or an earlier run)'),
    failed: z.number().int().min(0),
    lastError: z.string().nullable(),
    startedAt: TimestampSchema.nullable(),
    finishedAt: TimestampSchema.nullable(),
  })
  .strict();

export const ClaimStatusSchema = z
  .object({
    packId: z.string().uuid(),
    kind: DistributionKindSchema,
    status: z.enum(['not_ready', 'built', 'published']),
    root: HexSchema.nullable(),
    total: AmountSchema,
    leafCount: z.number().int().min(0),
    claimedOnChain: AmountSchema.describe('What the vault has paid out of this distribution'),
    leavesClaimedByRelayer: z.number().int().min(0),
    complete: z.boolean().describe('Every leaf claimed on the vault'),
    run: ClaimRunSchema.nullable().describe('The latest auto-claim run'),
  })
  .strict();

export const TickResponseSchema = z
  .object({
    at: TimestampSchema,
    entriesConfirmed: z.number().int().min(0),
    entriesFailed: z.number().int().min(0),
    locked: z.array(z.string().uuid()),
    resolving: z.array(z.string().uuid()),
    feesReleased: z.array(z.string().uuid()),
    claimed: z.array(z.string().uuid()),
  })
  .strict();
