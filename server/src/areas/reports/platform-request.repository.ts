import { randomUUID } from 'node:crypto';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn, type SqlExec } from '../../platform/db/sql.js';
import { REPORTS } from './report.columns.js';
import { toWire } from './report.service.js';

export interface NewRequest {
  readonly id: string;
  readonly kind: 'creator' | 'league' | 'token';
  readonly userId: string;
  readonly builderAppId: string;
  readonly subject: string;
  readonly message: string | null;
  readonly leagueId: string | null;
  readonly tokenName: string | null;
  readonly tokenSymbol: string | null;
  readonly createdAt: Date;
}

export interface Decision {
  readonly approve: boolean;
  readonly by: string;
  readonly reason: string | null;
  readonly tokenAddress: string | null;
  readonly at: Date;
}

/** Creator, league and token requests, league memberships and launched tokens; daily PnL snapshots. */
export class PlatformRequestRepository {
  constructor(private readonly orm: Orm) {}

  async pendingOf(userId: string, kind: string, subject: string): Promise<string | undefined> {
    const [row] = await this.sql()<{ id: string }>(
      `select id from platform_requests where user_id = ? and kind = ? and subject = ? and status = 'pending'`,
      [userId, kind, subject],
    );
    return row?.id;
  }

  async insert(r: NewRequest): Promise<void> {
    await this.sql()(
      `insert into platform_requests (id, kind, user_id, builder_app_id, subject, status, message, league_id, token_name,
         token_symbol, created_at) values (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)`,
      [
        r.id,
        r.kind,
        r.userId,
        r.builderAppId,
        r.subject,
        r.message,
        r.leagueId,
        r.tokenName,
        r.tokenSymbol,
        r.createdAt,
      ],
    );
  }

  /** The request as the reports show it. */
  async view(id: string): Promise<Record<string, unknown> | undefined> {
    const def = REPORTS['creator-requests'];
    const columns = Object.entries(def.columns).map(([name, [expr]]) => `${expr} as "${name}"`);
    const [row] = await this.sql()<Record<string, unknown>>(
      `select ${columns.join(', ')} from platform_requests r join users u on u.id = r.user_id where r.id = ?`,
      [id],
    );
    return row && toWire(def, row);
  }

  /**
   * Decides a pending request and records what an approval admits, in one transaction: false when
   * it is not pending any more (decided once).
   */
  async decide(id: string, d: Decision): Promise<boolean> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const [r] = await sql<{
        kind: string;
        user_id: string;
        league_id: string | null;
        token_name: string;
        token_symbol: string;
      }>(
        `update platform_requests set status = ?, decided_by = ?, decided_at = ?, decision_reason = ?
          where id = ? and status = 'pending' returning kind, user_id, league_id, token_name, token_symbol`,
        [d.approve ? 'approved' : 'rejected', d.by, d.at, d.reason, id],
      );
      if (!r) return false;
      if (d.approve && r.kind === 'league') {
        await sql(
          `insert into league_memberships (league_id, user_id, request_id, joined_at) values (?, ?, ?, ?)
           on conflict do nothing`,
          [r.league_id, r.user_id, id, d.at],
        );
      }
      if (d.approve && r.kind === 'token') {
        await sql(
          `insert into launched_tokens (id, request_id, user_id, name, symbol, token_address, launched_by, launched_at)
           values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (request_id) do nothing`,
          [randomUUID(), id, r.user_id, r.token_name, r.token_symbol, d.tokenAddress, d.by, d.at],
        );
      }
      return true;
    });
  }

  async statusOf(id: string): Promise<string | undefined> {
    const [row] = await this.sql()<{ status: string }>('select status from platform_requests where id = ?', [id]);
    return row?.status;
  }

  /**
   * Every trader's totals up to `at` as the snapshot of `day`: written once per holder and day, and
   * rewritten by a later run of the same day (the key is the day, the figures the latest).
   */
  async snapshotPnl(day: string, at: Date): Promise<number> {
    const rows = await this.sql()(
      `insert into pnl_snapshots (holder, day, invested, returned, open_cost_basis, trades, snapshot_at)
       select t.trader, ?::date,
              coalesce(sum(t.collateral) filter (where t.side = 'buy'), 0),
              coalesce(sum(t.collateral) filter (where t.side = 'sell'), 0),
              coalesce((select sum(p.cost_basis) from positions p where p.holder = t.trader), 0),
              count(*), ?
         from trades t where t.created_at < ? group by t.trader
       on conflict (holder, day) do update set invested = excluded.invested, returned = excluded.returned,
              open_cost_basis = excluded.open_cost_basis, trades = excluded.trades, snapshot_at = excluded.snapshot_at
       returning holder`,
      [day, at, at],
    );
    return rows.length;
  }

  private sql(): SqlExec {
    const conn = this.orm.em.fork().getConnection();
    return <T>(q: string, params: readonly unknown[] = []) => conn.execute<T[]>(q, [...params]);
  }
}
