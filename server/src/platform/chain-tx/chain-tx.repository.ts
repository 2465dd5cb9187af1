import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../db/orm.js';
import { directSql, sqlIn, type SqlExec } from '../db/sql.js';
import type { ChainTxStatus } from './chain-tx.entities.js';
import type { Hex, RecordedTx, TxOutcome } from './chain-tx.types.js';

/** A chain_txs row as the pipeline and the reconciler read it. */
export interface ChainTxRecord extends RecordedTx {
  readonly status: ChainTxStatus;
  readonly rawTx: Hex;
  readonly broadcasts: number;
  /** When it was last handed to a node (or recorded, if never). */
  readonly lastSentAt: Date;
}

interface Row {
  id: string;
  kind: string;
  intent_key: string | null;
  account: string;
  tx_hash: string;
  nonce: string;
  effect: Record<string, unknown> | null;
  status: ChainTxStatus;
  raw_tx: string;
  broadcasts: number;
  last_sent_at: Date;
}

const COLUMNS = `id::text as id, kind, intent_key, account, tx_hash, nonce::text as nonce, effect, status, raw_tx, broadcasts,
  coalesce(broadcast_at, created_at) as last_sent_at`;

function toRecord(row: Row): ChainTxRecord {
  return {
    id: row.id,
    kind: row.kind,
    key: row.intent_key,
    account: row.account as Hex,
    txHash: row.tx_hash as Hex,
    nonce: Number(row.nonce),
    effect: row.effect,
    status: row.status,
    rawTx: row.raw_tx as Hex,
    broadcasts: row.broadcasts,
    lastSentAt: new Date(row.last_sent_at),
  };
}

export interface NewChainTx {
  readonly chainId: number;
  readonly key: string;
  readonly kind: string;
  readonly account: Hex;
  readonly to: Hex | null;
  readonly data: Hex;
  readonly value: bigint;
  readonly gas: bigint;
  readonly nonce: number;
  readonly rawTx: Hex;
  readonly txHash: Hex;
  readonly effect: Record<string, unknown> | null;
  readonly idempotencyRecordId: string | null;
}

/** A unique violation on the live intent key: another submission of the same write won the race. */
export function isDuplicateKey(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return (
    e?.code === '23505' &&
    (e.constraint === 'chain_txs_intent_key_unique' || String(e.message).includes('chain_txs_intent_key_unique'))
  );
}

/** Where a page of open writes ended: the next page starts after it (writes are paged by account, nonce, id). */
export interface OpenCursor {
  readonly account: Hex;
  readonly nonce: number;
  readonly id: string;
}

/** Every query of the chain transaction pipeline. */
export class ChainTxRepository {
  /** Statements outside a transaction go straight to the driver: several run for every write. */
  private readonly direct: SqlExec;

  constructor(private readonly orm: Orm) {
    this.direct = directSql(orm);
  }

  /** Runs `fn` in one database transaction. */
  transaction<T>(fn: (sql: SqlExec, em: EntityManager) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional((em) => fn(sqlIn(em), em));
  }

  /** Runs `fn`, one statement, outside any transaction: the statement is its own. */
  alone<T>(fn: (sql: SqlExec) => Promise<T>): Promise<T> {
    return fn(this.direct);
  }

  /** The live write under `key` (signed, broadcast or mined), if any. */
  async byKey(key: string): Promise<ChainTxRecord | null> {
    const [row] = await this.sql()<Row>(`select ${COLUMNS} from chain_txs where intent_key = ?`, [key]);
    return row ? toRecord(row) : null;
  }

  /** The write under `key` that reverted (its key retired by the revert), if any. */
  async revertedByKey(key: string): Promise<ChainTxRecord | null> {
    const [row] = await this.sql()<Row>(
      `select ${COLUMNS} from chain_txs where retired_key = ? and status = 'reverted' order by id desc limit 1`,
      [key],
    );
    return row ? toRecord(row) : null;
  }

