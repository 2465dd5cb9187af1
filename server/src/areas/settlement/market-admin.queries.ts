import { getAddress } from 'viem';
import type { Orm } from '../../platform/db/orm.js';
import { DuelEntity, type Duel } from '../markets/duel.entity.js';
import { toDuelDto } from '../markets/duel.mapper.js';
import type { DistributionService } from './distribution.service.js';
import type { MarketSettingsStore } from './market-settings.js';
import type { DuelLookup, Page } from './resolution.service.js';
import { toContest, type ContestRow } from './contest.repository.js';
import type { DuelCancellationRow } from './settlement.entities.js';
import type { Clock } from '../../platform/clock.js';

/** What a public market needs by its start to go live (cancel-expired cancels the others). */
export interface BootstrapThreshold {
  readonly minParticipants: number;
  readonly minVolume: bigint;
}

type CancelSource = DuelCancellationRow['source'];
/** Why cancel-expired picks a market. */
export type ExpiredReason = Exclude<CancelSource, 'discard'>;

const paged = <T>(data: T[], page: Page, total: number) => ({
  data,
  pagination: { page: page.page, limit: page.limit, total, hasMore: page.page * page.limit < total },
});

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/**
 * §4.16 the admin's read-only views of markets: cancellations and their refunds, cancel-expired
 * candidates, contests, participants, the resolution queue, bootstrapping markets and the current
 * timings (docs/admin-markets.md). Writes live in MarketAdminService.
 */
export class MarketAdminQueries {
  constructor(
    private readonly orm: Orm,
    private readonly duels: DuelLookup,
    private readonly distribution: DistributionService,
    private readonly settings: MarketSettingsStore,
    private readonly threshold: BootstrapThreshold,
    private readonly clock: Clock,
  ) {}

  /** Progress of a market's refunds or payouts, with its cancellation. */
  async discardStatus(duelId: string) {
    return this.distribution.status(await this.duels.require(duelId));
  }

  /** The current market timings. */
  duration() {
    const t = this.settings.timings();
    return {
      contestPeriodSeconds: t.contestPeriodSeconds,
      publicLeadSeconds: t.publicLeadSeconds,
      privateLeadSeconds: t.privateLeadSeconds,
      resolutionGraceSeconds: t.resolutionGraceSeconds,
      updatedAt: iso(t.updatedAt),
      updatedBy: t.updatedBy,
    };
  }

  /** Cancelled markets, newest first, with why and the refund progress. */
  async cancelled(page: Page) {
    const conn = this.conn();
    const [rows, [count]] = await Promise.all([
      conn.execute<
        {
          duel_id: string;
          question: string;
          is_private: boolean;
          creator_address: string;
          end_time: Date;
          source: CancelSource | null;
          reason: string | null;
          requested_at: Date | null;
          participants: number;
          paid: number;
          pending: number;
          failed: number;
        }[]
      >(
        `select d.duel_id, d.question, d.is_private, d.creator_address, d.end_time, c.source, c.reason, c.requested_at,
            count(x.id)::int as participants,
            count(x.id) filter (where x.status = 'paid')::int as paid,
            count(x.id) filter (where x.status in ('queued', 'submitted'))::int as pending,
            count(x.id) filter (where x.status = 'failed')::int as failed
           from duels d
           left join duel_cancellations c on c.duel_id = d.duel_id
           left join duel_distributions x on x.duel_id = d.duel_id and x.kind = 'refund'
          where d.status = 'cancelled'
          group by d.duel_id, d.question, d.is_private, d.creator_address, d.end_time, c.source, c.reason, c.requested_at, d.created_at
          order by coalesce(c.requested_at, d.created_at) desc, d.duel_id
          limit ? offset ?`,
        [page.limit, (page.page - 1) * page.limit],
      ),
      conn.execute<{ n: number }[]>(`select count(*)::int as n from duels where status = 'cancelled'`),
    ]);
    return paged(
      rows.map((r) => ({
        duelId: r.duel_id,
        question: r.question,
        isPrivate: r.is_private,
        creatorAddress: getAddress(r.creator_address),
        endTime: new Date(r.end_time).toISOString(),
        source: r.source,
        reason: r.reason,
        cancelledAt: iso(r.requested_at),
        refunds: { participants: r.participants, paid: r.paid, pending: r.pending, failed: r.failed },
      })),
      page,
      count?.n ?? 0,
    );
  }

  /** Markets cancel-expired would cancel now. */
  async expired(page: Page, reason?: ExpiredReason) {
    const { rows, total } = await this.expiredCandidates(page, reason);
    return paged(
      rows.map(({ duel, reason: why, participants, volume }) => ({
        duelId: duel.duelId,
        question: duel.question,
        status: duel.status,
        isPrivate: duel.isPrivate,
        reason: why,
        startTime: new Date(duel.startTime).toISOString(),
        endTime: new Date(duel.endTime).toISOString(),
        participants,
        totalVolume: volume,
      })),
      page,
      total,
    );
  }

