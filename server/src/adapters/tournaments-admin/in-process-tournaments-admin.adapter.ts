import type { TournamentAdminLinkService } from '../../areas/tournaments/tournament-admin-link.service.js';
import type { TournamentsAdminPort } from './tournaments-admin.port.js';

const CLOSED = { state: 'closed', consecutiveFailures: 0, openUntil: null } as const;

/** Both hosts in one process: the tournaments area's services, called directly. */
export class InProcessTournamentsAdmin implements TournamentsAdminPort {
  readonly mode = 'in-process' as const;
  readonly url = null;
  readonly credentialConfigured = false;

  constructor(private readonly link: TournamentAdminLinkService) {}

  breaker() {
    return CLOSED;
  }

  ping: TournamentsAdminPort['ping'] = () => this.link.ping();

  cancelRequests: TournamentsAdminPort['cancelRequests'] = (q) => this.link.cancelRequests(q);

  tournaments: TournamentsAdminPort['tournaments'] = (q) => this.link.tournaments(q);

  cancel: TournamentsAdminPort['cancel'] = (admin, id, reason) => this.link.cancel(admin, id, reason);

  discard: TournamentsAdminPort['discard'] = (admin, id, reason) => this.link.discard(admin, id, reason);

  rejectCancelRequest: TournamentsAdminPort['rejectCancelRequest'] = (admin, requestId, reason) =>
    this.link.rejectCancelRequest(admin, requestId, reason);
}
