import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type {
  AdminTournamentFilter,
  CancelRequestFilter,
  CancelRequestRow,
} from './tournament-cancellation.repository.js';
import { refundTableDto, type RefundService } from './tournament-refunds.service.js';
import type { TournamentDb, TournamentRepos } from './tournament.repository.js';
import type { Actor, TournamentRow } from './tournament.types.js';

const iso = (d: Date) => new Date(d).toISOString();

/** Who decides: an admin (`admin:<id>`) or a rule of the automation (`system:<rule>`). */
export type Decider = `admin:${string}` | `system:${string}`;

export const adminDecider = (adminId: string): Decider => `admin:${adminId}`;

export function toCancelRequest(r: CancelRequestRow) {
  return {
    id: r.id,
    tournamentId: r.tournamentId,
    wallet: getAddress(r.wallet),
    role: r.role,
    reason: r.reason,
    status: r.status,
    createdAt: iso(r.createdAt),
    decidedAt: r.decidedAt ? iso(r.decidedAt) : null,
    decidedBy: r.decidedBy,
    decisionReason: r.decisionReason,
  };
}

function toAdminTournament(t: TournamentRow & { otherEntries: number }) {
  return {
    id: t.id,
    name: t.name,
    status: t.status,
    stakeAsset: t.stakeAsset,
    ownerWallet: getAddress(t.ownerWallet),
    entryCount: t.entryCount,
    otherEntries: t.otherEntries,
    minEntriesToActivate: t.minEntries,
    prizePool: t.prizePool,
    startTime: iso(t.startsAt),
    createdAt: iso(t.createdAt),
    cancelledAt: t.cancelledAt ? iso(t.cancelledAt) : null,
    cancelReason: t.cancelReason,
    discardedAt: t.discardedAt ? iso(t.discardedAt) : null,
    removable: t.discardedAt === null && t.status !== 'COMPLETED' && t.otherEntries === 0,
  };
}

/**
 * Cancel requests, cancellation and discard. A cancellation is one transaction under the
 * tournament's row lock (LIVE → CANCELED, every open request granted), then the refund table;
 * a crash between the two is completed by the next call or by the timeouts step.
 */
