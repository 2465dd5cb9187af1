import type { Orm } from '../../platform/db/orm.js';
import { pgArray } from '../../platform/db/sql.js';
import type { ParentMarketInvitationRow, ParentMarketMemberRow, ParentMarketRow } from './parent-market.entity.js';

const PARENT = `"id", "builder_app_id" as "builderAppId", "creator_user_id" as "creatorUserId", "creator_address" as "creatorAddress",
  "question", "description", "category", "tags", "cover_image_url" as "coverImageUrl", "is_private" as "isPrivate",
  "group_kind" as "groupKind", "created_at" as "createdAt"`;

const INVITATION = `"id", "parent_market_id" as "parentMarketId", "code", "code_hash" as "codeHash", "max_uses" as "maxUses",
  "uses", "expires_at" as "expiresAt", "revoked_at" as "revokedAt", "created_by_user_id" as "createdByUserId",
  "created_at" as "createdAt"`;

const USABLE = `"revoked_at" is null and ("expires_at" is null or "expires_at" > now()) and ("max_uses" = 0 or "uses" < "max_uses")`;

/** Parents the address may see: public ones, and private ones it created, joined, or belongs to a sub-market of. */
const ACCESSIBLE = `from "parent_markets" p
  where not p."is_private" or p."creator_address" = ?
     or exists (select 1 from "parent_market_members" m where m."parent_market_id" = p."id" and m."member_address" = ?)
     or exists (select 1 from "duels" d join "duel_memberships" dm on dm."duel_id" = d."duel_id"
                 where d."parent_market_id" = p."id" and dm."member_address" = ? and dm."removed_at" is null)`;

/** A sub-market's identity, for visibility decisions before the full rows are read. */
export interface ChildRef {
  parentMarketId: string;
  duelId: string;
  isPrivate: boolean;
  creatorAddress: string;
  chainState: 'pending' | 'confirmed' | 'failed';
}

export type NewParentMarket = Omit<ParentMarketRow, 'createdAt'>;

export class ParentMarketRepository {
  constructor(private readonly orm: Orm) {}

  async insert(p: NewParentMarket): Promise<ParentMarketRow> {
    const [row] = await this.sql<ParentMarketRow>(
      `insert into "parent_markets" ("id", "builder_app_id", "creator_user_id", "creator_address", "question", "description",
         "category", "tags", "cover_image_url", "is_private", "group_kind", "created_at")
       values (?, ?, ?, ?, ?, ?, ?, ?::text[], ?, ?, ?, now())
       on conflict ("id") do update set "id" = excluded."id" returning ${PARENT}`,
      [
        p.id,
        p.builderAppId,
        p.creatorUserId,
        p.creatorAddress,
        p.question,
        p.description,
        p.category,
        pgArray(p.tags),
        p.coverImageUrl,
        p.isPrivate,
        p.groupKind,
      ],
    );
    return row as ParentMarketRow;
  }

  async delete(id: string): Promise<void> {
    await this.sql('delete from "parent_markets" where "id" = ?', [id]);
  }

  async byId(id: string): Promise<ParentMarketRow | null> {
    const [row] = await this.sql<ParentMarketRow>(`select ${PARENT} from "parent_markets" where "id" = ?`, [id]);
    return row ?? null;
  }

  /** Sub-markets of the given parents, oldest first. */
  async children(parentIds: readonly string[]): Promise<ChildRef[]> {
    if (!parentIds.length) return [];
    return this.sql<ChildRef>(
      `select "parent_market_id" as "parentMarketId", "duel_id" as "duelId", "is_private" as "isPrivate",
          "creator_address" as "creatorAddress", "chain_state" as "chainState"
         from "duels" where "parent_market_id" = any(?::uuid[]) order by "created_at", "id"`,
      [`{${parentIds.join(',')}}`],
    );
  }