  /**
   * The live write that replaced the failed one with hash `hash` (its nonce was taken, so it was
   * signed again under the same key), if there is one.
   */
  async replacementOf(hash: Hex): Promise<ChainTxRecord | null> {
    const [row] = await this.sql()<Row>(
      `select ${COLUMNS} from chain_txs where intent_key =
         (select retired_key from chain_txs where tx_hash = ? and status = 'failed')`,
      [hash.toLowerCase()],
    );
    return row ? toRecord(row) : null;
  }

  async byHash(hash: Hex): Promise<ChainTxRecord | null> {
    const [row] = await this.sql()<Row>(`select ${COLUMNS} from chain_txs where tx_hash = ?`, [hash.toLowerCase()]);
    return row ? toRecord(row) : null;
  }

  /**
   * The account's next nonce, taken under the row lock of its chain_accounts row: the upsert
   * locks the row until the surrounding transaction ends, so allocators in every process queue
   * behind each other and each sees the value the previous one committed (READ COMMITTED
   * re-reads the row after the wait). `chainPending` moves it forward when the chain is ahead
   * (another sender used the account); it never moves back.
   */
  async allocateNonce(sql: SqlExec, chainId: number, account: Hex, chainPending: number): Promise<number> {
    const [row] = await sql<{ nonce: string }>(
      `insert into chain_accounts as a (chain_id, address, next_nonce, updated_at) values (?, ?, ?, now())
       on conflict (chain_id, address) do update
         set next_nonce = greatest(a.next_nonce, excluded.next_nonce - 1) + 1, updated_at = now()
       returning (next_nonce - 1)::text as nonce`,
      [chainId, account.toLowerCase(), chainPending + 1],
    );
    if (!row) throw new Error('nonce allocation returned no row');
    return Number(row.nonce);
  }

  /**
   * The account's next nonce as the database holds it, moved up to the chain's pending count when
   * the chain is ahead (never down); creates the account's row on its first write.
   */
  async nextNonce(chainId: number, account: Hex, chainPending: number): Promise<number> {
    const [row] = await this.direct<{ next: string }>(
      `insert into chain_accounts as a (chain_id, address, next_nonce, updated_at) values (?, ?, ?, now())
       on conflict (chain_id, address) do update set next_nonce = greatest(a.next_nonce, excluded.next_nonce), updated_at = now()
       returning next_nonce::text as next`,
      [chainId, account.toLowerCase(), chainPending],
    );
    if (!row) throw new Error('nonce read returned no row');
    return Number(row.next);
  }

  /**
   * Records a write signed with `tx.nonce` in one statement, provided that nonce is the account's
   * next (the greater of the database's count and `chainPending`): a compare-and-set on the
   * account's row that advances it, the chain_txs row and, with `effect`, the idempotency key's
   * "effect started" mark, all or nothing. Concurrent recorders of one account queue on the row
   * lock and re-check after the wait (READ COMMITTED), so at most one of them gets a nonce. The
   * id, or null when the nonce was not the next one (another process took it; read it again).
   */
  async recordSigned(tx: NewChainTx, chainPending: number, effect?: Effect): Promise<string | null> {
    const rows = await this.direct<{ id: string }>(
      `with alloc as (
         update chain_accounts set next_nonce = ?::bigint + 1, updated_at = now()
          where chain_id = ? and address = ? and greatest(next_nonce, ?::bigint) = ?::bigint
         returning next_nonce),
       written as (
         insert into chain_txs (chain_id, intent_key, kind, account, to_address, data, value, gas_limit, nonce, raw_tx,
           tx_hash, status, effect, idempotency_record_id, broadcasts, created_at, updated_at)
         select ?::int, ?::text, ?::text, ?::text, ?::text, ?::text, ?::numeric, ?::numeric, ?::bigint, ?::text,
           ?::text, 'signed', ?::jsonb, ?::bigint, 0, now(), now()
           from alloc
         returning id),
       ${EFFECT_STARTED}
       select id::text as id from written`,
      [tx.nonce, tx.chainId, tx.account.toLowerCase(), chainPending, tx.nonce, ...rowOf(tx), ...effectParams(effect)],
    );
    return rows[0]?.id ?? null;
  }

