import type { Orm } from '../../platform/db/orm.js';
import { directSql, pgArray, sqlIn, type SqlExec } from '../../platform/db/sql.js';
import type { EntityManager } from '@mikro-orm/postgresql';

export type TicketStatus = 'open' | 'won' | 'lost' | 'void' | 'claimed';

/** A ticket as indexed from ParlayBook. */
export interface StoredTicket {
  readonly ticketId: string;
  readonly bettor: string;
  readonly nonce: bigint;
  readonly quoteId: string | null;
  readonly stake: bigint;
  readonly fee: bigint;
  readonly payout: bigint;
  readonly liability: bigint;
  readonly legs: readonly { conditionId: string; outcomeId: number; odds: string }[];
  readonly status: TicketStatus;
  /** How it settled (kept once claimed). */
  readonly outcome: 'won' | 'lost' | 'void' | null;
  /** Settled: what the ticket is owed (re-priced payout, refund, or 0); stays after the claim. */
  readonly owed: bigint;
  readonly poolResult: bigint | null;
  readonly placedTx: string;
  readonly claimTx: string | null;
  readonly placedAt: Date;
  readonly settledAt: Date | null;
  readonly claimedAt: Date | null;
}

export interface ConditionResult {
  readonly conditionId: string;
  readonly isVoid: boolean;
  readonly winningOutcome: number;
}

export interface TicketPage {
  readonly tickets: StoredTicket[];
  readonly total: number;
}

export interface BettorTotals {
  readonly tickets: number;
  readonly byStatus: Readonly<Record<TicketStatus, number>>;
  readonly staked: bigint;
  readonly fees: bigint;
  /** Owed to won and refunded tickets (claimed or not). */
  readonly won: bigint;
  readonly refunded: bigint;
  readonly claimed: bigint;
  readonly unclaimed: bigint;
}

export interface FeeTotals {
  readonly earned: bigint;
  readonly pending: bigint;
  readonly refunded: bigint;
  readonly tickets: number;
  readonly volume: bigint;
}

export interface CompartmentRow {
  readonly week: Date;
  readonly tickets: number;
  readonly openTickets: number;
  readonly stake: bigint;
  readonly lockedExposure: bigint;
  readonly openLiability: bigint;
  readonly realisedResult: bigint;
}

const COLUMNS =
  'ticket_id, bettor, nonce::text as nonce, quote_id, stake::text as stake, fee::text as fee, payout::text as payout, ' +
  'liability::text as liability, legs, status, outcome, owed::text as owed, pool_result::text as pool_result, placed_tx, claim_tx, ' +
  'placed_at, settled_at, claimed_at';

/**
 * Tickets, results and pool movements indexed from ParlayBook, and the reads of the ticket routes.
 * The indexer's writes take the transaction's EntityManager, so they commit with its cursor.
 */
export class ParlayTicketsRepository {
  private readonly direct: SqlExec;

  constructor(orm: Orm) {
    this.direct = directSql(orm);
  }

  async lastBlock(em: EntityManager, cursor: string): Promise<bigint | null> {
    const [row] = await sqlIn(em)<{ last_block: string }>('select last_block from chain_cursors where name = ?', [
      cursor,
    ]);
    return row ? BigInt(row.last_block) : null;
  }

  async saveCursor(em: EntityManager, cursor: string, to: bigint): Promise<void> {
    await sqlIn(em)(
      'insert into chain_cursors (name, last_block) values (?, ?) on conflict (name) do update set last_block = excluded.last_block',
      [cursor, to.toString()],
    );
  }

