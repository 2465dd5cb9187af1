import type { Orm } from '../../platform/db/orm.js';
import { pgArray, sqlIn, type SqlExec } from '../../platform/db/sql.js';
import type { InviteFilter, InviteRecord, InviteStore, InviteUseRecord } from './platform-invite.types.js';

const COLUMNS = `id, code, owner_user_id, max_uses, uses, expires_at, note, batch_id, created_by, created_at,
  deactivated_at, deactivation_reason`;

interface Row {
  id: string;
  code: string;
  owner_user_id: string | null;
  max_uses: number;
  uses: number;
  expires_at: Date | null;
  note: string | null;
  batch_id: string | null;
  created_by: string;
  created_at: Date;
  deactivated_at: Date | null;
  deactivation_reason: string | null;
}

const toRecord = (r: Row): InviteRecord => ({
  id: r.id,
  code: r.code,
  ownerUserId: r.owner_user_id,
  maxUses: Number(r.max_uses),
  uses: Number(r.uses),
  expiresAt: r.expires_at ? new Date(r.expires_at) : null,
  note: r.note,
  batchId: r.batch_id,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at),
  deactivatedAt: r.deactivated_at ? new Date(r.deactivated_at) : null,
  deactivationReason: r.deactivation_reason,
});

/** The SQL condition of a state at `?` (the instant), and its parameters. */
function stateCondition(state: InviteFilter['state'], now: Date): [string, unknown[]] {
  switch (state) {
    case undefined:
      return ['true', []];
    case 'deactivated':
      return ['deactivated_at is not null', []];
    case 'expired':
      return ['deactivated_at is null and expires_at is not null and expires_at <= ?', [now]];
    case 'exhausted':
      return [
        'deactivated_at is null and (expires_at is null or expires_at > ?) and max_uses > 0 and uses >= max_uses',
        [now],
      ];
    case 'active':
      return [
        'deactivated_at is null and (expires_at is null or expires_at > ?) and (max_uses = 0 or uses < max_uses)',
        [now],
      ];
  }
}

/** Platform invite codes and their uses on PostgreSQL. */
export class PlatformInviteRepository implements InviteStore {
  constructor(private readonly orm: Orm) {}

  async userExists(userId: string): Promise<boolean> {
    return (await this.sql()('select 1 from users where id = ?', [userId])).length > 0;
  }

  async insertAll(invites: readonly InviteRecord[]): Promise<{ taken: string } | { ok: true }> {
    return this.orm.em
      .fork()
      .transactional(async (em) => {
        const sql = sqlIn(em);
        const taken = await sql<{ code: string }>(
          `select code from platform_invites where code_lower = any(?::text[])`,
          [pgArray(invites.map((i) => i.code.toLowerCase()))],
        );
        if (taken[0]) return { taken: taken[0].code };
        for (const i of invites) {
          const inserted = await sql(
            `insert into platform_invites (id, code, code_lower, owner_user_id, max_uses, uses, expires_at, note, batch_id,
             created_by, created_at) values (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)
           on conflict (code_lower) do nothing returning id`,
            [
              i.id,
              i.code,
              i.code.toLowerCase(),
              i.ownerUserId,
              i.maxUses,
              i.expiresAt,
              i.note,
              i.batchId,
              i.createdBy,
              i.createdAt,
            ],
          );
          // A concurrent insert took the code after the check: undo the batch, the caller picks others.
          if (inserted.length === 0) throw new CodeTaken(i.code);
        }
        return { ok: true as const };
      })
      .catch((err: unknown) => {
        if (err instanceof CodeTaken) return { taken: err.code };
        throw err;
      });
  }

  async byId(id: string): Promise<InviteRecord | undefined> {
    const [row] = await this.sql()<Row>(`select ${COLUMNS} from platform_invites where id = ?`, [id]);
    return row && toRecord(row);
  }

  async byCode(code: string): Promise<InviteRecord | undefined> {
    const [row] = await this.sql()<Row>(`select ${COLUMNS} from platform_invites where code_lower = lower(?)`, [code]);
    return row && toRecord(row);
  }

  async uses(inviteId: string): Promise<InviteUseRecord[]> {
    const rows = await this.sql()<{ user_id: string; username: string | null; managed_address: string; used_at: Date }>(
      `select u.user_id, us.username, us.managed_address, u.used_at from platform_invite_uses u
         join users us on us.id = u.user_id where u.invite_id = ? order by u.used_at, u.id`,
      [inviteId],
    );
    return rows.map((r) => ({
      userId: r.user_id,
      username: r.username,
      address: r.managed_address,
      usedAt: new Date(r.used_at),
    }));
  }

  async deactivate(ids: readonly string[], by: string, reason: string | null, at: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await this.sql()(
      `update platform_invites set deactivated_at = ?, deactivated_by = ?, deactivation_reason = ?
        where id = any(?::uuid[]) and deactivated_at is null returning id`,
      [at, by, reason, pgArray(ids)],
    );
    return rows.length;
  }

  async ownedBy(userId: string): Promise<InviteRecord[]> {
    const rows = await this.sql()<Row>(
      `select ${COLUMNS} from platform_invites where owner_user_id = ? order by created_at desc, id desc`,
      [userId],
    );
    return rows.map(toRecord);
  }

  async page(filter: InviteFilter, limit: number, offset: number) {
    const [state, stateParams] = stateCondition(filter.state, filter.now);
    const where = `(cast(? as uuid) is null or owner_user_id = ?) and (cast(? as text) is null or code_lower like ?) and ${state}`;
    const prefix = filter.codePrefix ? `${filter.codePrefix.toLowerCase().replace(/[%_\\]/g, '\\$&')}%` : null;
    const params = [filter.ownerUserId ?? null, filter.ownerUserId ?? null, prefix, prefix, ...stateParams];
    const rows = await this.sql()<Row>(
      `select ${COLUMNS} from platform_invites where ${where} order by created_at desc, id desc limit ? offset ?`,
      [...params, limit, offset],
    );
    const [count] = await this.sql()<{ n: string }>(
      `select count(*)::text as n from platform_invites where ${where}`,
      params,
    );
    return { rows: rows.map(toRecord), total: Number(count?.n ?? 0) };
  }

  /**
   * Inside the sign-up's transaction: takes one use of the code if it still admits one at `now`
   * (the conditional update is the check, so two sign-ups never share the last use). False when it
   * does not.
   */
  async redeem(sql: SqlExec, inviteId: string, userId: string, useId: string, now: Date): Promise<boolean> {
    const taken = await sql(
      `update platform_invites set uses = uses + 1
        where id = ? and deactivated_at is null and (expires_at is null or expires_at > ?)
          and (max_uses = 0 or uses < max_uses) returning id`,
      [inviteId, now],
    );
    if (taken.length === 0) return false;
    await sql(`insert into platform_invite_uses (id, invite_id, user_id, used_at) values (?, ?, ?, ?)`, [
      useId,
      inviteId,
      userId,
      now,
    ]);
    return true;
  }

  private sql(): SqlExec {
    const conn = this.orm.em.fork().getConnection();
    return <T>(q: string, params: readonly unknown[] = []) => conn.execute<T[]>(q, [...params]);
  }
}

class CodeTaken extends Error {
  constructor(readonly code: string) {
    super(`invite code ${code} taken`);
  }
}