  /** Moves an account's next nonce up to what the chain has used (never down). */
  async resyncNonce(chainId: number, account: Hex, used: number): Promise<void> {
    await this.sql()(
      `update chain_accounts set next_nonce = greatest(next_nonce, ?), updated_at = now() where chain_id = ? and address = ?`,
      [used, chainId, account.toLowerCase()],
    );
  }

  /**
   * Records a signed write; with `effect`, marks the request's idempotency key "effect started"
   * in the same statement and stores its pending answer when the write knows it (a write signed
   * again replaces the answer it gave before).
   */
  async insert(sql: SqlExec, tx: NewChainTx, effect?: Effect): Promise<string> {
    const row = rowOf(tx);
    const insert = `insert into chain_txs (chain_id, intent_key, kind, account, to_address, data, value, gas_limit, nonce, raw_tx,
         tx_hash, status, effect, idempotency_record_id, broadcasts, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signed', ?::jsonb, ?, 0, now(), now())
       returning id`;
    const [inserted] = effect
      ? await sql<{ id: string }>(
          `with written as (${insert}),
             ${EFFECT_STARTED}
           select id::text as id from written`,
          [...row, ...effectParams(effect)],
        )
      : await sql<{ id: string }>(`${insert.replace('returning id', 'returning id::text as id')}`, row);
    if (!inserted) throw new Error('chain_txs insert returned no row');
    return inserted.id;
  }

  /** Records a hand-over to a node: how it went, and when. */
  async noteBroadcast(id: string, accepted: boolean, error: string | null): Promise<void> {
    await this.sql()(
      `update chain_txs set broadcasts = broadcasts + 1, broadcast_at = now(), last_error = ?, updated_at = now(),
         status = case when status = 'signed' and ? then 'broadcast' else status end
       where id = ?`,
      [error, accepted, id],
    );
  }

  /**
   * Records a final outcome once (only an open row moves). A reverted or failed write gives its
   * key up, so the same effect can be attempted again. True when this call moved it.
   */
  async settle(sql: SqlExec, id: string, outcome: TxOutcome): Promise<boolean> {
    const failed = outcome.status !== 'mined';
    const rows = await sql<{ id: string }>(
      `with moved as (
         update chain_txs set status = ?, block_number = ?, last_error = coalesce(?, last_error), final_at = now(), updated_at = now(),
           retired_key = case when ? then intent_key else retired_key end,
           intent_key = case when ? then null else intent_key end
         where id = ? and status in ('signed', 'broadcast') returning id, status, retired_key),
       ${FREE_REVERTED}
       select id from moved`,
      [
        outcome.status,
        outcome.status === 'failed' ? null : outcome.blockNumber.toString(),
        outcome.status === 'failed' ? outcome.reason : null,
        failed,
        failed,
        id,
      ],
    );
    return rows.length > 0;
  }

  /** Records the receipts of many writes in one statement (reverted ones give their key up). */
  async settleReceipts(
    sql: SqlExec,
    receipts: readonly { id: string; status: 'mined' | 'reverted'; blockNumber: bigint }[],
  ): Promise<void> {
    if (!receipts.length) return;
    const values = receipts.map(() => '(?::bigint, ?, ?::bigint)').join(', ');
    await sql(
      `with moved as (
         update chain_txs c set status = v.status, block_number = v.block, final_at = now(), updated_at = now(),
           retired_key = case when v.status = 'reverted' then c.intent_key else c.retired_key end,
           intent_key = case when v.status = 'reverted' then null else c.intent_key end
         from (values ${values}) as v(id, status, block)
         where c.id = v.id and c.status in ('signed', 'broadcast') returning c.id, c.status, c.retired_key),
       ${FREE_REVERTED}
       select count(*) from moved`,
      receipts.flatMap((r) => [r.id, r.status, r.blockNumber.toString()]),
    );
  }

