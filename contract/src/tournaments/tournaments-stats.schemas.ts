import { z } from 'zod';
import { AddressSchema, AmountSchema, CollateralStackSchema, HexSchema, TxHashSchema } from '../common/primitives.js';
import { limit, offset, queryInt } from './tournaments-io.schemas.js';
import { BondSchema, ContractCallSchema, ReasonSchema, TournamentSchema } from './tournaments.schemas.js';

/** Amounts per stake asset (both 18 decimals). */
export const AmountsByAssetSchema = z.object({ credits: AmountSchema, usdc: AmountSchema }).strict();

export const BondRequirementQuerySchema = z
  .object({ wallet: AddressSchema.optional().describe('Adds that wallet’s bond') })
  .strict();

export const BondRequirementSchema = z
  .object({
    amount: AmountSchema.describe('Bond a creator must hold to create a tournament'),
    asset: CollateralStackSchema,
    decimals: z.literal(18),
    vault: AddressSchema,
    bond: BondSchema.nullable().describe('The wallet’s bond, when a wallet or bearer token was given'),
  })
  .strict();

export const DepositBondRequestSchema = z
  .object({
    amount: AmountSchema.optional().describe('Default: what is missing to the requirement'),
    execute: z.boolean().default(false).describe('Deposit now from the caller’s managed wallet (bearer token)'),
    txHash: TxHashSchema.optional().describe('Record a bond deposit the caller sent itself'),
  })
  .strict();

export const DepositBondResponseSchema = z
  .object({
    wallet: AddressSchema,
    asset: CollateralStackSchema,
    amount: AmountSchema,
    vault: AddressSchema,
    poolId: HexSchema,
    calls: z.array(ContractCallSchema),
    txHash: TxHashSchema.nullable(),
    recorded: z.boolean().describe('The deposit is verified and counts toward the bond'),
    bond: BondSchema,
  })
  .strict();

export const WithdrawBondRequestSchema = z
  .object({ amount: AmountSchema.optional().describe('Default: the whole bond') })
  .strict();

export const WithdrawBondResponseSchema = z
  .object({
    wallet: AddressSchema,
    asset: CollateralStackSchema,
    amount: AmountSchema,
    txHash: TxHashSchema.nullable().describe('The release from the vault; null while it is still being sent'),
    bond: BondSchema,
  })
  .strict();

export const CreateFlowQuerySchema = z
  .object({
    wallet: AddressSchema.optional().describe('Default: the bearer token’s managed wallet'),
    stakeAsset: CollateralStackSchema,
    stage1BuyinRaw: AmountSchema,
    minEntriesToActivate: queryInt(0, 10_000),
  })
  .strict();

export const CreateFlowEligibilitySchema = z
  .object({
    canProceed: z.boolean(),
    wallet: AddressSchema.nullable(),
    reasons: z.array(ReasonSchema).describe('Every reason the create flow would fail now; empty when it can proceed'),
    minimumBuyin: AmountSchema,
    stage1BuyinRaw: AmountSchema,
    bond: BondSchema.nullable(),
  })
  .strict();

export const CreatorEligibilitySchema = z
  .object({
    eligible: z.boolean(),
    wallet: AddressSchema.nullable(),
    reasons: z.array(ReasonSchema),
    bond: BondSchema.nullable(),
  })
  .strict();

export const CreatorStatsSchema = z
  .object({
    wallet: AddressSchema,
    tournamentsCreated: z.number().int().min(0),
    live: z.number().int().min(0),
    completed: z.number().int().min(0),
    canceled: z.number().int().min(0),
    totalEntries: z.number().int().min(0),
    uniquePlayers: z.number().int().min(0),
    prizePools: AmountsByAssetSchema,
    bond: BondSchema,
  })
  .strict();

export const UserStatsSchema = z
  .object({
    wallet: AddressSchema,
    tournamentsEntered: z.number().int().min(0),
    wins: z.number().int().min(0),
    stagesPlayed: z.number().int().min(0),
    points: z.number().int().min(0),
    bestRank: z.number().int().min(1).nullable(),
    picks: z
      .object({
        total: z.number().int().min(0),
        won: z.number().int().min(0),
        lost: z.number().int().min(0),
        void: z.number().int().min(0),
        open: z.number().int().min(0),
      })
      .strict(),
    chipsStaked: z.number().int().min(0),
    chipsReturned: z.number().int().min(0),
    deposited: AmountsByAssetSchema,
  })
  .strict();

export const GlobalLeaderboardQuerySchema = z.object({ limit, offset }).strict();

export const GlobalLeaderboardSchema = z
  .object({
    leaderboard: z.array(
      z
        .object({
          rank: z.number().int().min(1),
          wallet: AddressSchema,
          username: z.string().nullable(),
          avatarUrl: z.string().nullable(),
          tournamentsPlayed: z.number().int().min(0),
          wins: z.number().int().min(0),
          points: z.number().int().min(0),
          stagesPlayed: z.number().int().min(0),
        })
        .strict(),
    ),
    total: z.number().int().min(0),
  })
  .strict();

export const PlatformAggregateSchema = z
  .object({
    tournaments: z
      .object({
        total: z.number().int().min(0),
        live: z.number().int().min(0),
        completed: z.number().int().min(0),
        canceled: z.number().int().min(0),
      })
      .strict(),
    entries: z.number().int().min(0),
    players: z.number().int().min(0),
    creators: z.number().int().min(0),
    picks: z.number().int().min(0),
    prizePools: AmountsByAssetSchema,
  })
  .strict();

export const ByWalletQuerySchema = z.object({ limit, offset }).strict();

export const ByWalletResponseSchema = z
  .object({
    wallet: AddressSchema,
    tournaments: z.array(
      TournamentSchema.extend({
        role: z.enum(['creator', 'entrant']).describe('creator: created it (and holds an entry)'),
      }).strict(),
    ),
    total: z.number().int().min(0),
  })
  .strict();
