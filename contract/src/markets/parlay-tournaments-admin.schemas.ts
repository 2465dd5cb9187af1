import { z } from 'zod';
import { AddressSchema, AmountSchema, CollateralStackSchema, TimestampSchema } from '../common/primitives.js';
import { limit, offset, StatusFilterSchema } from '../tournaments/tournaments-io.schemas.js';
import { TournamentIdSchema, TournamentStatusSchema } from '../tournaments/tournaments.schemas.js';

export const TournamentsLinkModeSchema = z
  .enum(['in-process', 'http'])
  .describe(
    'in-process: both hosts run in this process; http: the tournaments host is another process, reached over HTTP',
  );

export const BreakerStateSchema = z
  .enum(['closed', 'open', 'half-open'])
  .describe(
    'closed: calls go through; open: calls are refused at once after repeated failures; half-open: one trial call',
  );

export const ConfigStatusSchema = z
  .object({
    mode: TournamentsLinkModeSchema,
    tournamentsUrl: z.string().url().nullable().describe('Where the tournaments host is called (http mode)'),
    credentialConfigured: z.boolean().describe('Whether a service credential is set for the calls'),
    reachable: z.boolean().describe('Whether the tournaments side answered a check just now'),
    latencyMs: z.number().int().min(0).nullable(),
    checkedAt: TimestampSchema,
    breaker: z
      .object({
        state: BreakerStateSchema,
        consecutiveFailures: z.number().int().min(0),
        openUntil: TimestampSchema.nullable(),
      })
      .strict(),
    error: z.object({ code: z.string(), message: z.string() }).strict().nullable().describe('Why the check failed'),
  })
  .strict();
export type ConfigStatusDto = z.infer<typeof ConfigStatusSchema>;

export const AdminTournamentSchema = z
  .object({
    id: TournamentIdSchema,
    name: z.string(),
    status: TournamentStatusSchema,
    stakeAsset: CollateralStackSchema,
    ownerWallet: AddressSchema,
    entryCount: z.number().int().min(0),
    otherEntries: z.number().int().min(0).describe('Entries besides the creator’s'),
    minEntriesToActivate: z.number().int().min(0),
    prizePool: AmountSchema,
    startTime: TimestampSchema.describe('The first lock'),
    createdAt: TimestampSchema,
    cancelledAt: TimestampSchema.nullable(),
    cancelReason: z.string().nullable(),
    discardedAt: TimestampSchema.nullable(),
    removable: z.boolean().describe('Whether discard would accept it'),
  })
  .strict();
export type AdminTournamentDto = z.infer<typeof AdminTournamentSchema>;

export const AdminTournamentListQuerySchema = z
  .object({ status: StatusFilterSchema.optional(), limit, offset })
  .strict();

export const AdminTournamentListSchema = z
  .object({ tournaments: z.array(AdminTournamentSchema), total: z.number().int().min(0) })
  .strict();
export type AdminTournamentListDto = z.infer<typeof AdminTournamentListSchema>;
