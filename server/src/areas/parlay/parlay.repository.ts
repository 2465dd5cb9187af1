import type { Orm } from '../../platform/db/orm.js';
import { directSql, pgArray, sqlIn, type SqlExec } from '../../platform/db/sql.js';

/** A quote as stored. */
export interface StoredQuote {
  readonly id: string;
  readonly bettor: string;
  readonly nonce: bigint;
  readonly stake: bigint;
  readonly fee: bigint;
  readonly odds: bigint;
  readonly payout: bigint;
  readonly exposure: bigint;
  readonly expectedLiability: bigint;
  readonly legs: unknown;
  readonly typedData: unknown;
  readonly signature: string;
  readonly status: 'quoted' | 'placed' | 'settled';
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

export interface QuoteLegRow {
  readonly conditionId: string;
  readonly outcomeId: number;
  readonly fixtureId: number;
}

/** Exposure already held on the pool where a new quote would add to it. */
export interface ExposureSnapshot {
  readonly byOutcome: ReadonlyMap<string, bigint>;
  readonly byGame: ReadonlyMap<number, bigint>;
  readonly total: bigint;
  readonly cash: bigint;
}

/** What the caller decides under the pool's lock: a quote to store, or a refusal. */
export type ReserveDecision<R> =
  | {
      readonly ok: true;
      readonly quote: Omit<StoredQuote, 'nonce'>;
      readonly legs: readonly QuoteLegRow[];
      readonly sign: (nonce: bigint) => Promise<{ typedData: unknown; signature: string }>;
    }
  | { readonly ok: false; readonly refusal: R };

export interface LiveExposureRow {
  readonly conditionId: string;
  readonly outcomeId: number;
  readonly fixtureId: number;
  readonly exposure: bigint;
}

export const outcomeKey = (conditionId: string, outcomeId: number) => `${conditionId.toLowerCase()}:${outcomeId}`;

const LIVE = `(q.status = 'placed' or (q.status = 'quoted' and q.expires_at > ?))`;

/**
 * Quotes, the exposure they hold, and the pool's ledger. A quote's exposure counts while it is
 * live: placed, or quoted and not expired. Exposure checks and the quote's insert run under the
 * lock of the pool's row, so concurrent quotes see each other.
 */
export class ParlayRepository {
  private readonly direct: SqlExec;

  constructor(private readonly orm: Orm) {
    this.direct = directSql(orm);
  }

