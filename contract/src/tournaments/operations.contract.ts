import { z } from 'zod';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  CommentarySchema,
  CommentaryTestRequestSchema,
  DeviceSchema,
  MigrationExportRequestSchema,
  MigrationImportRequestSchema,
  MigrationJobPageSchema,
  MigrationJobSchema,
  MigrationJobsQuerySchema,
  MigrationStatusQuerySchema,
  NotificationDiagnosticsSchema,
  PrematchRunSchema,
  PushDiagnosticSchema,
  PushTestRequestSchema,
  PushTestResultSchema,
  RegisterDeviceSchema,
  TestPushRequestSchema,
  TestPushResultSchema,
} from './operations.schemas.js';

const tag = 'Operations admin';

/** §4.17 stream migration: the tournaments host's state as a versioned archive (docs/operations.md). */
export const streamMigrationContract = c.router({
  export: {
    method: 'POST',
    path: '/svc/admin/stream-migration/export',
    body: MigrationExportRequestSchema,
    responses: { 200: MigrationJobSchema },
    summary: 'Export the tournaments host’s state as a versioned archive, as a durable job',
    description:
      'Answers the queued job; `status` and `jobs` follow it. The archive (NDJSON per table, a manifest with row ' +
      'counts and SHA-256 checksums) is written to STREAM_MIGRATION_DIR under the job’s `archiveId`. Send an ' +
      'Idempotency-Key: a replay answers the same job.',
    metadata: meta(tag, '4.17', 'admin', { idempotent: true }),
  },
  import: {
    method: 'POST',
    path: '/svc/admin/stream-migration/import',
    body: MigrationImportRequestSchema,
    responses: { 200: MigrationJobSchema },
    summary: 'Load an archive into this deployment, in one transaction or not at all, as a durable job',
    description:
      'The archive is checked before the job is queued: ARCHIVE_NOT_FOUND (404), ARCHIVE_VERSION_UNSUPPORTED and ' +
      'ARCHIVE_CORRUPT (422, `details.reason`, `details.table`) for a manifest, count or checksum that does not ' +
      'match; IMPORT_TARGET_NOT_EMPTY (409) when the tournaments tables already hold rows. A foreign key the ' +
      'archive breaks fails the job (ARCHIVE_CORRUPT, nothing written). Send an Idempotency-Key.',
    metadata: meta(tag, '4.17', 'admin', { idempotent: true }),
  },
  status: {
    method: 'GET',
    path: '/svc/admin/stream-migration/status',
    query: MigrationStatusQuerySchema,
    responses: { 200: MigrationJobSchema },
    summary: 'One migration job (or the latest): progress, counts per table and the error, if any',
    description: 'NOT_FOUND (404) for an unknown `jobId`, or when no job ever ran.',
    metadata: meta(tag, '4.17', 'admin'),
  },
  jobs: {
    method: 'GET',
    path: '/svc/admin/stream-migration/jobs',
    query: MigrationJobsQuerySchema,
    responses: { 200: MigrationJobPageSchema },
    summary: 'Every export and import job, newest first',
    description: 'Filter by kind.',
    metadata: meta(tag, '4.17', 'admin'),
  },
});

/** §4.17 commentary: the text the commentary port writes for a fixture (docs/operations.md). */
export const commentaryContract = c.router({
  test: {
    method: 'POST',
    path: '/svc/admin/commentary/test',
    body: CommentaryTestRequestSchema,
    responses: { 200: CommentarySchema },
    summary: 'Generate the commentary of a fixture from its events (goals, cards, result) and show it',
    description:
      'Reads the fixture and its events from the sports provider. NOT_FOUND (404) for a fixture the provider does ' +
      'not have; UPSTREAM_* when the provider fails. Writes nothing.',
    metadata: meta(tag, '4.17', 'admin', { repeatable: true }),
  },
});

/** §4.17 push: provider configuration and a direct test send (docs/operations.md, "Notifications"). */
export const pushAdminContract = c.router({
  test: {
    method: 'POST',
    path: '/svc/admin/push/test',
    body: PushTestRequestSchema,
    responses: { 200: PushTestResultSchema },
    summary: 'Send one push straight to a token through a provider and show the provider’s answer',
    description:
      'The delivery is recorded like every other (with the provider’s answer); a token the provider says is ' +
      'invalid is pruned from every device that has it. PUSH_PROVIDER_NOT_CONFIGURED (503) for a provider this ' +
      'deployment has no credentials for.',
    metadata: meta(tag, '4.17', 'admin', { repeatable: true }),
  },
  diagnostic: {
    method: 'GET',
    path: '/svc/admin/push/diagnostic',
    responses: { 200: PushDiagnosticSchema },
    summary: 'Push configuration, devices, and the recent deliveries and failures with their reasons',
    description: 'What to read when a push did not arrive.',
    metadata: meta(tag, '4.17', 'admin'),
  },
});

/** §4.17 user notifications: the pre-match cycle, a test through the outbox and diagnostics. */
export const notificationsAdminContract = c.router({
  runPrematchCycle: {
    method: 'POST',
    path: '/user/admin/notifications/run-prematch-cycle',
    body: z.object({}).strict().optional().default({}),
    responses: { 200: PrematchRunSchema },
    summary: 'Run the pre-match reminder cycle now (it also runs by itself every PREMATCH_INTERVAL_MS)',
    description:
      'Notifies each user with a pick or an entry in a fixture starting within PREMATCH_WINDOW_MINUTES, once per ' +
      'user and fixture whatever the number of runs or instances (a unique key in the database).',
    metadata: meta(tag, '4.17', 'admin', { repeatable: true }),
  },
  testPush: {
    method: 'POST',
    path: '/user/admin/notifications/test-push',
    body: TestPushRequestSchema,
    responses: { 200: TestPushResultSchema },
    summary: 'Send a user a notification through the outbox, as production does, and show each delivery',
    description: 'NOT_FOUND (404) for an unknown user. Every call sends a new notification.',
    metadata: meta(tag, '4.17', 'admin', { idempotent: true }),
  },
  diagnostics: {
    method: 'GET',
    path: '/user/admin/notifications/diagnostics',
    responses: { 200: NotificationDiagnosticsSchema },
    summary: 'Queue depth, the pre-match cycle, recent deliveries and failures with their reasons',
    description: 'What to read when a notification did not arrive.',
    metadata: meta(tag, '4.17', 'admin'),
  },
});

const extension =
  'Documented extension (docs/operations.md, "Notifications"): push needs a device to reach, and the spec lists no ' +
  'route that registers one.';

/** A user's devices for push notifications (documented extension). */
export const devicesContract = c.router({
  register: {
    method: 'POST',
    path: '/user/notifications/devices',
    body: RegisterDeviceSchema,
    responses: { 201: DeviceSchema },
    summary: 'Register this device for the signed-in user’s push notifications',
    description:
      `${extension} Registering a token again answers the same device (moved to this user if another had it). ` +
      'VALIDATION_FAILED for a token that is not an Expo push token or a Web Push subscription.',
    metadata: meta('Notifications', '4.17', 'bearer', { repeatable: true, extension: true }),
  },
  unregister: {
    method: 'DELETE',
    path: '/user/notifications/devices/:deviceId',
    pathParams: z.object({ deviceId: z.string().uuid() }).strict(),
    body: null,
    responses: { 200: z.object({ deviceId: z.string().uuid(), removed: z.boolean() }).strict() },
    summary: 'Stop pushing to a device',
    description: `${extension} NOT_FOUND (404) for a device that is not yours.`,
    metadata: meta('Notifications', '4.17', 'bearer', { repeatable: true, extension: true }),
  },
});
