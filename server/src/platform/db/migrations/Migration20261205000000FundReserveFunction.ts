import { Migration } from '@mikro-orm/migrations';

/**
 * The funds reservation as one statement (`select * from fund_reserve(…)`): the wallet's lock, the
 * read of what its other writes hold and the insert, which were a transaction of five round
 * trips on every bet. The function is VOLATILE, so each statement in it reads with a snapshot
 * taken when that statement starts: the held-sum is read after the lock is granted and sees every
 * reservation committed by the transactions that held it before (docs/kernel.md, "Reserve before
 * sending"). Called on its own, it is its own transaction: the lock is released when it returns.
 */
export class Migration20261205000000FundReserveFunction extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function fund_reserve(
  p_key text, p_chain_id int, p_account text, p_token text, p_amount numeric,
  p_balance numeric, p_mined_nonce bigint, p_unrecorded_since timestamptz, p_now timestamptz)
returns table (ok boolean, held text)
language plpgsql volatile as $fn$
declare
  v_own boolean;
  v_held numeric;
begin
  insert into fund_wallets (chain_id, account, token) values (p_chain_id, p_account, p_token)
    on conflict (chain_id, account, token) do update set chain_id = excluded.chain_id;
  select exists (select 1 from fund_reservations where write_key = p_key), coalesce(sum(r.amount), 0)
    into v_own, v_held
    from fund_reservations r
    left join chain_txs t on t.intent_key = r.write_key
   where r.chain_id = p_chain_id and r.account = p_account and r.token = p_token
     and case when t.id is null then r.created_at > p_unrecorded_since
              else t.status in ('signed', 'broadcast', 'mined') and t.nonce >= p_mined_nonce end;
  if not v_own then
    if p_balance - v_held < p_amount then
      return query select false, v_held::text;
      return;
    end if;
    insert into fund_reservations (write_key, chain_id, account, token, amount, created_at)
      values (p_key, p_chain_id, p_account, p_token, p_amount, p_now);
  end if;
  return query select true, v_held::text;
end
$fn$;`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `drop function if exists fund_reserve(text, int, text, text, numeric, numeric, bigint, timestamptz, timestamptz);`,
    );
  }
}