  /**
   * Under the pool's lock: reads the exposure the legs would add to, lets `decide` accept or
   * refuse, and on acceptance stores the quote with the bettor's next nonce.
   */
  reserve<R>(
    legs: readonly QuoteLegRow[],
    now: Date,
    decide: (snapshot: ExposureSnapshot) => ReserveDecision<R>,
  ): Promise<{ ok: true; quote: StoredQuote } | { ok: false; refusal: R }> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      await sql('select id from parlay_pool where id = 1 for update');
      const outcomes = await sql<{ k: string; e: string }>(
        `select lower(l.condition_id) || ':' || l.outcome_id as k, sum(q.exposure)::text as e
           from parlay_quote_legs l join parlay_quotes q on q.id = l.quote_id
          where ${LIVE} and lower(l.condition_id) = any(?::text[]) group by 1`,
        [now, pgArray(legs.map((l) => l.conditionId.toLowerCase()))],
      );
      const games = await sql<{ f: string; e: string }>(
        `select g.fixture_id::text as f, sum(q.exposure)::text as e
           from (select distinct quote_id, fixture_id from parlay_quote_legs where fixture_id = any(?::bigint[])) g
           join parlay_quotes q on q.id = g.quote_id where ${LIVE} group by 1`,
        [pgArray(legs.map((l) => l.fixtureId)), now],
      );
      const [total] = await sql<{ e: string }>(
        `select coalesce(sum(q.exposure), 0)::text as e from parlay_quotes q where ${LIVE}`,
        [now],
      );
      const cash = await this.cashIn(sql);
      const decision = decide({
        byOutcome: new Map(outcomes.map((r) => [r.k, BigInt(r.e)])),
        byGame: new Map(games.map((r) => [Number(r.f), BigInt(r.e)])),
        total: BigInt(total?.e ?? '0'),
        cash,
      });
      if (!decision.ok) return { ok: false as const, refusal: decision.refusal };
      const q = decision.quote;
      const [n] = await sql<{ n: string }>(
        'select coalesce(max(nonce) + 1, 0)::text as n from parlay_quotes where bettor = ?',
        [q.bettor],
      );
      const nonce = BigInt(n?.n ?? '0');
      const signed = await decision.sign(nonce);
      await sql(
        `insert into parlay_quotes (id, bettor, nonce, stake, fee, odds, payout, exposure, expected_liability, legs, typed_data, signature, status, expires_at, created_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, 'quoted', ?, ?)`,
        [
          q.id,
          q.bettor,
          nonce.toString(),
          q.stake.toString(),
          q.fee.toString(),
          q.odds.toString(),
          q.payout.toString(),
          q.exposure.toString(),
          q.expectedLiability.toString(),
          JSON.stringify(q.legs),
          JSON.stringify(signed.typedData),
          signed.signature,
          q.expiresAt,
          q.createdAt,
        ],
      );
      for (const [i, l] of legs.entries()) {
        await sql(
          'insert into parlay_quote_legs (quote_id, leg_index, condition_id, outcome_id, fixture_id) values (?, ?, ?, ?, ?)',
          [q.id, i, l.conditionId.toLowerCase(), l.outcomeId, l.fixtureId],
        );
      }
      return { ok: true as const, quote: { ...q, nonce, typedData: signed.typedData, signature: signed.signature } };
    });
  }

  async quote(id: string): Promise<StoredQuote | null> {
    const [row] = await this.direct<QuoteSqlRow>(`select ${QUOTE_COLUMNS} from parlay_quotes where id = ?`, [id]);
    return row ? toQuote(row) : null;
  }

  async quoteByNonce(bettor: string, nonce: bigint): Promise<StoredQuote | null> {
    const [row] = await this.direct<QuoteSqlRow>(
      `select ${QUOTE_COLUMNS} from parlay_quotes where bettor = ? and nonce = ?`,
      [bettor.toLowerCase(), nonce.toString()],
    );
    return row ? toQuote(row) : null;
  }

  /** The nonce the bettor's next quote will carry. */
  async nextNonce(bettor: string): Promise<bigint> {
    const [row] = await this.direct<{ n: string }>(
      'select coalesce(max(nonce) + 1, 0)::text as n from parlay_quotes where bettor = ?',
      [bettor.toLowerCase()],
    );
    return BigInt(row?.n ?? '0');
  }

  /** Live exposure per (condition, outcome, game), optionally of one bettor's quotes and tickets. */
  async liveExposure(now: Date, bettor?: string): Promise<LiveExposureRow[]> {
    const rows = await this.direct<{ c: string; o: number; f: string; e: string }>(
      `select l.condition_id as c, l.outcome_id as o, l.fixture_id::text as f, sum(q.exposure)::text as e
         from parlay_quote_legs l join parlay_quotes q on q.id = l.quote_id
        where ${LIVE} ${bettor ? 'and q.bettor = ?' : ''}
        group by 1, 2, 3 order by 3, 1, 2`,
      bettor ? [now, bettor.toLowerCase()] : [now],
    );
    return rows.map((r) => ({
      conditionId: r.c,
      outcomeId: Number(r.o),
      fixtureId: Number(r.f),
      exposure: BigInt(r.e),
    }));
  }

  /** Live exposure per game: a quote counts once in a game however many of its legs are there. */
  async liveExposureByGame(now: Date): Promise<{ fixtureId: number; exposure: bigint }[]> {
    const rows = await this.direct<{ f: string; e: string }>(
      `select g.fixture_id::text as f, sum(q.exposure)::text as e
         from (select distinct quote_id, fixture_id from parlay_quote_legs) g
         join parlay_quotes q on q.id = g.quote_id where ${LIVE} group by g.fixture_id order by g.fixture_id`,
      [now],
    );
    return rows.map((r) => ({ fixtureId: Number(r.f), exposure: BigInt(r.e) }));
  }

  /** Sums over live quotes and open tickets: exposure, expected liability, and how many of each. */
  async liveTotals(now: Date, bettor?: string) {
    const [row] = await this.direct<{ e: string; l: string; quotes: string; tickets: string }>(
      `select coalesce(sum(q.exposure), 0)::text as e,
              coalesce(sum(q.expected_liability) filter (where q.status = 'placed'), 0)::text as l,
              count(*) filter (where q.status = 'quoted')::text as quotes,
              count(*) filter (where q.status = 'placed')::text as tickets
         from parlay_quotes q where ${LIVE} ${bettor ? 'and q.bettor = ?' : ''}`,
      bettor ? [now, bettor.toLowerCase()] : [now],
    );
    return {
      exposure: BigInt(row?.e ?? '0'),
      expectedLiability: BigInt(row?.l ?? '0'),
      quotes: Number(row?.quotes ?? 0),
      tickets: Number(row?.tickets ?? 0),
    };
  }

  /** The pool's cash: deposits − withdrawals + realised results. */
  cash(): Promise<bigint> {
    return this.cashIn(this.direct);
  }

  /** Shares in issue. */
  async totalShares(): Promise<bigint> {
    const [row] = await this.direct<{ s: string }>(
      `select coalesce(sum(case kind when 'deposit' then shares when 'withdraw' then -shares else 0 end), 0)::text as s from lp_movements`,
    );
    return BigInt(row?.s ?? '0');
  }

  /** One LP's shares, what it put in and took out, and its last deposit. */
  async position(account: string) {
    const [row] = await this.direct<{ s: string; d: string; w: string; last: Date | null }>(
      `select coalesce(sum(case kind when 'deposit' then shares when 'withdraw' then -shares else 0 end), 0)::text as s,
              coalesce(sum(assets) filter (where kind = 'deposit'), 0)::text as d,
              coalesce(sum(assets) filter (where kind = 'withdraw'), 0)::text as w,
              max(at) filter (where kind = 'deposit') as last
         from lp_movements where account = ?`,
      [account.toLowerCase()],
    );
    return {
      shares: BigInt(row?.s ?? '0'),
      deposited: BigInt(row?.d ?? '0'),
      withdrawn: BigInt(row?.w ?? '0'),
      lastDepositAt: row?.last ? new Date(row.last) : null,
    };
  }

  /** Realised results (+ the pool won, − it paid out) between two instants. */
  async resultsBetween(from: Date, to: Date): Promise<bigint> {
    const [row] = await this.direct<{ r: string }>(
      `select coalesce(sum(assets), 0)::text as r from lp_movements where kind = 'result' and at > ? and at <= ?`,
      [from, to],
    );
    return BigInt(row?.r ?? '0');
  }

  /**
   * Records a movement of the pool's ledger: written by the indexer from the pool contract's
   * events (Deposit, Withdraw, ticket results), and by tests that need a pool in a given state.
   */
  async recordMovement(m: {
    account: string | null;
    kind: 'deposit' | 'withdraw' | 'result';
    assets: bigint;
    shares: bigint;
    at: Date;
  }) {
    await this.direct('insert into lp_movements (account, kind, assets, shares, at) values (?, ?, ?, ?, ?)', [
      m.account?.toLowerCase() ?? null,
      m.kind,
      m.assets.toString(),
      m.shares.toString(),
      m.at,
    ]);
  }

  private async cashIn(sql: SqlExec): Promise<bigint> {
    const [row] = await sql<{ c: string }>(
      `select coalesce(sum(case kind when 'withdraw' then -assets else assets end), 0)::text as c from lp_movements`,
    );
    return BigInt(row?.c ?? '0');
  }
}

