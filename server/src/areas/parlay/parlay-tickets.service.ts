import { getAddress, type Address, type Hex } from 'viem';
import type { ParlayBookPort } from '../../adapters/chain/parlay-book.port.js';
import { DomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation.context.js';
import { formatOdds } from './parlay-pricing.math.js';
import type {
  CompartmentRow,
  ConditionResult,
  ParlayTicketsRepository,
  StoredTicket,
  TicketStatus,
} from './parlay-tickets.repository.js';
import type { ParlaySettings } from './parlay.types.js';

export type TicketStore = Pick<
  ParlayTicketsRepository,
  'ticket' | 'tickets' | 'results' | 'bettorTotals' | 'feeTotals' | 'compartments'
>;

export interface TicketDeps {
  readonly store: TicketStore;
  /** Absent when no ticket contract is deployed: claims answer 503. */
  readonly book: Pick<ParlayBookPort, 'claim'> | undefined;
  readonly settings: Pick<ParlaySettings, 'feeBps'>;
}

export interface Page {
  readonly page: number;
  readonly limit: number;
}

const WEEK_MS = 7 * 86_400_000;
const SETTLED: readonly TicketStatus[] = ['won', 'lost', 'void', 'claimed'];

/**
 * Parlay tickets as indexed from the ticket contract: reads per ticket and per bettor, winnings,
 * statistics, fee totals and the pool's compartments; and claims, which the platform submits on
 * chain (the contract pays the ticket's bettor whoever sends it).
 */
export class ParlayTicketsService {
  constructor(private readonly deps: TicketDeps) {}

  async ticket(ticketId: string) {
    const t = await this.deps.store.ticket(ticketId);
    if (!t) throw new DomainError('NOT_FOUND', 'No such ticket (a placement shows once it is indexed)');
    return (await this.views([t]))[0] as TicketView;
  }

  async status(ticketId: string) {
    const t = await this.ticket(ticketId);
    return {
      ticketId: t.ticketId,
      status: t.status,
      claimable: t.claimable,
      legs: t.legs.length,
      legsResulted: t.legs.filter((l) => l.result !== 'pending').length,
      owed: t.owed,
    };
  }

  /** Tickets of `bettors`, newest first, optionally of some statuses. */
  async list(bettors: readonly Address[], page: Page, statuses?: readonly TicketStatus[]) {
    const res = await this.deps.store.tickets({
      bettors,
      ...(statuses ? { statuses } : {}),
      limit: page.limit,
      offset: (page.page - 1) * page.limit,
    });
    return {
      data: await this.views(res.tickets),
      pagination: {
        page: page.page,
        limit: page.limit,
        total: res.total,
        hasMore: page.page * page.limit < res.total,
      },
    };
  }

  history(bettors: readonly Address[], page: Page) {
    return this.list(bettors, page, SETTLED);
  }

  async winnings(bettors: readonly Address[]) {
    const totals = await Promise.all(bettors.map((b) => this.deps.store.bettorTotals(b)));
    const claimable = await this.deps.store.tickets({ bettors, statuses: ['won', 'void'], limit: 100, offset: 0 });
    const sum = (f: (t: (typeof totals)[number]) => bigint) => totals.reduce((s, t) => s + f(t), 0n).toString();
    return {
      bettors: [...bettors],
      won: sum((t) => t.won),
      refunded: sum((t) => t.refunded),
      claimed: sum((t) => t.claimed),
      unclaimed: sum((t) => t.unclaimed),
      claimable: (await this.views(claimable.tickets)).filter((t) => t.claimable),
    };
  }

  async userStats(address: string) {
    const bettor = getAddress(address);
    const t = await this.deps.store.bettorTotals(bettor);
    return {
      address: bettor,
      tickets: t.tickets,
      byStatus: t.byStatus,
      staked: t.staked.toString(),
      fees: t.fees.toString(),
      won: t.won.toString(),
      refunded: t.refunded.toString(),
      pnl: (t.won + t.refunded - t.staked).toString(),
    };
  }

  async feeStats() {
    const f = await this.deps.store.feeTotals();
    return {
      feeBps: this.deps.settings.feeBps,
      earned: f.earned.toString(),
      pending: f.pending.toString(),
      refunded: f.refunded.toString(),
      tickets: f.tickets,
      volume: f.volume.toString(),
    };
  }

  async compartments(now: Date) {
    const rows = await this.deps.store.compartments(52);
    return { model: 'weekly-ticket-rounds' as const, compartments: rows.map((r) => compartmentView(r, now)) };
  }

  /**
   * Submits the claim of a won or refunded ticket for its bettor, once: the write is keyed by the
   * ticket, so a second claim (or a resumed request) finds the first write instead of sending again.
   */
  async claim(ctx: Pick<OperationContext, 'writeKey'>, callers: readonly Address[], ticketId: string) {
    const book = this.deps.book;
    if (!book) throw new DomainError('SERVICE_UNAVAILABLE', 'Parlay tickets are not deployed on this chain');
    const t = await this.ticket(ticketId);
    if (!callers.includes(t.bettor)) throw new DomainError('FORBIDDEN', 'Only the ticket’s bettor may claim it');
    if (t.status === 'claimed') throw new DomainError('ALREADY_CLAIMED', 'This ticket was claimed already');
    if (t.status === 'lost') {
      throw new DomainError('TICKET_NOT_CLAIMABLE', 'The ticket lost: there is nothing to claim', {
        details: { status: t.status },
      });
    }
    if (t.status === 'open' && t.legs.some((l) => l.result === 'lost')) {
      throw new DomainError('TICKET_NOT_CLAIMABLE', 'The ticket lost: there is nothing to claim', {
        details: { status: 'lost' },
      });
    }
    if (t.status === 'open' && t.legs.some((l) => l.result === 'pending')) {
      throw new DomainError('TICKET_NOT_SETTLED', 'A leg of the ticket is still waiting for its result');
    }
    const txHash = await book.claim(t.ticketId, {
      key: `parlay:claim:${t.ticketId}`,
      write: ctx.writeKey('claim'),
    });
    return { ticketId: t.ticketId, bettor: t.bettor, amount: t.owed, txHash, status: 'submitted' as const };
  }

  private async views(tickets: readonly StoredTicket[]): Promise<TicketView[]> {
    const results = await this.deps.store.results([
      ...new Set(tickets.flatMap((t) => t.legs.map((l) => l.conditionId))),
    ]);
    return tickets.map((t) => ticketView(t, results));
  }
}

export type TicketView = ReturnType<typeof ticketView>;

function legResult(leg: StoredTicket['legs'][number], r: ConditionResult | undefined) {
  if (!r) return 'pending' as const;
  if (r.isVoid) return 'void' as const;
  return r.winningOutcome === leg.outcomeId ? ('won' as const) : ('lost' as const);
}

function ticketView(t: StoredTicket, results: ReadonlyMap<string, ConditionResult>) {
  const legs = t.legs.map((l) => ({
    conditionId: l.conditionId as Hex,
    outcomeId: l.outcomeId,
    odds: formatOdds(BigInt(l.odds)),
    result: legResult(l, results.get(l.conditionId.toLowerCase())),
  }));
  const settledClaimable = (t.status === 'won' || t.status === 'void') && t.owed > 0n;
  // Open but decided on chain (every leg resulted, none lost): the claim settles it first.
  const decided = t.status === 'open' && legs.every((l) => l.result === 'won' || l.result === 'void');
  return {
    ticketId: t.ticketId as Hex,
    bettor: getAddress(t.bettor),
    nonce: t.nonce.toString(),
    quoteId: t.quoteId,
    legs,
    stake: t.stake.toString(),
    fee: t.fee.toString(),
    netStake: (t.stake - t.fee).toString(),
    payout: t.payout.toString(),
    owed: t.owed.toString(),
    status: t.status,
    claimable: settledClaimable || decided,
    placedTx: t.placedTx as Hex,
    claimTx: (t.claimTx as Hex | null) ?? null,
    placedAt: t.placedAt.toISOString(),
    settledAt: t.settledAt?.toISOString() ?? null,
    claimedAt: t.claimedAt?.toISOString() ?? null,
  };
}

/** ISO week id of the Monday that starts it ("2026-W48"). */
export function isoWeek(monday: Date): string {
  const thursday = new Date(monday.getTime() + 3 * 86_400_000);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.floor((thursday.getTime() - yearStart) / WEEK_MS) + 1;
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

function compartmentView(r: CompartmentRow, now: Date) {
  const endsAt = new Date(r.week.getTime() + WEEK_MS);
  return {
    id: isoWeek(r.week),
    startsAt: r.week.toISOString(),
    endsAt: endsAt.toISOString(),
    status: r.openTickets > 0 || endsAt > now ? ('open' as const) : ('closed' as const),
    tickets: r.tickets,
    openTickets: r.openTickets,
    stake: r.stake.toString(),
    lockedExposure: r.lockedExposure.toString(),
    expectedLiability: r.openLiability.toString(),
    realisedResult: r.realisedResult.toString(),
  };
}
