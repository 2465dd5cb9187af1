import { z } from 'zod';
import { paginated, PaginationQuerySchema } from '../common/pagination.js';
import { TimestampSchema } from '../common/primitives.js';

/** The archive format this server writes and reads. */
export const MIGRATION_FORMAT_VERSION = 1;

export const MigrationJobSchema = z
  .object({
    id: z.string().uuid(),
    kind: z.enum(['export', 'import']),
    status: z.enum(['queued', 'running', 'succeeded', 'failed']),
    archiveId: z.string().describe('The archive written (export) or read (import)'),
    formatVersion: z.number().int(),
    tables: z
      .array(z.object({ table: z.string(), rows: z.number().int().min(0) }).strict())
      .describe('Rows per table written or loaded so far'),
    rowsDone: z.number().int().min(0),
    error: z.object({ code: z.string(), message: z.string() }).strict().nullable(),
    requestedBy: z.string(),
    createdAt: TimestampSchema,
    startedAt: TimestampSchema.nullable(),
    finishedAt: TimestampSchema.nullable(),
  })
  .strict();

export const MigrationExportRequestSchema = z
  .object({ note: z.string().max(200).optional() })
  .strict()
  .optional()
  .default({});

export const MigrationImportRequestSchema = z
  .object({
    archiveId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/)
      .describe('An archive in this deployment’s STREAM_MIGRATION_DIR (copied there from the exporting one)'),
  })
  .strict();

export const MigrationStatusQuerySchema = z.object({ jobId: z.string().uuid().optional() }).strict();
export const MigrationJobsQuerySchema = PaginationQuerySchema.extend({
  kind: z.enum(['export', 'import']).optional(),
}).strict();
export const MigrationJobPageSchema = paginated(MigrationJobSchema);

export const CommentaryTestRequestSchema = z
  .object({ fixtureId: z.number().int().positive().describe('The sports provider’s fixture id') })
  .strict();

export const CommentaryLineSchema = z
  .object({
    minute: z.number().int().nullable(),
    kind: z.enum(['preview', 'goal', 'card', 'substitution', 'result', 'status']),
    text: z.string(),
  })
  .strict();

export const CommentarySchema = z
  .object({
    fixtureId: z.number().int(),
    generator: z.string().describe('The generator behind the commentary port (`template` by default)'),
    state: z.string(),
    lines: z.array(CommentaryLineSchema),
    text: z.string().describe('The lines joined, one per line'),
  })
  .strict();

export const PushProviderNameSchema = z.enum(['expo', 'webpush', 'outbox']);

export const PushTestRequestSchema = z
  .object({
    provider: PushProviderNameSchema,
    token: z
      .string()
      .min(1)
      .max(4_000)
      .describe('An Expo push token, or a Web Push subscription as JSON, or any token for the local outbox'),
    title: z.string().min(1).max(100).default('Duelkit test push'),
    body: z.string().min(1).max(500).default('If you can read this, push works.'),
  })
  .strict();

export const DeliverySchema = z
  .object({
    id: z.string().uuid(),
    notificationId: z.string().uuid().nullable(),
    userId: z.string().uuid().nullable(),
    deviceId: z.string().uuid().nullable(),
    provider: PushProviderNameSchema,
    kind: z.string(),
    status: z.enum(['ok', 'error']),
    error: z.string().nullable().describe('The provider’s reason (DeviceNotRegistered, 410 Gone, …)'),
    providerAnswer: z.string().nullable().describe('What the provider answered (ticket id, status)'),
    pruned: z.boolean().describe('The token was invalid and is no longer used'),
    createdAt: TimestampSchema,
  })
  .strict();

export const PushTestResultSchema = z.object({ delivery: DeliverySchema }).strict();

export const PushProviderStatusSchema = z
  .object({ name: PushProviderNameSchema, configured: z.boolean(), detail: z.string() })
  .strict();

export const PushDiagnosticSchema = z
  .object({
    providers: z.array(PushProviderStatusSchema),
    devices: z.object({ active: z.number().int(), pruned: z.number().int() }).strict(),
    deliveries24h: z.object({ ok: z.number().int(), error: z.number().int() }).strict(),
    recent: z.array(DeliverySchema).describe('The last deliveries, newest first'),
    failures: z.array(DeliverySchema).describe('The last failed deliveries, newest first'),
  })
  .strict();

export const TestPushRequestSchema = z
  .object({
    userId: z.string().uuid(),
    title: z.string().min(1).max(100).default('Duelkit test notification'),
    body: z.string().min(1).max(500).default('Sent from the admin diagnostics.'),
  })
  .strict();

export const TestPushResultSchema = z
  .object({
    notificationId: z.string().uuid(),
    deliveries: z.array(DeliverySchema).describe('One per device of the user; empty when the user has none'),
    reason: z.string().nullable().describe('Why nothing was delivered, when nothing was'),
  })
  .strict();

export const PrematchRunSchema = z
  .object({
    windowMinutes: z.number().int(),
    fixtures: z.number().int().describe('Fixtures starting within the window'),
    candidates: z.number().int().describe('(user, fixture) pairs with a pick or an entry'),
    enqueued: z.number().int().describe('Notifications recorded by this run (a pair is recorded once, ever)'),
    delivered: z.number().int(),
    ranAt: TimestampSchema,
  })
  .strict();

export const NotificationDiagnosticsSchema = z
  .object({
    outbox: z
      .object({
        pending: z.number().int().describe('Queue depth: notifications not delivered yet'),
        failing: z.number().int().describe('Pending ones whose last attempt failed'),
        delivered24h: z.number().int(),
      })
      .strict(),
    prematch: z
      .object({
        windowMinutes: z.number().int(),
        intervalMs: z.number().int(),
        lastRun: PrematchRunSchema.nullable(),
        sentTotal: z.number().int(),
      })
      .strict(),
    recent: z.array(DeliverySchema),
    failures: z.array(DeliverySchema),
    pendingSample: z
      .array(
        z
          .object({
            id: z.string().uuid(),
            userId: z.string().uuid(),
            kind: z.string(),
            attempts: z.number().int(),
            lastError: z.string().nullable(),
            createdAt: TimestampSchema,
          })
          .strict(),
      )
      .describe('The oldest pending notifications, with why their last attempt failed'),
  })
  .strict();

export const RegisterDeviceSchema = z
  .object({
    provider: z.enum(['expo', 'webpush']),
    token: z
      .string()
      .min(1)
      .max(4_000)
      .describe('`expo`: an Expo push token (ExponentPushToken[…]); `webpush`: the PushSubscription as JSON'),
    label: z.string().max(100).optional(),
  })
  .strict();

export const DeviceSchema = z
  .object({
    id: z.string().uuid(),
    provider: z.enum(['expo', 'webpush']),
    label: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .strict();
