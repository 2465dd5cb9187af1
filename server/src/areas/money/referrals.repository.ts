import type { Orm } from '../../platform/db/orm.js';

type Stack = 'usdc' | 'credits' | null;

/**
 * Every confirmed join through an invitation, with the referrer (the invitation's creator) and
 * what the referee traded in that market. `$stack` filters by the market's collateral.
 */
const REFS = `refs as (
  select lower(i.created_by_address) as referrer, lower(m.member_address) as referee, m.duel_id, m.invitation_id, m.joined_at,
         coalesce((select sum(t.collateral) from trades t
                    where t.duel_id = m.duel_id and lower(t.trader) = lower(m.member_address)), 0) as volume
    from duel_memberships m
    join duel_invitations i on i.id = m.invitation_id
    join duels d on d.duel_id = m.duel_id
   where m.via = 'invite' and m.chain_state = 'confirmed' and i.created_by_address is not null
     and (cast(? as text) is null or d.collateral_stack = ?))`;

const INVITES = `invites as (
  select lower(i.created_by_address) as referrer, count(*) as created from duel_invitations i join duels d on d.duel_id = i.duel_id
   where i.created_by_address is not null and (cast(? as text) is null or d.collateral_stack = ?)
   group by lower(i.created_by_address))`;

export interface RefereeRecord {
  address: string;
  invitations: string;
  duels: string;
  volume: string;
  first_joined_at: Date;
}

export interface TotalsRecord {
  referees: string;
  invitations_created: string;
  invitation_uses: string;
  invite_volume: string;
}

export interface ReferrerRecord extends TotalsRecord {
  referrer: string;
}

export interface CreatedMarketRecord {
  duel_id: string;
  question: string;
  status: string;
  collateral_stack: 'usdc' | 'credits';
  is_private: boolean;
  volume: string;
  participants: string;
  created_at: Date;
}

export interface CreationTotalsRecord {
  markets: string;
  open: string;
  settled: string;
  cancelled: string;
  private: string;
  volume: string;
  invitations_created: string;
}

/** SQL aggregates over the indexed read model (memberships, invitations, trades, duels). */
export class ReferralsRepository {
  constructor(private readonly orm: Orm) {}

  referees(referrer: string, stack: Stack, limit: number, offset: number): Promise<RefereeRecord[]> {
    return this.run<RefereeRecord>(
      `with ${REFS}
       select min(r.referee) as address, count(distinct r.invitation_id)::text as invitations,
              count(distinct r.duel_id)::text as duels, sum(r.volume)::text as volume, min(r.joined_at) as first_joined_at
         from refs r where r.referrer = lower(?)
        group by r.referee order by sum(r.volume) desc, r.referee limit ? offset ?`,
      [stack, stack, referrer, limit, offset],
    );
  }

  async totals(referrer: string, stack: Stack): Promise<TotalsRecord> {
    const [row] = await this.run<TotalsRecord>(
      `with ${REFS}, ${INVITES}
       select (select count(distinct referee) from refs where referrer = lower(?))::text as referees,
              coalesce((select created from invites where referrer = lower(?)), 0)::text as invitations_created,
              (select count(*) from refs where referrer = lower(?))::text as invitation_uses,
              coalesce((select sum(volume) from refs where referrer = lower(?)), 0)::text as invite_volume`,
      [stack, stack, stack, stack, referrer, referrer, referrer, referrer],
    );
    return row ?? { referees: '0', invitations_created: '0', invitation_uses: '0', invite_volume: '0' };
  }

  async referrers(stack: Stack, limit: number, offset: number): Promise<{ rows: ReferrerRecord[]; total: number }> {
    const rows = await this.run<ReferrerRecord>(
      `with ${REFS}, ${INVITES}
       select r.referrer, count(distinct r.referee)::text as referees, coalesce(max(i.created), 0)::text as invitations_created,
              count(*)::text as invitation_uses, sum(r.volume)::text as invite_volume
         from refs r left join invites i on i.referrer = r.referrer
        group by r.referrer order by sum(r.volume) desc, r.referrer limit ? offset ?`,
      [stack, stack, stack, stack, limit, offset],
    );
    const [count] = await this.run<{ n: string }>(`with ${REFS} select count(distinct referrer)::text as n from refs`, [
      stack,
      stack,
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  async summary(stack: Stack): Promise<TotalsRecord & { referrers: string }> {
    const [row] = await this.run<TotalsRecord & { referrers: string }>(
      `with ${REFS}, ${INVITES}
       select (select count(distinct referrer) from refs)::text as referrers,
              (select count(distinct referee) from refs)::text as referees,
              coalesce((select sum(created) from invites), 0)::text as invitations_created,
              (select count(*) from refs)::text as invitation_uses,
              coalesce((select sum(volume) from refs), 0)::text as invite_volume`,
      [stack, stack, stack, stack],
    );
    return row ?? { referrers: '0', referees: '0', invitations_created: '0', invitation_uses: '0', invite_volume: '0' };
  }

  createdMarkets(address: string, stack: Stack, limit: number, offset: number): Promise<CreatedMarketRecord[]> {
    return this.run<CreatedMarketRecord>(
      `select d.duel_id, d.question, d.status, d.collateral_stack, d.is_private,
              coalesce((select sum(t.collateral) from trades t where t.duel_id = d.duel_id), 0)::text as volume,
              (select count(distinct t.trader) from trades t where t.duel_id = d.duel_id)::text as participants, d.created_at
         from duels d
        where lower(d.creator_address) = lower(?) and (cast(? as text) is null or d.collateral_stack = ?)
        order by d.created_at desc, d.duel_id desc limit ? offset ?`,
      [address, stack, stack, limit, offset],
    );
  }

  async creationTotals(address: string, stack: Stack): Promise<CreationTotalsRecord> {
    const [row] = await this.run<CreationTotalsRecord>(
      `select count(*)::text as markets,
              count(*) filter (where d.status not in ('settled', 'cancelled'))::text as open,
              count(*) filter (where d.status = 'settled')::text as settled,
              count(*) filter (where d.status = 'cancelled')::text as cancelled,
              count(*) filter (where d.is_private)::text as private,
              coalesce(sum((select sum(t.collateral) from trades t where t.duel_id = d.duel_id)), 0)::text as volume,
              (select count(*) from duel_invitations i join duels x on x.duel_id = i.duel_id
                where lower(i.created_by_address) = lower(?) and (cast(? as text) is null or x.collateral_stack = ?))::text
                as invitations_created
         from duels d
        where lower(d.creator_address) = lower(?) and (cast(? as text) is null or d.collateral_stack = ?)`,
      [address, stack, stack, address, stack, stack],
    );
    return (
      row ?? {
        markets: '0',
        open: '0',
        settled: '0',
        cancelled: '0',
        private: '0',
        volume: '0',
        invitations_created: '0',
      }
    );
  }

  private run<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return this.orm.em
      .fork()
      .getConnection()
      .execute<T[]>(sql, [...params]);
  }
}
