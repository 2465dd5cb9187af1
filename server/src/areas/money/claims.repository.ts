import { randomUUID } from 'node:crypto';
import type { Orm } from '../../platform/db/orm.js';
import type { SqlExec } from '../../platform/db/sql.js';
import type { CreatorFeeClaimStatus } from './creator-fee.entity.js';

type Stack = 'usdc' | 'credits';

export interface CreatorFeeMarketRow {
  duel_id: string;
  question: string;
  status: string;
  accrued: string;
  claim_status: CreatorFeeClaimStatus | null;
  claim_amount: string | null;
  claim_tx_hash: string | null;
}

export interface CreatorFeeTotals {
  total: number;
  accrued: string;
  claimable: string;
  paid: string;
}

export interface FeeClaimRow {
  duel_id: string;
  status: CreatorFeeClaimStatus;
  amount: string;
  tx_hash: string | null;
}

/** The read model behind claims: winners' markets, creators' fees and the fee-claim ledger. */
export class ClaimsRepository {
  constructor(private readonly orm: Orm) {}

  /** Settled markets where `holder` holds winning shares or is the creator, and is not recorded as paid. */
  async claimableWinnings(holder: string, limit: number): Promise<string[]> {
    const rows = await this.conn().execute<{ duel_id: string }[]>(
      `select d.duel_id from duels d
        where d.status = 'settled'
          and (lower(d.creator_address) = lower(?)
            or exists (select 1 from positions p where p.duel_id = d.duel_id and lower(p.holder) = lower(?)
                         and p.option_index = d.winning_option_index and p.shares > 0))
          and not exists (select 1 from duel_distributions x where x.duel_id = d.duel_id and x.kind = 'payout'
                            and lower(x.holder) = lower(?) and x.status = 'paid')
        order by d.resolved_at nulls last, d.duel_id limit ?`,
      [holder, holder, holder, limit],
    );
    return rows.map((r) => r.duel_id);
  }

  /** One page of the markets `creator` created in `stack`, newest first, with their fees and claim. */
  creatorFeeMarkets(creator: string, stack: Stack, limit: number, offset: number): Promise<CreatorFeeMarketRow[]> {
    return this.conn().execute<CreatorFeeMarketRow[]>(
      `select d.duel_id, d.question, d.status,
              coalesce((select sum(t.fee) from trades t where t.duel_id = d.duel_id), 0)::text as accrued,
              f.status as claim_status, f.amount::text as claim_amount, f.tx_hash as claim_tx_hash
         from duels d left join creator_fee_claims f on f.duel_id = d.duel_id
        where lower(d.creator_address) = lower(?) and d.collateral_stack = ?
        order by d.created_at desc, d.duel_id desc limit ? offset ?`,
      [creator, stack, limit, offset],
    );
  }

  async creatorFeeTotals(creator: string, stack: Stack): Promise<CreatorFeeTotals> {
    const [row] = await this.conn().execute<
      { total: string; accrued: string | null; claimable: string | null; paid: string | null }[]
    >(
      `with m as (
         select d.duel_id, d.status, f.status as claim_status, f.amount as claim_amount,
                coalesce((select sum(t.fee) from trades t where t.duel_id = d.duel_id), 0) as accrued
           from duels d left join creator_fee_claims f on f.duel_id = d.duel_id
          where lower(d.creator_address) = lower(?) and d.collateral_stack = ?)
       select count(*)::text as total, sum(accrued)::text as accrued,
              sum(case when status = 'settled' and claim_status is null then accrued else 0 end)::text as claimable,
              sum(case when claim_status = 'paid' then claim_amount else 0 end)::text as paid
         from m`,
      [creator, stack],
    );
    return {
      total: Number(row?.total ?? 0),
      accrued: row?.accrued ?? '0',
      claimable: row?.claimable ?? '0',
      paid: row?.paid ?? '0',
    };
  }

  /** Settled markets of `creator` in `stack` whose fees are not recorded as paid. */
  async claimableFeeMarkets(creator: string, stack: Stack, limit: number): Promise<string[]> {
    const rows = await this.conn().execute<{ duel_id: string }[]>(
      `select d.duel_id from duels d left join creator_fee_claims f on f.duel_id = d.duel_id
        where lower(d.creator_address) = lower(?) and d.collateral_stack = ? and d.status = 'settled'
          and (f.status is null or f.status <> 'paid')
        order by d.resolved_at nulls last, d.duel_id limit ?`,
      [creator, stack, limit],
    );
    return rows.map((r) => r.duel_id);
  }

  async feeClaim(duelId: string): Promise<FeeClaimRow | undefined> {
    const [row] = await this.conn().execute<FeeClaimRow[]>(
      'select duel_id, status, amount::text as amount, tx_hash from creator_fee_claims where duel_id = ?',
      [duelId],
    );
    return row;
  }

  /**
   * Records a submitted fee claim. Runs inside the chain pipeline's transaction (`sql`) so the row
   * and the signed transaction commit together; a rerun keeps the first amount.
   */
  async recordFeeClaim(
    sql: SqlExec,
    claim: { duelId: string; creator: string; stack: Stack; amount: bigint; txHash: string },
  ): Promise<void> {
    await sql(
      `insert into creator_fee_claims (id, duel_id, creator, collateral_stack, amount, status, tx_hash, created_at, updated_at)
       values (?, ?, ?, ?, ?, 'submitted', ?, now(), now())
       on conflict (duel_id) do update set tx_hash = excluded.tx_hash, updated_at = now()`,
      [randomUUID(), claim.duelId, claim.creator, claim.stack, claim.amount.toString(), claim.txHash],
    );
  }

  /** Marks a market's fees paid (the chain says so); creates the row when the claim was sent elsewhere. */
  async markFeesPaid(claim: { duelId: string; creator: string; stack: Stack; amount: bigint }): Promise<void> {
    await this.conn().execute(
      `insert into creator_fee_claims (id, duel_id, creator, collateral_stack, amount, status, paid_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, 'paid', now(), now(), now())
       on conflict (duel_id) do update set status = 'paid', paid_at = coalesce(creator_fee_claims.paid_at, now()),
         updated_at = now()`,
      [randomUUID(), claim.duelId, claim.creator, claim.stack, claim.amount.toString()],
    );
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
