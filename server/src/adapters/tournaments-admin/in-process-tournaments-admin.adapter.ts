import { adminDecider, type CancellationService } from '../../areas/tournaments/tournament-cancellation.service.js';
import { statusesOf } from '../../areas/tournaments/tournament-read.service.js';
import type { TournamentsAdminPort } from './tournaments-admin.port.js';

const CLOSED = { state: 'closed', consecutiveFailures: 0, openUntil: null } as const;

/** Both hosts in one process: the tournaments area's services, called directly. */
export class InProcessTournamentsAdmin implements TournamentsAdminPort {
  readonly mode = 'in-process' as const;
  readonly url = null;
  readonly credentialConfigured = false;

  constructor(private readonly cancellations: CancellationService) {}

  breaker() {
    return CLOSED;
  }

  async ping(): Promise<void> {
    await this.cancellations.requests({}, 1, 0);
  }

  cancelRequests: TournamentsAdminPort['cancelRequests'] = (q) =>
    this.cancellations.requests(
      { ...(q.status ? { status: q.status } : {}), ...(q.tournamentId ? { tournamentId: q.tournamentId } : {}) },
      q.limit,
      q.offset,
    );

  tournaments: TournamentsAdminPort['tournaments'] = (q) => {
    const statuses = statusesOf(q.status);
    return this.cancellations.adminList(
      { ...(statuses ? { statuses } : {}), removable: q.removable },
      q.limit,
      q.offset,
    );
  };

  cancel: TournamentsAdminPort['cancel'] = (admin, id, reason) =>
    this.cancellations.cancel(adminDecider(admin.adminId), id, reason);

  discard: TournamentsAdminPort['discard'] = (admin, id, reason) =>
    this.cancellations.discard(adminDecider(admin.adminId), id, reason);

  rejectCancelRequest: TournamentsAdminPort['rejectCancelRequest'] = (admin, requestId, reason) =>
    this.cancellations.reject(adminDecider(admin.adminId), requestId, reason);
}
