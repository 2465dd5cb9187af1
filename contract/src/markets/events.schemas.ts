import { z } from 'zod';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  DuelIdSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';
import { DuelStatusSchema } from './duels.schemas.js';

/**
 * The catalogue of outbound events (docs/events.md). Every event is written in the same database
 * transaction as the state change it describes, and reaches builders through signed webhooks and
 * the event stream. An event's `data` is a snapshot of the resource right after the change.
 * `version` is the version of the type's `data` schema: a field is only ever added within a
 * version; a removal or a change of meaning comes as the next version.
 */
export const EVENT_VERSION = 1;

/** A market right after the change an event describes. */
export const DuelSnapshotSchema = z
  .object({
    duelId: DuelIdSchema,
    status: DuelStatusSchema,
    chainState: z.enum(['pending', 'confirmed', 'failed']),
    isPrivate: z.boolean(),
    question: z.string(),
    options: z.array(z.string()),
    winningOptionIndex: z.number().int().nullable(),
    poolBalances: z.array(AmountSchema).describe('pool balance per option, base units'),
    totalVolume: AmountSchema,
    uniqueParticipants: z.number().int(),
    yesBps: z.number().int().min(0).max(10_000).describe('price of option 0 in basis points'),
    endTime: TimestampSchema,
    resolvedAt: TimestampSchema.nullable(),
    contestEndsAt: TimestampSchema.nullable(),
  })
  .strict();
export type DuelSnapshot = z.infer<typeof DuelSnapshotSchema>;

/** A trade the chain confirmed (a buy or a sale), with the market's price after it. */
export const BetSnapshotSchema = z
  .object({
    duelId: DuelIdSchema,
    txHash: TxHashSchema,
    logIndex: z.number().int().nonnegative(),
    trader: AddressSchema,
    side: z.enum(['buy', 'sell']),
    optionIndex: z.number().int().nonnegative(),
    collateral: AmountSchema.describe('stake (buy) or return (sell), base units'),
    fee: AmountSchema,
    shares: AmountSchema,
    poolBalances: z.array(AmountSchema),
    yesBps: z.number().int().min(0).max(10_000),
  })
  .strict();
export type BetSnapshot = z.infer<typeof BetSnapshotSchema>;

/** A trade the server accepted whose transaction reverted or could never be mined. */
export const BetFailureSnapshotSchema = z
  .object({
    duelId: DuelIdSchema,
    txHash: TxHashSchema,
    trader: AddressSchema,
    side: z.enum(['buy', 'sell']),
    optionIndex: z.number().int().nonnegative().nullable(),
    outcome: z.enum(['reverted', 'failed']),
    reason: z.string(),
  })
  .strict();
export type BetFailureSnapshot = z.infer<typeof BetFailureSnapshotSchema>;

/** A contest filed against a market's resolution; the participant's address is never shown. */
export const ContestSnapshotSchema = z
  .object({
    duel: DuelSnapshotSchema,
    proposedOptionIndex: z.number().int().nonnegative().nullable(),
    contests: z.number().int().positive().describe('contests filed on the market so far, this one included'),
  })
  .strict();
export type ContestSnapshot = z.infer<typeof ContestSnapshotSchema>;

/** A participant of a settled market may claim their payout (a pull claim, or the payout job pays it). */
export const PayoutClaimableSnapshotSchema = z
  .object({
    duelId: DuelIdSchema,
    account: AddressSchema.describe('the managed address owed the payout'),
    isCreator: z.boolean().describe('the account created the market (its fee share is paid with the payout)'),
    winningOptionIndex: z.number().int().nonnegative().nullable(),
    collateralStack: CollateralStackSchema,
  })
  .strict();
export type PayoutClaimableSnapshot = z.infer<typeof PayoutClaimableSnapshotSchema>;

/** A bridge deposit credited to a user's managed address. */
export const DepositCreditedSnapshotSchema = z
  .object({
    depositId: z.string().describe("the bridge provider's event id of the deposit"),
    account: AddressSchema.describe('the managed address credited'),
    collateralStack: CollateralStackSchema,
    amount: AmountSchema.describe('base units'),
    txHash: TxHashSchema.describe('the transaction that credits it'),
  })
  .strict();
export type DepositCreditedSnapshot = z.infer<typeof DepositCreditedSnapshotSchema>;

/** A stage (a round) of a tournament settled: its results are final and the next stage may proceed. */
export const TournamentStageSettledSnapshotSchema = z
  .object({
    tournamentId: z.string(),
    stageId: z.string().uuid(),
    stageIndex: z.number().int().nonnegative(),
    stageName: z.string(),
    mode: z.enum(['auto', 'force']).describe('`auto` when every blocker cleared, `force` when an admin settled it'),
    settledAt: TimestampSchema,
  })
  .strict();
export type TournamentStageSettledSnapshot = z.infer<typeof TournamentStageSettledSnapshotSchema>;

/** What a test delivery carries (POST …/webhooks/endpoints/{endpointId}/test). */
export const WebhookTestSnapshotSchema = z.object({ endpointId: z.string().uuid(), message: z.string() }).strict();