  /** Makes a market without a parent a child of `parentId`; false when it already has a parent. */
  async attachChild(parentId: string, duelId: string): Promise<boolean> {
    const rows = await this.sql(
      'update "duels" set "parent_market_id" = ? where "duel_id" = ? and "parent_market_id" is null returning "duel_id"',
      [parentId, duelId],
    );
    return rows.length > 0;
  }

  async accessiblePage(address: string, page: number, limit: number): Promise<ParentMarketRow[]> {
    return this.sql<ParentMarketRow>(
      `select ${PARENT} ${ACCESSIBLE}
        order by p."created_at" desc, p."id" desc limit ? offset ?`,
      [address, address, address, limit, (page - 1) * limit],
    );
  }

  async accessibleCount(address: string): Promise<number> {
    const [row] = await this.sql<{ n: number }>(`select count(*)::int as "n" ${ACCESSIBLE}`, [
      address,
      address,
      address,
    ]);
    return row?.n ?? 0;
  }

  async insertInvitation(inv: Omit<ParentMarketInvitationRow, 'uses' | 'revokedAt' | 'createdAt'>) {
    const [row] = await this.sql<ParentMarketInvitationRow>(
      `insert into "parent_market_invitations" ("id", "parent_market_id", "code", "code_hash", "max_uses", "uses", "expires_at",
         "created_by_user_id", "created_at")
       values (?, ?, ?, ?, ?, 0, ?, ?, now()) returning ${INVITATION}`,
      [inv.id, inv.parentMarketId, inv.code, inv.codeHash, inv.maxUses, inv.expiresAt, inv.createdByUserId],
    );
    return row as ParentMarketInvitationRow;
  }

  async invitationByHash(codeHash: string): Promise<ParentMarketInvitationRow | null> {
    const [row] = await this.sql<ParentMarketInvitationRow>(
      `select ${INVITATION} from "parent_market_invitations" where "code_hash" = ?`,
      [codeHash.toLowerCase()],
    );
    return row ?? null;
  }

  async activeInvitations(parentId: string): Promise<ParentMarketInvitationRow[]> {
    return this.sql<ParentMarketInvitationRow>(
      `select ${INVITATION} from "parent_market_invitations" where "parent_market_id" = ? and ${USABLE}
        order by "created_at", "id"`,
      [parentId],
    );
  }

  /** Takes one use atomically (see InvitationRepository.reserveUse). */
  async reserveUse(id: string): Promise<ParentMarketInvitationRow | null> {
    const [row] = await this.sql<ParentMarketInvitationRow>(
      `update "parent_market_invitations" set "uses" = "uses" + 1 where "id" = ? and ${USABLE} returning ${INVITATION}`,
      [id],
    );
    return row ?? null;
  }

  async releaseUse(id: string): Promise<void> {
    await this.sql('update "parent_market_invitations" set "uses" = "uses" - 1 where "id" = ? and "uses" > 0', [id]);
  }

  async isMember(parentId: string, address: string): Promise<boolean> {
    const rows = await this.sql(
      'select 1 from "parent_market_members" where "parent_market_id" = ? and "member_address" = ?',
      [parentId, address],
    );
    return rows.length > 0;
  }

  async addMember(m: Omit<ParentMarketMemberRow, 'joinedAt'>): Promise<void> {
    await this.sql(
      `insert into "parent_market_members" ("parent_market_id", "member_address", "user_id", "invitation_id", "joined_at")
       values (?, ?, ?, ?, now()) on conflict ("parent_market_id", "member_address") do nothing`,
      [m.parentMarketId, m.memberAddress, m.userId, m.invitationId],
    );
  }

  async members(parentId: string): Promise<ParentMarketMemberRow[]> {
    return this.sql<ParentMarketMemberRow>(
      `select "parent_market_id" as "parentMarketId", "member_address" as "memberAddress", "user_id" as "userId",
          "invitation_id" as "invitationId", "joined_at" as "joinedAt"
         from "parent_market_members" where "parent_market_id" = ? order by "joined_at", "member_address"`,
      [parentId],
    );
  }

  private sql<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
    return this.orm.em.fork().getConnection().execute<T[]>(sql, params);
  }
}
