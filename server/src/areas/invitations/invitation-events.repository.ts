import type { EntityManager } from '@mikro-orm/postgresql';
import { getAddress, zeroHash } from 'viem';
import type { MarketEvent } from '../../adapters/chain/chain.port.js';
import type { MarketEventSink } from '../markets/market-indexer.js';
import { sqlIn } from '../../platform/db/sql.js';

type MemberEvent = Extract<MarketEvent, { kind: 'member_added' | 'member_removed' }>;

/**
 * The invitation and membership rows the indexer's events write (a repository: every statement of
 * the sink is here). Applies invitation and membership events inside the indexer's transaction. Idempotent: each
 * membership row remembers the position (block, log index) of the last event applied to it and
 * ignores anything not newer, and an API write still waiting for its own transaction is not
 * overwritten by an older event.
 */
export class InvitationEventSink implements MarketEventSink {
  async apply(em: EntityManager, e: MarketEvent): Promise<void> {
    const sql = sqlIn(em);
    const duelId = e.duelId.toLowerCase();
    switch (e.kind) {
      case 'created':
        // The creator is a member of their private market from creation (the chain sets it silently).
        await sql(
          `insert into "duel_memberships" ("duel_id", "member_address", "user_id", "via", "chain_state", "joined_at",
             "event_block", "event_log_index")
           select "duel_id", "creator_address", "creator_user_id", 'creator', 'confirmed', to_timestamp(?), ?, ?
             from "duels" where "duel_id" = ? and "is_private"
           on conflict ("duel_id", "member_address") do nothing`,
          [e.timestamp, e.blockNumber.toString(), e.logIndex, duelId],
        );
        return;
      case 'invite_created': {
        const confirmed = await sql(
          `update "duel_invitations" set "chain_state" = 'confirmed', "tx_hash" = coalesce("tx_hash", ?)
            where "duel_id" = ? and "code_hash" = ? returning 1`,
          [e.txHash.toLowerCase(), duelId, e.codeHash.toLowerCase()],
        );
        if (confirmed.length) return;
        // Created on chain directly (a frontend): only the hash is known, no code to list.
        await sql(
          `insert into "duel_invitations" ("id", "duel_id", "code", "code_hash", "max_uses", "uses", "expires_at",
             "created_by_address", "created_at", "tx_hash", "chain_state")
           select gen_random_uuid(), ?, null, ?, ?, 0, case when ? = 0 then null else to_timestamp(?) end,
             (select "creator_address" from "duels" where "duel_id" = ?), to_timestamp(?), ?, 'confirmed'
           on conflict ("code_hash") do nothing`,
          [
            duelId,
            e.codeHash.toLowerCase(),
            e.maxUses,
            e.expiresAt,
            e.expiresAt,
            duelId,
            e.timestamp,
            e.txHash.toLowerCase(),
          ],
        );
        return;
      }
      case 'invite_revoked':
        await sql(
          `update "duel_invitations" set "revoked_at" = coalesce("revoked_at", to_timestamp(?)), "chain_state" = 'confirmed'
            where "duel_id" = ? and "code_hash" = ?`,
          [e.timestamp, duelId, e.codeHash.toLowerCase()],
        );
        return;
      case 'member_added':
      case 'member_removed':
        await this.applyMember(em, duelId, e);
        return;
      default:
        return;
    }
  }

  private async applyMember(em: EntityManager, duelId: string, e: MemberEvent): Promise<void> {
    const sql = sqlIn(em);
    const member = getAddress(e.member);
    const txHash = e.txHash.toLowerCase();
    const [row] = await sql<{
      txHash: string | null;
      chainState: string;
      eventBlock: string | null;
      eventLogIndex: number | null;
    }>(
      `select "tx_hash" as "txHash", "chain_state" as "chainState", "event_block"::text as "eventBlock",
          "event_log_index" as "eventLogIndex"
         from "duel_memberships" where "duel_id" = ? and "member_address" = ? for update`,
      [duelId, member],
    );
    if (row?.eventBlock != null) {
      const block = BigInt(row.eventBlock);
      const seen = e.blockNumber < block || (e.blockNumber === block && e.logIndex <= (row.eventLogIndex ?? -1));
      if (seen) return; // a replay, or older than what the row already reflects
    }
    // The API sent a later operation that is not indexed yet: this older event must not undo it.
    if (row && row.chainState === 'pending' && row.txHash !== null && row.txHash !== txHash) return;
    const position = [e.blockNumber.toString(), e.logIndex];
    if (e.kind === 'member_removed') {
      await sql(
        `insert into "duel_memberships" ("duel_id", "member_address", "via", "tx_hash", "chain_state", "joined_at",
           "removed_at", "event_block", "event_log_index")
         values (?, ?, 'added', ?, 'confirmed', to_timestamp(?), to_timestamp(?), ?, ?)
         on conflict ("duel_id", "member_address") do update set "removed_at" = coalesce("duel_memberships"."removed_at", excluded."removed_at"),
           "tx_hash" = excluded."tx_hash", "chain_state" = 'confirmed', "event_block" = excluded."event_block",
           "event_log_index" = excluded."event_log_index"`,
        [duelId, member, txHash, e.timestamp, e.timestamp, ...position],
      );
      return;
    }
    const via = e.codeHash.toLowerCase() === zeroHash ? 'added' : 'invite';
    await sql(
      `insert into "duel_memberships" ("duel_id", "member_address", "user_id", "via", "invitation_id", "tx_hash", "chain_state",
         "joined_at", "removed_at", "event_block", "event_log_index")
       values (?, ?, (select "id" from "users" where "managed_address" = ? limit 1), ?,
         (select "id" from "duel_invitations" where "duel_id" = ? and "code_hash" = ?), ?, 'confirmed', to_timestamp(?), null, ?, ?)
       on conflict ("duel_id", "member_address") do update set
         "via" = case when "duel_memberships"."tx_hash" is not distinct from excluded."tx_hash" then "duel_memberships"."via" else excluded."via" end,
         "invitation_id" = case when "duel_memberships"."tx_hash" is not distinct from excluded."tx_hash"
                                then coalesce("duel_memberships"."invitation_id", excluded."invitation_id") else excluded."invitation_id" end,
         "joined_at" = case when "duel_memberships"."removed_at" is null then "duel_memberships"."joined_at" else excluded."joined_at" end,
         "removed_at" = null, "tx_hash" = excluded."tx_hash", "chain_state" = 'confirmed',
         "event_block" = excluded."event_block", "event_log_index" = excluded."event_log_index"`,
      [duelId, member, member, via, duelId, e.codeHash.toLowerCase(), txHash, e.timestamp, ...position],
    );
  }
}