  /** A placement: the ticket row, and its quote becomes `placed` (its exposure now counts as an open ticket's). */
  async placed(
    em: EntityManager,
    t: Omit<
      StoredTicket,
      'quoteId' | 'status' | 'outcome' | 'owed' | 'poolResult' | 'claimTx' | 'settledAt' | 'claimedAt'
    >,
  ): Promise<void> {
    const sql = sqlIn(em);
    const [quote] = await sql<{ id: string }>(
      `update parlay_quotes set status = 'placed' where bettor = ? and nonce = ? returning id`,
      [t.bettor.toLowerCase(), t.nonce.toString()],
    );
    await sql(
      `insert into parlay_tickets (ticket_id, bettor, nonce, quote_id, stake, fee, payout, liability, legs, status, owed, placed_tx, placed_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, 'open', 0, ?, ?) on conflict (ticket_id) do nothing`,
      [
        t.ticketId.toLowerCase(),
        t.bettor.toLowerCase(),
        t.nonce.toString(),
        quote?.id ?? null,
        t.stake.toString(),
        t.fee.toString(),
        t.payout.toString(),
        t.liability.toString(),
        JSON.stringify(t.legs),
        t.placedTx,
        t.placedAt,
      ],
    );
  }

  /** A settlement: the ticket's outcome, its quote stops holding exposure, and the pool's realised result. */
  async settled(
    em: EntityManager,
    e: {
      ticketId: string;
      status: 'won' | 'lost' | 'void';
      owed: bigint;
      poolResult: bigint;
      at: Date;
      txHash: string;
      logIndex: number;
    },
  ): Promise<void> {
    const sql = sqlIn(em);
    const [t] = await sql<{ bettor: string; nonce: string }>(
      `update parlay_tickets set status = ?, outcome = ?, owed = ?, pool_result = ?, settled_at = ? where ticket_id = ? and status = 'open'
       returning bettor, nonce::text as nonce`,
      [e.status, e.status, e.owed.toString(), e.poolResult.toString(), e.at, e.ticketId.toLowerCase()],
    );
    if (!t) return;
    await sql(`update parlay_quotes set status = 'settled' where bettor = ? and nonce = ?`, [t.bettor, t.nonce]);
    await this.movement(em, {
      account: null,
      kind: 'result',
      assets: e.poolResult,
      shares: 0n,
      at: e.at,
      txHash: e.txHash,
      logIndex: e.logIndex,
    });
  }

  async claimed(em: EntityManager, e: { ticketId: string; at: Date; txHash: string }): Promise<void> {
    await sqlIn(em)(
      `update parlay_tickets set status = 'claimed', claim_tx = ?, claimed_at = ? where ticket_id = ? and status in ('won', 'void')`,
      [e.txHash, e.at, e.ticketId.toLowerCase()],
    );
  }

  async result(em: EntityManager, r: ConditionResult & { at: Date }): Promise<void> {
    await sqlIn(em)(
      `insert into parlay_results (condition_id, is_void, winning_outcome, posted_at) values (?, ?, ?, ?) on conflict do nothing`,
      [r.conditionId.toLowerCase(), r.isVoid, r.winningOutcome, r.at],
    );
  }

  /** A pool movement indexed from an event: once per (tx, log). */
  async movement(
    em: EntityManager,
    m: {
      account: string | null;
      kind: 'deposit' | 'withdraw' | 'result';
      assets: bigint;
      shares: bigint;
      at: Date;
      txHash: string;
      logIndex: number;
    },
  ): Promise<void> {
    await sqlIn(em)(
      `insert into lp_movements (account, kind, assets, shares, at, tx_hash, log_index) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (tx_hash, log_index) do nothing`,
      [m.account?.toLowerCase() ?? null, m.kind, m.assets.toString(), m.shares.toString(), m.at, m.txHash, m.logIndex],
    );
  }

  async ticket(ticketId: string): Promise<StoredTicket | null> {
    const [row] = await this.direct<TicketSqlRow>(`select ${COLUMNS} from parlay_tickets where ticket_id = ?`, [
      ticketId.toLowerCase(),
    ]);
    return row ? toTicket(row) : null;
  }

