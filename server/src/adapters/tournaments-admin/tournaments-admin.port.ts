import type { z } from 'zod';
import type {
  AdminTournamentListDto,
  TournamentCancelRequest,
  TournamentCancelRequestListSchema,
  TournamentCancellation,
  TournamentDiscardResult,
} from '@duelkit/contract';
import type { BreakerSnapshot } from '../../platform/outage/circuit-breaker.js';

export type CancelRequestList = z.infer<typeof TournamentCancelRequestListSchema>;

/** The admin acting through the markets host (recorded as `admin:<adminId>` by the tournaments side). */
export interface ActingAdmin {
  readonly adminId: string;
}

export interface CancelRequestQuery {
  readonly status?: 'OPEN' | 'REJECTED' | 'ACCEPTED' | undefined;
  readonly tournamentId?: string | undefined;
  readonly limit: number;
  readonly offset: number;
}

export interface AdminTournamentQuery {
  /** The list filter's value (`active`, `live`, `completed`, `canceled`, or upper case). */
  readonly status?: string | undefined;
  readonly removable: boolean;
  readonly limit: number;
  readonly offset: number;
}

/**
 * The tournaments domain as the markets host's admin sees it (§4.16 parlay-tournaments): the
 * same cancellations as the tournaments host's admin. In-process when this process serves the
 * tournaments host too; over HTTP (service credential, timeouts, a circuit breaker) when the hosts
 * run apart. Refusals of the tournaments side keep their codes; an unreachable tournaments side is
 * TOURNAMENTS_UNAVAILABLE (503).
 */
export interface TournamentsAdminPort {
  readonly mode: 'in-process' | 'http';
  /** Where the tournaments host is called (http), or null. */
  readonly url: string | null;
  readonly credentialConfigured: boolean;
  /** The breaker in front of the calls; in-process calls have none (always closed). */
  breaker(): BreakerSnapshot;
  /** Resolves when the tournaments side answers (and accepts the credential). */
  ping(): Promise<void>;
  cancelRequests(query: CancelRequestQuery): Promise<CancelRequestList>;
  tournaments(query: AdminTournamentQuery): Promise<AdminTournamentListDto>;
  cancel(admin: ActingAdmin, tournamentId: string, reason: string): Promise<TournamentCancellation>;
  discard(admin: ActingAdmin, tournamentId: string, reason: string | undefined): Promise<TournamentDiscardResult>;
  rejectCancelRequest(admin: ActingAdmin, requestId: string, reason: string): Promise<TournamentCancelRequest>;
}