  /** Contests across all markets, newest first. */
  async contests(page: Page, state: 'open' | 'closed' | 'all') {
    const filter =
      state === 'open'
        ? `where d.status in ('pending_contest')`
        : state === 'closed'
          ? `where d.status in ('settled', 'cancelled')`
          : '';
    const conn = this.conn();
    const [rows, [count]] = await Promise.all([
      conn.execute<
        (ContestRow & {
          question: string;
          status: Duel['status'];
          winning_option_index: number | null;
          contest_ends_at: Date | null;
        })[]
      >(
        `select c.*, d.question, d.status, d.winning_option_index, d.contest_ends_at
           from duel_contests c join duels d on d.duel_id = c.duel_id ${filter}
          order by c.created_at desc, c.id desc limit ? offset ?`,
        [page.limit, (page.page - 1) * page.limit],
      ),
      conn.execute<{ n: number }[]>(
        `select count(*)::int as n from duel_contests c join duels d on d.duel_id = c.duel_id ${filter}`,
      ),
    ]);
    return paged(
      rows.map((r) => ({
        ...toContest(r),
        question: r.question,
        duelStatus: r.status,
        resolvedOptionIndex: r.winning_option_index,
        contestEndsAt: iso(r.contest_ends_at),
      })),
      page,
      count?.n ?? 0,
    );
  }

  /** Participants of a market: deposits, shares per option, and their payout or refund. */
  async participants(duelId: string, page: Page) {
    const duel = await this.duels.require(duelId);
    const conn = this.conn();
    const holdersSql = `select trader as holder from trades where duel_id = ?
       union select holder from positions where duel_id = ? union select ?::varchar`;
    const params = [duel.duelId, duel.duelId, getAddress(duel.creatorAddress)];
    const [holders, [count]] = await Promise.all([
      conn.execute<{ holder: string }[]>(`select holder from (${holdersSql}) h order by holder limit ? offset ?`, [
        ...params,
        page.limit,
        (page.page - 1) * page.limit,
      ]),
      conn.execute<{ n: number }[]>(`select count(*)::int as n from (${holdersSql}) h`, params),
    ]);
    const list = holders.map((h) => h.holder);
    const [trades, positions, ledger, users] = list.length
      ? await Promise.all([
          conn.execute<{ trader: string; bought: string; sold: string }[]>(
            `select trader, coalesce(sum(collateral) filter (where side = 'buy'), 0)::text as bought,
                coalesce(sum(collateral) filter (where side = 'sell'), 0)::text as sold
               from trades where duel_id = ? and trader = any(?::text[]) group by trader`,
            [duel.duelId, `{${list.join(',')}}`],
          ),
          conn.execute<{ holder: string; option_index: number; shares: string }[]>(
            'select holder, option_index, shares::text as shares from positions where duel_id = ? and holder = any(?::text[])',
            [duel.duelId, `{${list.join(',')}}`],
          ),
          conn.execute<{ holder: string; kind: 'payout' | 'refund'; status: string; amount: string | null }[]>(
            `select holder, kind, status, amount::text as amount from duel_distributions
              where duel_id = ? and holder = any(?::text[]) order by updated_at`,
            [duel.duelId, `{${list.join(',')}}`],
          ),
          conn.execute<{ managed_address: string; username: string | null }[]>(
            'select managed_address, username from users where managed_address = any(?::text[])',
            [`{${list.join(',')}}`],
          ),
        ])
      : [[], [], [], []];
    const data = list.map((holder) => {
      const t = trades.find((r) => r.trader === holder);
      const bought = BigInt(t?.bought ?? '0');
      const sold = BigInt(t?.sold ?? '0');
      const shares = duel.options.map(
        (_o, i) => positions.find((p) => p.holder === holder && p.option_index === i)?.shares ?? '0',
      );
      const d = ledger.filter((l) => l.holder === holder).at(-1);
      return {
        userAddress: getAddress(holder),
        username: users.find((u) => u.managed_address.toLowerCase() === holder.toLowerCase())?.username ?? null,
        isCreator: holder.toLowerCase() === duel.creatorAddress.toLowerCase(),
        bought: bought.toString(),
        sold: sold.toString(),
        netDeposit: (bought > sold ? bought - sold : 0n).toString(),
        shares,
        distribution: d
          ? { kind: d.kind, status: d.status as 'queued' | 'submitted' | 'paid' | 'failed', amount: d.amount }
          : null,
      };
    });
    return paged(data, page, count?.n ?? 0);
  }

  /** Markets awaiting resolution, oldest end first. */
  async pendingDuels(page: Page) {
    const em = this.orm.em.fork();
    const where = {
      chainState: 'confirmed' as const,
      $or: [{ status: 'pending' as const }, { status: 'open' as const, endTime: { $lte: new Date(this.clock.now()) } }],
    };
    const [rows, total] = await em.findAndCount(DuelEntity, where, {
      orderBy: { endTime: 'asc', id: 'asc' },
      limit: page.limit,
      offset: (page.page - 1) * page.limit,
    });
    return paged(
      rows.map((d) => toDuelDto(d)),
      page,
      total,
    );
  }