  async tickets(filter: {
    bettors?: readonly string[];
    statuses?: readonly TicketStatus[];
    limit: number;
    offset: number;
  }): Promise<TicketPage> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.bettors) {
      where.push('bettor = any(?::text[])');
      args.push(pgArray(filter.bettors.map((b) => b.toLowerCase())));
    }
    if (filter.statuses?.length) {
      where.push('status = any(?::text[])');
      args.push(pgArray([...filter.statuses]));
    }
    const w = where.length ? `where ${where.join(' and ')}` : '';
    const rows = await this.direct<TicketSqlRow>(
      `select ${COLUMNS} from parlay_tickets ${w} order by placed_at desc, ticket_id limit ? offset ?`,
      [...args, filter.limit, filter.offset],
    );
    const [count] = await this.direct<{ n: string }>(`select count(*)::text as n from parlay_tickets ${w}`, args);
    return { tickets: rows.map(toTicket), total: Number(count?.n ?? 0) };
  }

  /** Results posted for these conditions. */
  async results(conditionIds: readonly string[]): Promise<Map<string, ConditionResult>> {
    if (!conditionIds.length) return new Map();
    const rows = await this.direct<{ condition_id: string; is_void: boolean; winning_outcome: number }>(
      `select condition_id, is_void, winning_outcome from parlay_results where condition_id in (${conditionIds.map(() => '?').join(', ')})`,
      conditionIds.map((c) => c.toLowerCase()),
    );
    return new Map(
      rows.map((r) => [
        r.condition_id,
        { conditionId: r.condition_id, isVoid: r.is_void, winningOutcome: Number(r.winning_outcome) },
      ]),
    );
  }

  /** Conditions that open tickets wait on and that have no result yet. */
  async unresolvedConditions(limit: number): Promise<string[]> {
    const rows = await this.direct<{ c: string }>(
      `select distinct lower(leg->>'conditionId') as c from parlay_tickets t, jsonb_array_elements(t.legs) leg
        where t.status = 'open' and not exists (select 1 from parlay_results r where r.condition_id = lower(leg->>'conditionId'))
        order by 1 limit ?`,
      [limit],
    );
    return rows.map((r) => r.c);
  }

  /** Open tickets every leg of which has a result, or one leg of which lost: the chain can settle them. */
  async settleable(limit: number): Promise<string[]> {
    const rows = await this.direct<{ ticket_id: string }>(
      `select t.ticket_id from parlay_tickets t where t.status = 'open' and (
          not exists (select 1 from jsonb_array_elements(t.legs) leg
                       where not exists (select 1 from parlay_results r where r.condition_id = lower(leg->>'conditionId')))
          or exists (select 1 from jsonb_array_elements(t.legs) leg join parlay_results r on r.condition_id = lower(leg->>'conditionId')
                      where not r.is_void and r.winning_outcome <> (leg->>'outcomeId')::int))
        order by t.placed_at limit ?`,
      [limit],
    );
    return rows.map((r) => r.ticket_id);
  }

  async bettorTotals(bettor: string): Promise<BettorTotals> {
    const rows = await this.direct<{
      status: TicketStatus;
      outcome: string | null;
      n: string;
      stake: string;
      fee: string;
      owed: string;
    }>(
      `select status, outcome, count(*)::text as n, coalesce(sum(stake), 0)::text as stake, coalesce(sum(fee), 0)::text as fee,
              coalesce(sum(owed), 0)::text as owed
         from parlay_tickets where bettor = ? group by status, outcome`,
      [bettor.toLowerCase()],
    );
    const byStatus: Record<TicketStatus, number> = { open: 0, won: 0, lost: 0, void: 0, claimed: 0 };
    const t = { staked: 0n, fees: 0n, won: 0n, refunded: 0n, claimed: 0n, unclaimed: 0n };
    for (const r of rows) {
      byStatus[r.status] += Number(r.n);
      t.staked += BigInt(r.stake);
      t.fees += BigInt(r.fee);
      if (r.outcome === 'won') t.won += BigInt(r.owed);
      if (r.outcome === 'void') t.refunded += BigInt(r.owed);
      if (r.status === 'claimed') t.claimed += BigInt(r.owed);
      else t.unclaimed += BigInt(r.owed);
    }
    return { tickets: Object.values(byStatus).reduce((s, n) => s + n, 0), byStatus, ...t };
  }

  async feeTotals(): Promise<FeeTotals> {
    const [row] = await this.direct<{ earned: string; pending: string; refunded: string; n: string; volume: string }>(
      `select coalesce(sum(fee) filter (where outcome in ('won', 'lost')), 0)::text as earned,
              coalesce(sum(fee) filter (where status = 'open'), 0)::text as pending,
              coalesce(sum(fee) filter (where outcome = 'void'), 0)::text as refunded,
              count(*)::text as n, coalesce(sum(stake), 0)::text as volume
         from parlay_tickets`,
    );
    return {
      earned: BigInt(row?.earned ?? '0'),
      pending: BigInt(row?.pending ?? '0'),
      refunded: BigInt(row?.refunded ?? '0'),
      tickets: Number(row?.n ?? 0),
      volume: BigInt(row?.volume ?? '0'),
    };
  }

  /** Σ net stake of open tickets: LP cash the ledger's movements do not show yet. */
  async openNetStake(): Promise<bigint> {
    const [row] = await this.direct<{ s: string }>(
      `select coalesce(sum(stake - fee), 0)::text as s from parlay_tickets where status = 'open'`,
    );
    return BigInt(row?.s ?? '0');
  }

  /** Tickets by the week (Monday 00:00 UTC) they were placed in: the pool's compartments. */
  async compartments(limit: number): Promise<CompartmentRow[]> {
    const rows = await this.direct<{
      week: Date;
      n: string;
      open: string;
      stake: string;
      exposure: string;
      liability: string;
      result: string;
    }>(
      `select date_trunc('week', placed_at at time zone 'UTC') at time zone 'UTC' as week, count(*)::text as n,
              count(*) filter (where status = 'open')::text as open, coalesce(sum(stake), 0)::text as stake,
              coalesce(sum(payout - (stake - fee)) filter (where status = 'open'), 0)::text as exposure,
              coalesce(sum(liability) filter (where status = 'open'), 0)::text as liability,
              coalesce(sum(pool_result), 0)::text as result
         from parlay_tickets group by 1 order by 1 desc limit ?`,
      [limit],
    );
    return rows.map((r) => ({
      week: new Date(r.week),
      tickets: Number(r.n),
      openTickets: Number(r.open),
      stake: BigInt(r.stake),
      lockedExposure: BigInt(r.exposure),
      openLiability: BigInt(r.liability),
      realisedResult: BigInt(r.result),
    }));
  }
}

