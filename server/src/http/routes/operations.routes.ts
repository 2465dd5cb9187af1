import { initServer } from '@ts-rest/express';
import { tournamentsContract } from '@duelkit/contract';
import type { CommentaryService } from '../../areas/commentary/commentary.service.js';
import type { NotificationAdminService } from '../../areas/notifications/notification-admin.service.js';
import type { PrematchService } from '../../areas/notifications/prematch.service.js';
import type { PushService } from '../../areas/notifications/push.service.js';
import type { StreamMigrationService } from '../../areas/stream-migration/stream-migration.service.js';
import { adminContext, userContext } from '../request-context.js';

const s = initServer();

/** The tournaments host's operations: what `container.operations` holds for it. */
export interface OperationsDeps {
  readonly migration: StreamMigrationService;
  readonly commentary: CommentaryService;
  readonly push: PushService;
  readonly prematch: PrematchService;
  readonly notificationsAdmin: NotificationAdminService;
}

/** §4.17 "other admin": stream migration, commentary, push and notifications (docs/operations.md). */
export function operationsRoutes(d: OperationsDeps) {
  return {
    streamMigration: s.router(tournamentsContract.streamMigration, {
      export: async ({ req }) => ({ status: 200, body: await d.migration.requestExport(adminContext(req)) }),
      import: async ({ body, req }) => ({
        status: 200,
        body: await d.migration.requestImport(adminContext(req), body.archiveId),
      }),
      status: async ({ query, req }) => {
        adminContext(req);
        return { status: 200, body: await d.migration.status(query.jobId) };
      },
      jobs: async ({ query, req }) => {
        adminContext(req);
        return { status: 200, body: await d.migration.jobs(query) };
      },
    }),
    commentary: s.router(tournamentsContract.commentary, {
      test: async ({ body, req }) => {
        adminContext(req);
        return { status: 200, body: await d.commentary.forFixture(body.fixtureId) };
      },
    }),
    pushAdmin: s.router(tournamentsContract.pushAdmin, {
      test: async ({ body, req }) => {
        adminContext(req);
        return { status: 200, body: await d.push.test(body) };
      },
      diagnostic: async ({ req }) => ({
        status: 200,
        body: await d.notificationsAdmin.pushDiagnostic(adminContext(req).now),
      }),
    }),
    notificationsAdmin: s.router(tournamentsContract.notificationsAdmin, {
      runPrematchCycle: async ({ req }) => ({ status: 200, body: await d.prematch.run(adminContext(req).now) }),
      testPush: async ({ body, req }) => ({
        status: 200,
        body: await d.notificationsAdmin.testPush(adminContext(req).now, body),
      }),
      diagnostics: async ({ req }) => ({
        status: 200,
        body: await d.notificationsAdmin.diagnostics(adminContext(req).now),
      }),
    }),
    devices: s.router(tournamentsContract.devices, {
      register: async ({ body, req }) => ({
        status: 201,
        body: await d.push.registerDevice(userContext(req).userId, body),
      }),
      unregister: async ({ params, req }) => ({
        status: 200,
        body: await d.push.unregisterDevice(userContext(req).userId, params.deviceId),
      }),
    }),
  };
}
