import { z } from 'zod';
import { AddressSchema, AmountSchema, TimestampSchema } from '../common/primitives.js';
import { PageQuerySchema, PayoutTierSchema } from './tournaments-io.schemas.js';
import {
  ChipBalanceSchema,
  ChipsSchema,
  FixtureSchema,
  LeaderboardRowSchema,
  MatchSchema,
  OddsSchema,
  PickOutcomeSchema,
  PickSchema,
  StageStatusSchema,
  StandingSchema,
  TournamentFormatSchema,
  TournamentIdSchema,
} from './tournaments.schemas.js';

/* Answers of the play routes: fixtures, odds, standings, groups, picks, the bracket, rules, leaderboard. */

export const FixturesResponseSchema = z
  .object({ tournamentId: TournamentIdSchema, stageId: z.string().uuid(), fixtures: z.array(FixtureSchema) })
  .strict();

export const StageOddsSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    odds: z.array(
      z
        .object({
          fixtureId: z.string().uuid(),
          providerFixtureId: z.number().int(),
          title: z.string(),
          lockTime: TimestampSchema,
          locked: z.boolean(),
          odds: OddsSchema,
        })
        .strict(),
    ),
  })
  .strict();

export const StandingsResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    stageIndex: z.number().int().min(1),
    status: StageStatusSchema,
    final: z.boolean().describe('Every result is in: these standings no longer change'),
    standings: z.array(StandingSchema),
    total: z.number().int().min(0),
  })
  .strict();

export const GroupsResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    stageIndex: z.number().int().min(1),
    final: z.boolean(),
    advancePerGroup: z.number().int().min(0).describe('0 on a knockout stage, which has no groups'),
    groups: z.array(
      z
        .object({
          label: z.string(),
          members: z.array(
            z
              .object({
                position: z.number().int().min(1),
                wallet: AddressSchema,
                username: z.string().nullable(),
                seed: z.number().int().min(1),
                chips: ChipsSchema,
                advancing: z.boolean().describe('Inside the qualifying places (provisional until final)'),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
  })
  .strict();

export const PicksQuerySchema = PageQuerySchema.extend({
  wallet: AddressSchema.optional().describe('Only this wallet’s picks'),
}).strict();

export const PicksResponseSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    stageId: z.string().uuid(),
    picks: z.array(PickSchema),
    total: z.number().int().min(0),
    hidden: z.number().int().min(0).describe('Other players’ picks on fixtures not locked yet: shown after lock'),
  })
  .strict();

export const CreatePickRequestSchema = z
  .object({
    fixtureId: z.string().uuid(),
    outcome: PickOutcomeSchema,
    stake: z.number().int().min(1).max(1_000_000_000).describe('Chips to stake'),
  })
  .strict();

export const CreatePickResponseSchema = z.object({ pick: PickSchema, chips: ChipBalanceSchema }).strict();

export const DeletePickResponseSchema = z
  .object({ deleted: z.literal(true), pickId: z.string().uuid(), refunded: ChipsSchema, chips: ChipBalanceSchema })
  .strict();

export const BracketSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    format: TournamentFormatSchema,
    bracketSize: z.number().int().min(2),
    rounds: z.array(
      z
        .object({
          stageIndex: z.number().int().min(1),
          stageId: z.string().uuid(),
          name: z.string(),
          status: StageStatusSchema,
          drawn: z.boolean().describe('false until the stage before is complete: sides unknown'),
          matches: z.array(MatchSchema),
        })
        .strict(),
    ),
    championWallet: AddressSchema.nullable(),
  })
  .strict();

export const BracketStatusSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    roundsTotal: z.number().int().min(1),
    roundsCompleted: z.number().int().min(0),
    currentRound: z.number().int().min(1).nullable().describe('Stage index of the round being played'),
    playersRemaining: z.number().int().min(0),
    championWallet: AddressSchema.nullable(),
    finished: z.boolean(),
    nextLockTime: TimestampSchema.nullable(),
  })
  .strict();

export const FormatInfoSchema = z
  .object({
    tournamentId: TournamentIdSchema,
    format: TournamentFormatSchema,
    description: z.string(),
    rules: z.array(z.string()),
    tieBreakers: z.array(z.string()),
    totalStages: z.number().int().min(1),
    bracketSize: z.number().int().min(2),
    groupSize: z.number().int().min(2).nullable(),
    advancePerGroup: z.number().int().min(1).nullable(),
    chipsPerStage: z.number().int().min(1),
    stages: z.array(
      z
        .object({
          stageIndex: z.number().int().min(1),
          stageName: z.string(),
          kind: z.enum(['GROUP', 'KNOCKOUT']),
          chips: ChipsSchema,
          multiplier: z.number().int().min(1),
          buyinUsdc: AmountSchema,
          maxPlayers: z.number().int().min(1),
        })
        .strict(),
    ),
    payout: z.array(PayoutTierSchema.omit({ amountEach: true })),
  })
  .strict();

export const LeaderboardResponseSchema = z
  .object({ tournamentId: TournamentIdSchema, leaderboard: z.array(LeaderboardRowSchema), total: z.number().int() })
  .strict();