interface TicketSqlRow {
  ticket_id: string;
  bettor: string;
  nonce: string;
  quote_id: string | null;
  stake: string;
  fee: string;
  payout: string;
  liability: string;
  legs: StoredTicket['legs'];
  status: TicketStatus;
  outcome: 'won' | 'lost' | 'void' | null;
  owed: string;
  pool_result: string | null;
  placed_tx: string;
  claim_tx: string | null;
  placed_at: Date;
  settled_at: Date | null;
  claimed_at: Date | null;
}

function toTicket(r: TicketSqlRow): StoredTicket {
  return {
    ticketId: r.ticket_id,
    bettor: r.bettor,
    nonce: BigInt(r.nonce),
    quoteId: r.quote_id,
    stake: BigInt(r.stake),
    fee: BigInt(r.fee),
    payout: BigInt(r.payout),
    liability: BigInt(r.liability),
    legs: r.legs,
    status: r.status,
    outcome: r.outcome,
    owed: BigInt(r.owed),
    poolResult: r.pool_result === null ? null : BigInt(r.pool_result),
    placedTx: r.placed_tx,
    claimTx: r.claim_tx,
    placedAt: new Date(r.placed_at),
    settledAt: r.settled_at ? new Date(r.settled_at) : null,
    claimedAt: r.claimed_at ? new Date(r.claimed_at) : null,
  };
}