/** Every event type: its data schema and what it means. */
export const EVENT_CATALOGUE = {
  'duel.confirmed': { data: DuelSnapshotSchema, description: 'The chain confirmed a market the API accepted.' },
  'duel.closed': { data: DuelSnapshotSchema, description: 'A market reached its end time and awaits resolution.' },
  'duel.resolved': {
    data: DuelSnapshotSchema,
    description: 'The creator resolved a market; participants may contest until contestEndsAt.',
  },
  'duel.contest_opened': {
    data: ContestSnapshotSchema,
    description: 'A participant contested the resolution of a market.',
  },
  'duel.settled': { data: DuelSnapshotSchema, description: 'A market settled with its final outcome.' },
  'duel.cancelled': { data: DuelSnapshotSchema, description: 'A market was cancelled; refunds follow.' },
  'bet.confirmed': { data: BetSnapshotSchema, description: 'The chain confirmed a buy or a sale.' },
  'bet.failed': {
    data: BetFailureSnapshotSchema,
    description: 'A buy or sale the API accepted reverted on chain or could never be mined.',
  },
  'payout.claimable': {
    data: PayoutClaimableSnapshotSchema,
    description: 'A participant of a settled market can claim their payout (one event per market and account).',
  },
  'deposit.credited': {
    data: DepositCreditedSnapshotSchema,
    description: 'A bridge deposit was credited to a user’s managed address.',
  },
  'tournament.stage_settled': {
    data: TournamentStageSettledSnapshotSchema,
    description: 'A stage (round) of a tournament settled; the next stage may proceed.',
  },
  'webhook.test': {
    data: WebhookTestSnapshotSchema,
    description: 'Sent by the test-send route to one endpoint only; never on the stream.',
  },
} as const;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as [EventType, ...EventType[]];
export const EventTypeSchema = z.enum(EVENT_TYPES).describe('an event type of the catalogue (docs/events.md)');

function envelope<T extends EventType>(type: T) {
  return z
    .object({
      id: z.string().uuid().describe('unique per event; deliveries of one event share it (deduplicate on it)'),
      seq: z
        .string()
        .regex(/^\d+$/)
        .nullable()
        .describe("the event's position in the event log, the stream's Last-Event-ID; null on `webhook.test`"),
      type: z.literal(type),
      version: z.literal(EVENT_VERSION),
      createdAt: TimestampSchema,
      builderAppId: z.string().uuid(),
      data: EVENT_CATALOGUE[type].data,
    })
    .strict();
}

export const DuelkitEventSchema = z.discriminatedUnion('type', [
  envelope('duel.confirmed'),
  envelope('duel.closed'),
  envelope('duel.resolved'),
  envelope('duel.contest_opened'),
  envelope('duel.settled'),
  envelope('duel.cancelled'),
  envelope('bet.confirmed'),
  envelope('bet.failed'),
  envelope('payout.claimable'),
  envelope('deposit.credited'),
  envelope('tournament.stage_settled'),
  envelope('webhook.test'),
]);
export type DuelkitEvent = z.infer<typeof DuelkitEventSchema>;

/** Event types a stream can carry (`webhook.test` goes to one endpoint only, never on a stream). */
const STREAM_TYPES = EVENT_TYPES.filter((t) => t !== 'webhook.test');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TYPE_PATTERN = `(${STREAM_TYPES.map(escape).join('|')})`;
const DUEL_ID_PATTERN = '0x[0-9a-fA-F]{64}';

/** The query of both event streams (docs/events.md). */
export const EventStreamQuerySchema = z
  .object({
    types: z
      .string()
      .regex(new RegExp(`^${TYPE_PATTERN}(,${TYPE_PATTERN})*$`), 'comma-separated event types of the catalogue')
      .optional()
      .describe('only these event types, comma-separated (e.g. `bet.confirmed,duel.settled`); every type when absent'),
    duelIds: z
      .string()
      .regex(new RegExp(`^${DUEL_ID_PATTERN}(,${DUEL_ID_PATTERN}){0,99}$`), 'up to 100 comma-separated market ids')
      .optional()
      .describe('only events of these markets (up to 100 ids, comma-separated)'),
    prices: z
      .enum(['true', 'false'])
      .optional()
      .describe('`true` also sends the coalesced price channel (`event: price`, at most 2 updates/s per market)'),
    lastEventId: z
      .string()
      .regex(/^\d{1,19}$/, 'the seq of an event')
      .optional()
      .describe('resume after this `seq`, for clients that cannot send the `Last-Event-ID` header'),
  })
  .strict();
export type EventStreamQuery = z.infer<typeof EventStreamQuerySchema>;

/** The headers both event streams read. */
export const EventStreamHeadersSchema = z.object({
  'last-event-id': z
    .string()
    .regex(/^\d{1,19}$/, 'the seq of an event')
    .optional()
    .describe('resume after this `seq` (what EventSource sends on a reconnect); wins over `lastEventId`'),
});

/** What a stream answers: Server-Sent Events, one message per event (docs/events.md). */
export const EventStreamBodySchema = z
  .string()
  .describe(
    'Server-Sent Events: `retry: 2000` first, then per event `id: <seq>`, `event: <type>` and `data: <the event ' +
      'envelope as JSON>`; with `prices=true` also `event: price` messages without an id (`data: { duelId, yesBps, ' +
      'poolBalances, seq }`); a `: heartbeat` comment every 15 s.',
  );