interface QuoteSqlRow {
  id: string;
  bettor: string;
  nonce: string;
  stake: string;
  fee: string;
  odds: string;
  payout: string;
  exposure: string;
  expected_liability: string;
  legs: unknown;
  typed_data: unknown;
  signature: string;
  status: 'quoted' | 'placed' | 'settled';
  expires_at: Date;
  created_at: Date;
}

const QUOTE_COLUMNS =
  'id, bettor, nonce::text as nonce, stake::text as stake, fee::text as fee, odds::text as odds, payout::text as payout, ' +
  'exposure::text as exposure, expected_liability::text as expected_liability, legs, typed_data, signature, status, expires_at, created_at';

function toQuote(r: QuoteSqlRow): StoredQuote {
  return {
    id: r.id,
    bettor: r.bettor,
    nonce: BigInt(r.nonce),
    stake: BigInt(r.stake),
    fee: BigInt(r.fee),
    odds: BigInt(r.odds),
    payout: BigInt(r.payout),
    exposure: BigInt(r.exposure),
    expectedLiability: BigInt(r.expected_liability),
    legs: r.legs,
    typedData: r.typed_data,
    signature: r.signature,
    status: r.status,
    expiresAt: new Date(r.expires_at),
    createdAt: new Date(r.created_at),
  };
}
