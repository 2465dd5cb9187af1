import type {
  MarketCreation,
  ReferralAnalytics,
  ReferralQuery,
  ReferralSummary,
  ReferrerList,
} from '@duelkit/contract';
import { getAddress } from 'viem';
import type { ReferralsRepository, TotalsRecord } from './referrals.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();
const totalsOf = (t: TotalsRecord) => ({
  referees: Number(t.referees),
  invitationsCreated: Number(t.invitations_created),
  invitationUses: Number(t.invitation_uses),
  inviteVolume: t.invite_volume,
});
const pageOf = (q: { page: number; limit: number }, rows: number, total: number) => ({
  page: q.page,
  limit: q.limit,
  total,
  hasMore: (q.page - 1) * q.limit + rows < total,
});

/** Referral and market-creation analytics (§4.5, §4.16): read-only aggregates. */
export class ReferralsService {
  constructor(private readonly repo: ReferralsRepository) {}

  async ofReferrer(address: string, query: ReferralQuery): Promise<ReferralAnalytics> {
    const stack = query.collateralStack ?? null;
    const offset = (query.page - 1) * query.limit;
    const [rows, totals] = await Promise.all([
      this.repo.referees(address, stack, query.limit, offset),
      this.repo.totals(address, stack),
    ]);
    const t = totalsOf(totals);
    return {
      referrer: getAddress(address),
      collateralStack: stack,
      totals: t,
      data: rows.map((r) => ({
        address: getAddress(r.address),
        invitations: Number(r.invitations),
        duels: Number(r.duels),
        volume: r.volume,
        firstJoinedAt: iso(r.first_joined_at),
      })),
      pagination: pageOf(query, rows.length, t.referees),
    };
  }

  async referrers(query: ReferralQuery): Promise<ReferrerList> {
    const { rows, total } = await this.repo.referrers(
      query.collateralStack ?? null,
      query.limit,
      (query.page - 1) * query.limit,
    );
    return {
      data: rows.map((r) => ({ referrer: getAddress(r.referrer), ...totalsOf(r) })),
      pagination: pageOf(query, rows.length, total),
    };
  }

  async summary(query: { collateralStack?: 'usdc' | 'credits' | undefined }): Promise<ReferralSummary> {
    const stack = query.collateralStack ?? null;
    const s = await this.repo.summary(stack);
    return { collateralStack: stack, referrers: Number(s.referrers), ...totalsOf(s) };
  }

  async marketCreation(address: string, query: ReferralQuery): Promise<MarketCreation> {
    const stack = query.collateralStack ?? null;
    const [rows, t] = await Promise.all([
      this.repo.createdMarkets(address, stack, query.limit, (query.page - 1) * query.limit),
      this.repo.creationTotals(address, stack),
    ]);
    return {
      address: getAddress(address),
      collateralStack: stack,
      totals: {
        markets: Number(t.markets),
        open: Number(t.open),
        settled: Number(t.settled),
        cancelled: Number(t.cancelled),
        private: Number(t.private),
        volume: t.volume,
        invitationsCreated: Number(t.invitations_created),
      },
      data: rows.map((r) => ({
        duelId: r.duel_id,
        question: r.question,
        status: r.status,
        collateralStack: r.collateral_stack,
        isPrivate: r.is_private,
        volume: r.volume,
        participants: Number(r.participants),
        createdAt: iso(r.created_at),
      })),
      pagination: pageOf(query, rows.length, Number(t.markets)),
    };
  }
}
