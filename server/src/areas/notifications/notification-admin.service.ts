import { randomUUID } from 'node:crypto';
import { DomainError } from '../../errors.js';
import type { NotificationRepository } from './notification.repository.js';
import type { PrematchService } from './prematch.service.js';
import { toDelivery, type PushService } from './push.service.js';

/** The admin's view of notifications: diagnostics, and a test through the outbox (docs/operations.md). */
export class NotificationAdminService {
  constructor(
    private readonly repo: NotificationRepository,
    private readonly push: PushService,
    private readonly prematch: PrematchService,
  ) {}

  /** A new notification to `userId` recorded in the outbox and delivered now, as production does. */
  async testPush(now: Date, input: { userId: string; title: string; body: string }) {
    if (!(await this.repo.userExists(input.userId))) {
      throw new DomainError('NOT_FOUND', `No user ${input.userId}`, { details: { userId: input.userId } });
    }
    const id = await this.repo.enqueue({
      dedupeKey: `admin.test-push:${randomUUID()}`,
      userId: input.userId,
      kind: 'admin.test-push',
      title: input.title,
      body: input.body,
      data: { test: 'true' },
      now,
    });
    if (!id) throw new Error('a fresh dedupe key was taken');
    await this.push.deliverClaimed(await this.repo.claim(1, undefined, id));
    const deliveries = (await this.repo.deliveries({ notificationId: id, limit: 100 })).map(toDelivery);
    const failed = deliveries.filter((d) => d.status === 'error');
    return {
      notificationId: id,
      deliveries,
      reason: failed.length === deliveries.length ? (failed[0]?.error ?? 'nothing was delivered') : null,
    };
  }

  async pushDiagnostic(now: Date) {
    const d = await this.repo.diagnostics(now);
    return {
      providers: this.push.providerStatus(),
      devices: d.devices,
      deliveries24h: d.deliveries24h,
      recent: (await this.repo.deliveries({ limit: 20 })).map(toDelivery),
      failures: (await this.repo.deliveries({ failedOnly: true, limit: 20 })).map(toDelivery),
    };
  }

  async diagnostics(now: Date) {
    const d = await this.repo.diagnostics(now);
    return {
      outbox: d.outbox,
      prematch: {
        windowMinutes: this.prematch.windowMinutes,
        intervalMs: this.prematch.intervalMs,
        lastRun: d.lastRun
          ? {
              windowMinutes: Number(d.lastRun.window_minutes),
              fixtures: Number(d.lastRun.fixtures),
              candidates: Number(d.lastRun.candidates),
              enqueued: Number(d.lastRun.enqueued),
              delivered: Number(d.lastRun.delivered),
              ranAt: new Date(d.lastRun.ran_at).toISOString(),
            }
          : null,
        sentTotal: d.prematchSent,
      },
      recent: (await this.repo.deliveries({ limit: 20 })).map(toDelivery),
      failures: (await this.repo.deliveries({ failedOnly: true, limit: 20 })).map(toDelivery),
      pendingSample: d.pending.map((p) => ({
        id: p.id,
        userId: p.user_id,
        kind: p.kind,
        attempts: Number(p.attempts),
        lastError: p.last_error,
        createdAt: new Date(p.created_at).toISOString(),
      })),
    };
  }
}
