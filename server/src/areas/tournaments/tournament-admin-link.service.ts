import type {
  ActingAdmin,
  AdminTournamentQuery,
  CancelRequestQuery,
} from '../../adapters/tournaments-admin/tournaments-admin.port.js';
import { adminDecider, type CancellationService } from './tournament-cancellation.service.js';
import { statusesOf } from './tournament-read.service.js';

/**
 * The tournaments side of the markets host's admin link (§4.16 parlay-tournaments): what the
 * in-process adapter answers and what the tournaments host's internal admin routes serve, so both
 * paths answer alike.
 */
export class TournamentAdminLinkService {
  constructor(private readonly cancellations: CancellationService) {}

  /** Resolves when the tournaments side can answer (one row read). */
  async ping(): Promise<void> {
    await this.cancellations.requests({}, 1, 0);
  }

  cancelRequests(q: CancelRequestQuery) {
    return this.cancellations.requests(
      { ...(q.status ? { status: q.status } : {}), ...(q.tournamentId ? { tournamentId: q.tournamentId } : {}) },
      q.limit,
      q.offset,
    );
  }

  tournaments(q: AdminTournamentQuery) {
    const statuses = statusesOf(q.status);
    return this.cancellations.adminList(
      { ...(statuses ? { statuses } : {}), removable: q.removable },
      q.limit,
      q.offset,
    );
  }

  cancel(admin: ActingAdmin, id: string, reason: string) {
    return this.cancellations.cancel(adminDecider(admin.adminId), id, reason);
  }

  discard(admin: ActingAdmin, id: string, reason: string | undefined) {
    return this.cancellations.discard(adminDecider(admin.adminId), id, reason);
  }

  rejectCancelRequest(admin: ActingAdmin, requestId: string, reason: string) {
    return this.cancellations.reject(adminDecider(admin.adminId), requestId, reason);
  }
}
