import { randomUUID } from 'node:crypto';
import type { ContestWithAddress } from '@duelkit/contract';
import { getAddress } from 'viem';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn } from '../../platform/db/sql.js';
import { CONTEST_OPENED_SQL } from '../markets/market-events.sql.js';

/** A `duel_contests` row as raw SQL returns it. */
export interface ContestRow {
  id: string;
  duel_id: string;
  user_address: string;
  reason: string;
  proposed_option_index: number | null;
  created_at: Date;
}

export function toContest(row: ContestRow): ContestWithAddress {
  return {
    id: row.id,
    duelId: row.duel_id,
    userAddress: getAddress(row.user_address),
    reason: row.reason,
    proposedOptionIndex: row.proposed_option_index,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export interface NewContest {
  readonly duelId: string;
  readonly userAddress: string;
  readonly userId: string;
  readonly reason: string;
  readonly proposedOptionIndex: number | null;
}

/** Contests of market resolutions (`duel_contests`) and the reads resolution needs around them. */
export class ContestRepository {
  constructor(private readonly orm: Orm) {}

  /**
   * The new contest, or null when this participant already contested the market; its
   * `duel.contest_opened` event is written in the same transaction, dated `at`.
   */
  async insert(c: NewContest, at: Date): Promise<ContestWithAddress | null> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const [row] = await sql<ContestRow>(
        `insert into duel_contests (id, duel_id, user_address, user_id, reason, proposed_option_index, created_at)
         values (?, ?, ?, ?, ?, ?, now()) on conflict (duel_id, user_address) do nothing returning *`,
        [randomUUID(), c.duelId, getAddress(c.userAddress), c.userId, c.reason, c.proposedOptionIndex],
      );
      if (!row) return null;
      await sql(CONTEST_OPENED_SQL, [at, row.id]);
      return toContest(row);
    });
  }

  async byParticipant(duelId: string, address: string): Promise<ContestWithAddress | null> {
    const [row] = await this.conn().execute<ContestRow[]>(
      'select * from duel_contests where duel_id = ? and user_address = ?',
      [duelId, getAddress(address)],
    );
    return row ? toContest(row) : null;
  }

  /** A page of a market's contests, newest first, and their total. */
  async page(duelId: string, limit: number, offset: number): Promise<{ rows: ContestWithAddress[]; total: number }> {
    const conn = this.conn();
    const [rows, [count]] = await Promise.all([
      conn.execute<ContestRow[]>(
        'select * from duel_contests where duel_id = ? order by created_at desc, id desc limit ? offset ?',
        [duelId, limit, offset],
      ),
      conn.execute<{ n: number }[]>('select count(*)::int as n from duel_contests where duel_id = ?', [duelId]),
    ]);
    return { rows: rows.map(toContest), total: count?.n ?? 0 };
  }

  async count(duelId: string): Promise<number> {
    const [row] = await this.conn().execute<{ n: number }[]>(
      'select count(*)::int as n from duel_contests where duel_id = ?',
      [duelId],
    );
    return row?.n ?? 0;
  }

  /** Markets in their contest period that ended by `now` with no contest filed, oldest first. */
  async uncontestedDue(now: Date, limit: number): Promise<string[]> {
    const rows = await this.conn().execute<{ duel_id: string }[]>(
      `select d.duel_id from duels d
        where d.status = 'pending_contest' and d.chain_state = 'confirmed' and d.contest_ends_at <= ?
          and not exists (select 1 from duel_contests c where c.duel_id = d.duel_id)
        order by d.contest_ends_at limit ?`,
      [now, limit],
    );
    return rows.map((r) => r.duel_id);
  }

  /** Whether `address` traded the market or holds shares of it. */
  async isParticipant(duelId: string, address: string): Promise<boolean> {
    const holder = getAddress(address);
    const rows = await this.conn().execute<{ one: number }[]>(
      `select 1 as one from trades where duel_id = ? and trader = ?
       union all select 1 from positions where duel_id = ? and holder = ? and shares > 0 limit 1`,
      [duelId, holder, duelId, holder],
    );
    return rows.length > 0;
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