export class CancellationService {
  constructor(
    private readonly db: TournamentDb,
    private readonly refunds: RefundService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  /** A wallet's latest cancel request and the open count. */
  async requestState(id: string, wallet: string | undefined) {
    const t = await this.refunds.tournament(id);
    const request = wallet ? await this.db.read.cancellation.currentRequestOf(t.id, wallet) : null;
    const canRequest =
      wallet !== undefined &&
      t.status === 'LIVE' &&
      request?.status !== 'OPEN' &&
      (await this.roleOf(t, wallet)) !== null;
    return {
      tournamentId: t.id,
      tournamentStatus: t.status,
      wallet: wallet ? getAddress(wallet) : null,
      request: request ? toCancelRequest(request) : null,
      openRequests: await this.db.read.cancellation.openCount(t.id),
      canRequest,
    };
  }

  private async roleOf(
    t: TournamentRow,
    wallet: string,
    repos: TournamentRepos = this.db.read,
  ): Promise<'creator' | 'entrant' | null> {
    if (t.ownerWallet.toLowerCase() === wallet.toLowerCase()) return 'creator';
    return (await repos.tournaments.entryOf(t.id, wallet)) ? 'entrant' : null;
  }

  /** The creator or an entrant asks for a cancellation; one open request each. */
  async request(actor: Actor, id: string, reason: string) {
    const t = await this.refunds.tournament(id);
    const requestId = randomUUID();
    await this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      const fresh = (await r.tournaments.byId(t.id)) ?? t;
      if (fresh.status !== 'LIVE') {
        throw new DomainError('INVALID_STATE', `Tournament ${t.id} is ${fresh.status}: nothing to cancel`, {
          details: { tournamentId: t.id, status: fresh.status },
        });
      }
      const role = await this.roleOf(fresh, actor.wallet, r);
      if (!role) throw new DomainError('NOT_ENTERED', 'Only the creator or an entrant can ask for a cancellation');
      const inserted = await r.cancellation.insertRequest({
        id: requestId,
        tournamentId: t.id,
        wallet: actor.wallet,
        role,
        reason,
        createdAt: this.now(),
      });
      if (!inserted) {
        const open = await r.cancellation.openRequest(t.id, actor.wallet);
        throw new DomainError('CANCEL_REQUEST_EXISTS', 'You already have an open cancel request for this tournament', {
          details: { tournamentId: t.id, requestId: open?.id ?? null },
        });
      }
    });
    const created = await this.db.read.cancellation.request(requestId);
    if (!created) throw new Error(`cancel request ${requestId} vanished after insert`);
    return toCancelRequest(created);
  }

  async requests(filter: CancelRequestFilter, limit: number, offset: number) {
    const [rows, total] = await Promise.all([
      this.db.read.cancellation.requests(filter, limit, offset),
      this.db.read.cancellation.requestCount(filter),
    ]);
    return { requests: rows.map(toCancelRequest), total };
  }

  async reject(by: Decider, requestId: string, reason: string) {
    const existing = await this.db.read.cancellation.request(requestId);
    if (!existing) throw new DomainError('NOT_FOUND', `No cancel request ${requestId}`, { details: { requestId } });
    const rejected = await this.db.read.cancellation.reject(requestId, by, reason, this.now());
    if (!rejected) {
      throw new DomainError('INVALID_STATE', `Cancel request ${requestId} is ${existing.status}, not OPEN`, {
        details: { requestId, status: existing.status },
      });
    }
    const row = await this.db.read.cancellation.request(requestId);
    return toCancelRequest(row ?? existing);
  }

  /** LIVE → CANCELED (or nothing, when already cancelled), then the refund table. */
  async cancel(by: Decider, id: string, reason: string) {
    const t = await this.refunds.tournament(id);
    const { accepted, changed } = await this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      return this.cancelLocked(r, t.id, by, reason);
    });
    return this.cancellation(t.id, !changed, accepted);
  }

  private async cancelLocked(
    r: TournamentRepos,
    id: string,
    by: Decider,
    reason: string,
  ): Promise<{ changed: boolean; accepted: number }> {
    const fresh = await r.tournaments.byId(id);
    if (!fresh) throw new DomainError('NOT_FOUND', `No tournament ${id}`, { details: { tournamentId: id } });
    if (fresh.status === 'COMPLETED') {
      throw new DomainError('INVALID_STATE', `Tournament ${id} is COMPLETED: it can no longer be cancelled`, {
        details: { tournamentId: id, status: fresh.status },
      });
    }
    if (fresh.status === 'CANCELED') return { changed: false, accepted: 0 };
    const now = this.now();
    await r.cancellation.markCancelled(id, now, reason, by);
    const accepted = await r.cancellation.acceptOpen(id, by, `Cancelled: ${reason}`.slice(0, 500), now);
    return { changed: true, accepted };
  }

  private async cancellation(id: string, alreadyCancelled: boolean, acceptedRequests: number) {
    const t = await this.refunds.tournament(id);
    const table = await this.refunds.ensureTable(t);
    if (!alreadyCancelled) {
      this.logger.info({ tournamentId: id, by: t.cancelledBy, refund: table?.total ?? '0' }, 'tournament cancelled');
    }
    return {
      tournamentId: t.id,
      status: t.status,
      alreadyCancelled,
      cancelledAt: iso(t.cancelledAt ?? this.now()),
      reason: t.cancelReason ?? '',
      cancelledBy: t.cancelledBy ?? '',
      acceptedRequests,
      refund: table ? refundTableDto(table) : null,
    };
  }

  /**
   * Hides a tournament nobody but its creator entered. A LIVE one is cancelled first (in the same
   * transaction), so the creator's buy-in is refundable like any cancellation's.
   */
  async discard(by: Decider, id: string, reason: string | undefined) {
    const t = await this.refunds.tournament(id);
    const outcome = await this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      const fresh = (await r.tournaments.byId(t.id)) ?? t;
      if (fresh.discardedAt) return { alreadyDiscarded: true, changed: false, accepted: 0 };
      if (fresh.status === 'COMPLETED') {
        throw new DomainError('INVALID_STATE', `Tournament ${t.id} is COMPLETED: it cannot be discarded`, {
          details: { tournamentId: t.id, status: fresh.status },
        });
      }
      const others = await r.cancellation.otherEntries(t.id);
      if (others > 0) {
        throw new DomainError(
          'TOURNAMENT_HAS_ENTRIES',
          `Tournament ${t.id} has ${others} entries besides its creator’s`,
          {
            details: { tournamentId: t.id, entries: others },
          },
        );
      }
      const cancelled = await this.cancelLocked(r, t.id, by, reason ?? 'Discarded by an admin');
      await r.cancellation.markDiscarded(t.id, this.now());
      return { alreadyDiscarded: false, ...cancelled };
    });
    const cancellation = await this.cancellation(t.id, !outcome.changed, outcome.accepted);
    const after = await this.refunds.tournament(t.id);
    return {
      tournamentId: after.id,
      status: after.status,
      discardedAt: iso(after.discardedAt ?? this.now()),
      alreadyDiscarded: outcome.alreadyDiscarded,
      cancellation,
    };
  }

  /** Every tournament for the admins (discarded included), or only those discard accepts. */
  async adminList(filter: AdminTournamentFilter, limit: number, offset: number) {
    const [rows, total] = await Promise.all([
      this.db.read.cancellation.adminList(filter, limit, offset),
      this.db.read.cancellation.adminCount(filter),
    ]);
    return { tournaments: rows.map(toAdminTournament), total };
  }
}
