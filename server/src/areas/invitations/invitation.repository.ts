import type { SqlExec } from '../../platform/db/sql.js';
import { sqlIn } from '../../platform/db/sql.js';
import type { Orm } from '../../platform/db/orm.js';
import type { DuelInvitationRow, DuelMembershipRow, MembershipVia } from './invitation.entity.js';

const INVITATION = `"id", "duel_id" as "duelId", "code", "code_hash" as "codeHash", "max_uses" as "maxUses", "uses",
  "expires_at" as "expiresAt", "revoked_at" as "revokedAt", "created_by_user_id" as "createdByUserId",
  "created_by_address" as "createdByAddress", "created_at" as "createdAt", "tx_hash" as "txHash", "chain_state" as "chainState"`;

const MEMBERSHIP = `"duel_id" as "duelId", "member_address" as "memberAddress", "user_id" as "userId", "via",
  "invitation_id" as "invitationId", "tx_hash" as "txHash", "chain_state" as "chainState", "use_counted" as "useCounted",
  "joined_at" as "joinedAt", "removed_at" as "removedAt", "event_block"::text as "eventBlock",
  "event_log_index" as "eventLogIndex"`;

/** The SQL condition of a usable invitation (not revoked, not expired, uses left). */
const USABLE = `"revoked_at" is null and ("expires_at" is null or "expires_at" > now()) and ("max_uses" = 0 or "uses" < "max_uses")`;

export interface NewInvitation {
  id: string;
  duelId: string;
  code: string;
  codeHash: string;
  maxUses: number;
  expiresAt: Date | null;
  createdByUserId: string;
  createdByAddress: string;
}

export interface JoinRecord {
  duelId: string;
  memberAddress: string;
  userId: string | null;
  via: MembershipVia;
  invitationId: string | null;
  txHash: string | null;
  /** Whether this join already took a use of its invitation (reserved before the transaction). */
  useCounted: boolean;
  chainState: 'pending' | 'confirmed';
}

/**
 * Invitations and memberships of private duels. Duel ids are stored lower-case, addresses in
 * EIP-55 form; callers normalise.
 */
export class InvitationRepository {
  constructor(private readonly orm: Orm) {}

  async insertInvitation(inv: NewInvitation): Promise<DuelInvitationRow> {
    const [row] = await this.sql<DuelInvitationRow>(
      `insert into "duel_invitations" ("id", "duel_id", "code", "code_hash", "max_uses", "uses", "expires_at",
         "created_by_user_id", "created_by_address", "created_at", "chain_state")
       values (?, ?, ?, ?, ?, 0, ?, ?, ?, now(), 'pending') returning ${INVITATION}`,
      [
        inv.id,
        inv.duelId,
        inv.code,
        inv.codeHash,
        inv.maxUses,
        inv.expiresAt,
        inv.createdByUserId,
        inv.createdByAddress,
      ],
    );
    return row as DuelInvitationRow;
  }

  /** Links an invitation to its creation, inside the transaction that records the write. */
  async setInvitationTx(sql: SqlExec, id: string, txHash: string): Promise<void> {
    await sql('update "duel_invitations" set "tx_hash" = ? where "id" = ?', [txHash, id]);
  }

  /** Drops an invitation the chain refused (only while nothing confirmed it). */
  async deletePendingInvitation(id: string): Promise<void> {
    await this.sql(`delete from "duel_invitations" where "id" = ? and "chain_state" = 'pending'`, [id]);
  }

  async invitationByHash(codeHash: string): Promise<DuelInvitationRow | null> {
    const [row] = await this.sql<DuelInvitationRow>(
      `select ${INVITATION} from "duel_invitations" where "code_hash" = ?`,
      [codeHash.toLowerCase()],
    );
    return row ?? null;
  }

  async activeInvitations(duelId: string): Promise<DuelInvitationRow[]> {
    return this.sql<DuelInvitationRow>(
      `select ${INVITATION} from "duel_invitations" where "duel_id" = ? and ${USABLE} order by "created_at", "id"`,
      [duelId.toLowerCase()],
    );
  }

  /**
   * Takes one use of the invitation if it is usable, atomically: concurrent joins serialise on the
   * row, so at most `max_uses` of them ever get a row back.
   */
  async reserveUse(id: string): Promise<DuelInvitationRow | null> {
    const [row] = await this.sql<DuelInvitationRow>(
      `update "duel_invitations" set "uses" = "uses" + 1 where "id" = ? and ${USABLE} returning ${INVITATION}`,
      [id],
    );
    return row ?? null;
  }

  /** Gives back a use the chain did not take. */
  async releaseUse(id: string): Promise<void> {
    await this.sql('update "duel_invitations" set "uses" = "uses" - 1 where "id" = ? and "uses" > 0', [id]);
  }