  /** Open writes of a chain, oldest nonce first per account. */
  async open(chainId: number, limit: number, after?: OpenCursor): Promise<ChainTxRecord[]> {
    // Ordered by the table's columns, not the text the select list makes of them: by the output
    // column, nonce 10 would come before nonce 9 and every write after it would meet a nonce gap.
    const rows = after
      ? await this.sql()<Row>(
          `select ${COLUMNS} from chain_txs where status in ('signed', 'broadcast') and chain_id = ?
             and (account, nonce, id) > (?, ?::bigint, ?::bigint)
            order by chain_txs.account, chain_txs.nonce, chain_txs.id limit ?`,
          [chainId, after.account.toLowerCase(), after.nonce, after.id, limit],
        )
      : await this.sql()<Row>(
          `select ${COLUMNS} from chain_txs where status in ('signed', 'broadcast') and chain_id = ?
            order by chain_txs.account, chain_txs.nonce, chain_txs.id limit ?`,
          [chainId, limit],
        );
    return rows.map(toRecord);
  }

  /** How many writes are open (signed or broadcast, not final). */
  async openCount(chainId: number): Promise<number> {
    const [row] = await this.sql()<{ n: string }>(
      `select count(*)::text as n from chain_txs where status in ('signed', 'broadcast') and chain_id = ?`,
      [chainId],
    );
    return Number(row?.n ?? 0);
  }

  /** An open write of `kind` from `account` to `to` (an approval or top-up already on its way). */
  async openOf(chainId: number, kind: string, account: Hex, to: Hex): Promise<ChainTxRecord | null> {
    const [row] = await this.sql()<Row>(
      `select ${COLUMNS} from chain_txs where chain_id = ? and kind = ? and account = ? and to_address = ?
         and status in ('signed', 'broadcast') order by chain_txs.id desc limit 1`,
      [chainId, kind, account.toLowerCase(), to.toLowerCase()],
    );
    return row ? toRecord(row) : null;
  }

  private sql(): SqlExec {
    return this.direct;
  }
}

/**
 * A CTE that frees the funds reservation of every write the `moved` CTE settled as reverted: a
 * reverted write spent nothing, and its key is retired, so the reservation would otherwise hold
 * the wallet's funds as if its write were not recorded yet.
 */
const FREE_REVERTED = `freed as (
  delete from fund_reservations where write_key in (select retired_key from moved where status = 'reverted'))`;

/** What a recorded write does to its request's idempotency key. */
type Effect = { readonly recordId: string; readonly pending: { status: number; body: unknown } | undefined };

/**
 * A CTE that marks the request's idempotency key "effect started" once the `written` CTE has its
 * row, with its pending answer when the write knows it (a write signed again replaces it). The
 * pending answer is the route's answer (a write carries one only when it is its request's last
 * effect, `SubmitHooks.result`), so a key still in flight is completed with it in the same
 * statement: a duplicate replays it from now on, and the request stores no answer of its own when
 * it answers the same (`http/middleware/idempotency.ts`). Parameters: `effectParams`.
 */
const EFFECT_STARTED = `started as (
  update idempotency_keys k set effect_started_at = coalesce(k.effect_started_at, now()),
    pending_status = coalesce(a.status, k.pending_status),
    pending_body = case when a.status is null then k.pending_body else a.body end,
    state = case when a.status is not null and k.state = 'in_flight' then 'completed' else k.state end,
    response_status = case when a.status is not null and k.state = 'in_flight' then a.status else k.response_status end,
    response_body = case when a.status is not null and k.state = 'in_flight' then a.body else k.response_body end
  from (select ?::int as status, ?::json as body) a
  where k.id = ?::bigint and exists (select 1 from written) returning k.id)`;

function effectParams(effect: Effect | undefined): unknown[] {
  const pending = effect?.pending;
  return [
    pending?.status ?? null,
    pending === undefined ? null : JSON.stringify(pending.body ?? null),
    effect?.recordId ?? null,
  ];
}

/** A chain_txs row's inserted values, in column order. */
function rowOf(tx: NewChainTx): unknown[] {
  return [
    tx.chainId,
    tx.key,
    tx.kind,
    tx.account.toLowerCase(),
    tx.to?.toLowerCase() ?? null,
    tx.data,
    tx.value.toString(),
    tx.gas.toString(),
    tx.nonce,
    tx.rawTx,
    tx.txHash.toLowerCase(),
    tx.effect === null ? null : JSON.stringify(tx.effect),
    tx.idempotencyRecordId,
  ];
}
