import type { Logger } from '../../logger.js';
import type { NotificationsPort, UserNotification } from './notifications.port.js';

/**
 * The embedded default (and tests): keeps what it was asked to deliver, newest last, and logs it.
 * There is no push provider adapter yet; production uses this too (docs/money.md).
 */
export class MemoryNotificationsAdapter implements NotificationsPort {
  readonly name = 'memory';
  readonly delivered: UserNotification[] = [];

  constructor(private readonly logger?: Logger) {}

  send(n: UserNotification): Promise<void> {
    this.delivered.push(n);
    if (this.delivered.length > 1_000) this.delivered.shift();
    this.logger?.info({ notificationId: n.id, userId: n.userId, kind: n.kind }, 'notification delivered');
    return Promise.resolve();
  }
}