  /** Marks revoked now; null when it already was. */
  async revoke(id: string): Promise<Date | null> {
    const [row] = await this.sql<{ revokedAt: Date }>(
      `update "duel_invitations" set "revoked_at" = now() where "id" = ? and "revoked_at" is null returning "revoked_at" as "revokedAt"`,
      [id],
    );
    return row?.revokedAt ?? null;
  }

  async unrevoke(id: string): Promise<void> {
    await this.sql('update "duel_invitations" set "revoked_at" = null where "id" = ?', [id]);
  }

  async membership(duelId: string, memberAddress: string): Promise<DuelMembershipRow | null> {
    const [row] = await this.sql<DuelMembershipRow>(
      `select ${MEMBERSHIP} from "duel_memberships" where "duel_id" = ? and "member_address" = ?`,
      [duelId.toLowerCase(), memberAddress],
    );
    return row ?? null;
  }

  async isActiveMember(duelId: string, memberAddress: string): Promise<boolean> {
    const rows = await this.sql(
      `select 1 from "duel_memberships" where "duel_id" = ? and "member_address" = ? and "removed_at" is null`,
      [duelId.toLowerCase(), memberAddress],
    );
    return rows.length > 0;
  }

  /**
   * Records a join the API just sent (or verified). A row the indexer already confirmed for the
   * same transaction stays confirmed; any other state is replaced by this newer operation.
   */
  async recordJoin(j: JoinRecord): Promise<DuelMembershipRow> {
    const [row] = await this.sql<DuelMembershipRow>(
      `insert into "duel_memberships" ("duel_id", "member_address", "user_id", "via", "invitation_id", "tx_hash", "chain_state",
         "use_counted", "joined_at", "removed_at")
       values (?, ?, ?, ?, ?, ?, ?, ?, now(), null)
       on conflict ("duel_id", "member_address") do update set
         "user_id" = coalesce(excluded."user_id", "duel_memberships"."user_id"),
         "via" = excluded."via",
         "invitation_id" = excluded."invitation_id",
         "use_counted" = excluded."use_counted" or ("duel_memberships"."use_counted" and "duel_memberships"."tx_hash" is not distinct from excluded."tx_hash"),
         "joined_at" = case when "duel_memberships"."removed_at" is null then "duel_memberships"."joined_at" else now() end,
         "removed_at" = null,
         "chain_state" = case when "duel_memberships"."tx_hash" is not distinct from excluded."tx_hash"
                              then (case when "duel_memberships"."chain_state" = 'confirmed' then 'confirmed' else excluded."chain_state" end)
                              else excluded."chain_state" end,
         "tx_hash" = excluded."tx_hash"
       returning ${MEMBERSHIP}`,
      [
        j.duelId.toLowerCase(),
        j.memberAddress,
        j.userId,
        j.via,
        j.invitationId,
        j.txHash?.toLowerCase() ?? null,
        j.chainState,
        j.useCounted,
      ],
    );
    return row as DuelMembershipRow;
  }

  /** Records a removal the API just sent. */
  async recordRemoval(duelId: string, memberAddress: string, txHash: string): Promise<void> {
    await this.sql(
      `insert into "duel_memberships" ("duel_id", "member_address", "via", "tx_hash", "chain_state", "joined_at", "removed_at")
       values (?, ?, 'added', ?, 'pending', now(), now())
       on conflict ("duel_id", "member_address") do update set "removed_at" = now(), "tx_hash" = excluded."tx_hash",
         "chain_state" = 'pending'`,
      [duelId.toLowerCase(), memberAddress, txHash.toLowerCase()],
    );
  }

  /**
   * Counts a verified frontend join in its invitation's uses, once: the membership's flag flips in
   * the same transaction as the counter.
   */
  async countUseOnce(duelId: string, memberAddress: string, invitationId: string): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      const flipped = await sqlIn(em)(
        `update "duel_memberships" set "use_counted" = true, "invitation_id" = ?
          where "duel_id" = ? and "member_address" = ? and not "use_counted" returning 1`,
        [invitationId, duelId.toLowerCase(), memberAddress],
      );
      if (flipped.length) {
        await sqlIn(em)('update "duel_invitations" set "uses" = "uses" + 1 where "id" = ?', [invitationId]);
      }
    });
  }

  async membershipsOf(memberAddress: string, page: number, limit: number): Promise<DuelMembershipRow[]> {
    return this.sql<DuelMembershipRow>(
      `select ${MEMBERSHIP} from "duel_memberships" where "member_address" = ? and "removed_at" is null
        order by "joined_at" desc, "duel_id" desc limit ? offset ?`,
      [memberAddress, limit, (page - 1) * limit],
    );
  }

  async countMembershipsOf(memberAddress: string): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "duel_memberships" where "member_address" = ? and "removed_at" is null`,
      [memberAddress],
    );
    return row?.n ?? 0;
  }

  private sql<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
    return this.orm.em.fork().getConnection().execute<T[]>(sql, params);
  }
}
