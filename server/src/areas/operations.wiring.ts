import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PushProviderPort } from '../adapters/notifications/push-provider.port.js';
import type { CommentaryGeneratorPort, MatchFactsPort } from '../adapters/commentary/commentary.port.js';
import type { Config } from '../config.js';
import type { Clock } from '../platform/clock.js';
import type { Orm } from '../platform/db/orm.js';
import type { JobEngine } from '../platform/jobs/job-engine.js';
import { CommentaryService } from './commentary/commentary.service.js';
import { NotificationAdminService } from './notifications/notification-admin.service.js';
import { NotificationRepository } from './notifications/notification.repository.js';
import { PrematchService } from './notifications/prematch.service.js';
import { PushService } from './notifications/push.service.js';
import { PlatformInviteGate } from './platform-invites/platform-invite.gate.js';
import { PlatformInviteRepository } from './platform-invites/platform-invite.repository.js';
import { PlatformInviteService } from './platform-invites/platform-invite.service.js';
import { PlatformRequestRepository } from './reports/platform-request.repository.js';
import { PlatformRequestService } from './reports/platform-request.service.js';
import { ReportRepository } from './reports/report.repository.js';
import { ReportService } from './reports/report.service.js';
import { ArchiveStore } from './stream-migration/archive.store.js';
import { MigrationRepository } from './stream-migration/migration.repository.js';
import { StreamMigrationService } from './stream-migration/stream-migration.service.js';
import type { SignUpGate } from './identity/sign-up.gate.js';
import { PLATFORM_INVITE_BULK_MAX } from '@duelkit/contract';

export const OPERATIONS_QUEUE = 'operations';

/** The operations area as the container wires it (docs/operations.md). */
export interface Operations {
  readonly invites: PlatformInviteService;
  readonly signUpGate: SignUpGate;
  readonly reports: ReportService;
  readonly requests: PlatformRequestService;
  readonly push: PushService;
  readonly prematch: PrematchService;
  readonly notificationsAdmin: NotificationAdminService;
  readonly commentary: CommentaryService;
  readonly migration: StreamMigrationService;
  /** Schedules the pre-match cycle and the PnL snapshots and runs migration jobs on the job engine. */
  attach(jobs: JobEngine): Promise<void>;
}

export function createOperations(deps: {
  orm: Orm;
  config: Config;
  clock: Clock;
  /** The real push providers of PUSH_PROVIDERS, and the local outbox that stands in when there are none. */
  pushProviders: readonly PushProviderPort[];
  outbox: PushProviderPort;
  matchFacts: MatchFactsPort;
  commentary: CommentaryGeneratorPort;
}): Operations {
  const { orm, config, clock } = deps;
  const inviteRepo = new PlatformInviteRepository(orm);
  const invites = new PlatformInviteService(inviteRepo, {
    bulkMax: PLATFORM_INVITE_BULK_MAX,
    inviteOnly: config.operations.inviteOnly,
  });
  const notificationRepo = new NotificationRepository(orm);
  const push = new PushService(notificationRepo, deps.pushProviders, deps.outbox, clock);
  const prematch = new PrematchService(notificationRepo, push, config.operations.prematch);
  const requests = new PlatformRequestService(new PlatformRequestRepository(orm));
  const dir =
    config.operations.migrationDir ??
    (config.database.dataDir
      ? join(config.database.dataDir, 'stream-migration')
      : mkdtempSync(join(tmpdir(), 'duelkit-stream-migration-')));
  const migration = new StreamMigrationService(
    new MigrationRepository(orm),
    new ArchiveStore(dir),
    () => new Date(clock.now()),
  );
  return {
    invites,
    signUpGate: new PlatformInviteGate(invites, inviteRepo),
    reports: new ReportService(new ReportRepository(orm)),
    requests,
    push,
    prematch,
    notificationsAdmin: new NotificationAdminService(notificationRepo, push, prematch),
    commentary: new CommentaryService(deps.matchFacts, deps.commentary),
    migration,
    async attach(jobs) {
      await jobs.every(OPERATIONS_QUEUE, 'prematch-cycle', config.operations.prematch.intervalMs, {});
      await jobs.every(OPERATIONS_QUEUE, 'pnl-snapshots', 6 * 3_600_000, {});
      migration.useRunner(async (jobId) => {
        await jobs.add(OPERATIONS_QUEUE, 'stream-migration', { jobId }, { jobId: `stream-migration_${jobId}` });
      });
      jobs.work<{ jobId?: string }>({
        queue: OPERATIONS_QUEUE,
        handler: async (data, job) => {
          const now = new Date(clock.now());
          if (job.name === 'prematch-cycle') await prematch.run(now);
          else if (job.name === 'pnl-snapshots') await requests.snapshotPnl(now);
          else if (job.name === 'stream-migration' && data.jobId) await migration.execute(data.jobId);
        },
      });
    },
  };
}