  async pendingCount() {
    const grace = this.settings.resolutionGraceSeconds;
    const [row] = await this.conn().execute<
      { awaiting: number; overdue: number; in_contest: number; awaiting_final: number }[]
    >(
      `select
         count(*) filter (where status = 'pending' or (status = 'open' and end_time <= t.at))::int as awaiting,
         count(*) filter (where (status = 'pending' or status = 'open') and end_time + make_interval(secs => ?) <= t.at)::int as overdue,
         count(*) filter (where status = 'pending_contest' and contest_ends_at > t.at)::int as in_contest,
         count(*) filter (where status = 'pending_contest' and contest_ends_at <= t.at)::int as awaiting_final
       from duels, (select ?::timestamptz as at) t where chain_state = 'confirmed'`,
      [grace, new Date(this.clock.now())],
    );
    return {
      awaitingResolution: row?.awaiting ?? 0,
      overdue: row?.overdue ?? 0,
      inContestPeriod: row?.in_contest ?? 0,
      awaitingFinalization: row?.awaiting_final ?? 0,
    };
  }

  /** Open markets before or after their start, with whether they meet the bootstrap threshold. */
  async bootstrappingLive(page: Page, phase: 'bootstrapping' | 'live' | 'all') {
    const now = new Date(this.clock.now());
    const em = this.orm.em.fork();
    const startFilter =
      phase === 'bootstrapping' ? { startTime: { $gt: now } } : phase === 'live' ? { startTime: { $lte: now } } : {};
    const [rows, total] = await em.findAndCount(
      DuelEntity,
      { status: 'open', chainState: 'confirmed', endTime: { $gt: now }, ...startFilter },
      { orderBy: { startTime: 'asc', id: 'asc' }, limit: page.limit, offset: (page.page - 1) * page.limit },
    );
    const stats = await this.bootstrapStats(rows.map((d) => d.duelId));
    return paged(
      rows.map((d) => {
        const s = stats.get(d.duelId) ?? { participants: 0, volume: 0n };
        return {
          duel: toDuelDto(d),
          phase: new Date(d.startTime).getTime() > now.getTime() ? ('bootstrapping' as const) : ('live' as const),
          meetsThreshold: d.isPrivate || this.meets(s),
        };
      }),
      page,
      total,
    );
  }

  /**
   * Public markets past their start that missed the threshold by it (participants and volume
   * counted before the start), and markets still unresolved `resolutionGraceSeconds` after their end.
   */
  async expiredCandidates(page: Page, only?: ExpiredReason) {
    const grace = this.settings.resolutionGraceSeconds;
    const sql = `
      with t as (select ?::timestamptz as at), s as (
        select d.duel_id, d.is_private, d.start_time, d.end_time,
          (select count(distinct t.trader) from trades t where t.duel_id = d.duel_id and t.created_at < d.start_time)::int as participants,
          (select coalesce(sum(t.collateral), 0) from trades t where t.duel_id = d.duel_id and t.created_at < d.start_time) as volume
        from duels d, t
        where d.status in ('open', 'pending') and d.chain_state = 'confirmed' and d.start_time <= t.at
      ), c as (
        select duel_id, participants, volume::text as volume,
          case when not is_private and (participants < ? or volume < ?) then 'bootstrap_threshold'
               when end_time + make_interval(secs => ?) <= (select at from t) then 'unresolved' end as reason,
          start_time
        from s
      )
      select * from c where reason is not null ${only ? 'and reason = ?' : ''}`;
    const params = [
      new Date(this.clock.now()),
      this.threshold.minParticipants,
      this.threshold.minVolume.toString(),
      grace,
      ...(only ? [only] : []),
    ];
    const conn = this.conn();
    const [rows, [count]] = await Promise.all([
      conn.execute<{ duel_id: string; participants: number; volume: string; reason: ExpiredReason }[]>(
        `${sql} order by start_time, duel_id limit ? offset ?`,
        [...params, page.limit, (page.page - 1) * page.limit],
      ),
      conn.execute<{ n: number }[]>(`select count(*)::int as n from (${sql}) x`, params),
    ]);
    const out = [];
    for (const r of rows) {
      out.push({
        duel: await this.duels.require(r.duel_id),
        reason: r.reason,
        participants: r.participants,
        volume: r.volume,
      });
    }
    return { rows: out, total: count?.n ?? 0 };
  }

  private meets(s: { participants: number; volume: bigint }): boolean {
    return s.participants >= this.threshold.minParticipants && s.volume >= this.threshold.minVolume;
  }

  /** Traders and volume of each market before its start. */
  private async bootstrapStats(duelIds: string[]) {
    const stats = new Map<string, { participants: number; volume: bigint }>();
    if (!duelIds.length) return stats;
    const rows = await this.conn().execute<{ duel_id: string; participants: number; volume: string }[]>(
      `select t.duel_id, count(distinct t.trader)::int as participants, coalesce(sum(t.collateral), 0)::text as volume
         from trades t join duels d on d.duel_id = t.duel_id
        where t.duel_id = any(?::text[]) and t.created_at < d.start_time group by t.duel_id`,
      [`{${duelIds.join(',')}}`],
    );
    for (const r of rows) stats.set(r.duel_id, { participants: r.participants, volume: BigInt(r.volume) });
    return stats;
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
