import type { ConfigStatusDto } from '@duelkit/contract';
import type { TournamentsAdminPort } from '../../adapters/tournaments-admin/tournaments-admin.port.js';
import type { Clock } from '../../platform/clock.js';
import { isDomainError } from '../../errors.js';

/**
 * §4.16 parlay-tournaments: the markets host's admin view of tournament cancellations. Every
 * decision is the tournaments domain's, reached through TournamentsAdminPort; this service adds
 * the link's own status.
 */
export class ParlayTournamentsAdminService {
  constructor(
    readonly tournaments: TournamentsAdminPort,
    private readonly clock: Clock,
  ) {}

  /** Which way the tournaments side is reached, and whether it answers now (one check call). */
  async configStatus(): Promise<ConfigStatusDto> {
    const started = this.clock.now();
    let error: ConfigStatusDto['error'] = null;
    try {
      await this.tournaments.ping();
    } catch (err) {
      error = isDomainError(err)
        ? { code: err.code, message: err.message }
        : { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) };
    }
    const breaker = this.tournaments.breaker();
    return {
      mode: this.tournaments.mode,
      tournamentsUrl: this.tournaments.url,
      credentialConfigured: this.tournaments.credentialConfigured,
      reachable: error === null,
      latencyMs: error === null ? Math.max(0, Math.round(this.clock.now() - started)) : null,
      checkedAt: new Date(this.clock.now()).toISOString(),
      breaker: {
        state: breaker.state,
        consecutiveFailures: breaker.consecutiveFailures,
        openUntil: breaker.openUntil === null ? null : new Date(breaker.openUntil).toISOString(),
      },
      error,
    };
  }
}
