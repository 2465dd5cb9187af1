import type { ExtPreparedRelayerTx } from '../../adapters/extmarket/external-exchange.port.js';
import type { Orm } from '../../platform/db/orm.js';
import { sqlIn } from '../../platform/db/sql.js';

/** A user's external-market account as stored: secrets sealed under the master key. */
export interface ExtAccountRow {
  readonly userId: string;
  readonly signerAddress: string;
  readonly signerKeyCiphertext: string;
  readonly credentialsCiphertext: string | null;
  readonly credentialsNonce: number;
  readonly walletKind: 'WALLET' | 'SAFE';
  readonly tradingWallet: string;
}

export type ExtOperationKind =
  | 'deploy-wallet'
  | 'deploy-safe'
  | 'approve-trading'
  | 'wrap-legacy-collateral'
  | 'withdraw'
  | 'withdraw-clob'
  | 'recover-funds'
  | 'redeem'
  | 'deposit';

export interface ExtOperationRow {
  readonly id: string;
  readonly userId: string;
  readonly kind: ExtOperationKind;
  readonly details: Record<string, unknown>;
  readonly createdAt: Date;
}

/** A relayer transaction a request means to send, recorded under its write key before it is sent. */
export interface ExtRelayerIntentRow {
  readonly writeKey: string;
  readonly userId: string;
  readonly operation: Exclude<ExtOperationKind, 'deposit'>;
  readonly request: ExtPreparedRelayerTx;
  readonly details: Record<string, unknown>;
  readonly transactionId: string | null;
}

interface AccountDb {
  user_id: string;
  signer_address: string;
  signer_key_ciphertext: string;
  credentials_ciphertext: string | null;
  credentials_nonce: number;
  wallet_kind: 'WALLET' | 'SAFE';
  trading_wallet: string;
}

/** External-market accounts, the operations users started and the orders kept for retries. */
export class ExtMarketRepository {
  constructor(private readonly orm: Orm) {}

  private conn() {
    return this.orm.em.fork().getConnection();
  }

  async account(userId: string): Promise<ExtAccountRow | undefined> {
    const rows = await this.conn().execute<AccountDb[]>('select * from ext_market_accounts where user_id = ?', [
      userId,
    ]);
    const r = rows[0];
    return r
      ? {
          userId: r.user_id,
          signerAddress: r.signer_address,
          signerKeyCiphertext: r.signer_key_ciphertext,
          credentialsCiphertext: r.credentials_ciphertext,
          credentialsNonce: Number(r.credentials_nonce),
          walletKind: r.wallet_kind,
          tradingWallet: r.trading_wallet,
        }
      : undefined;
  }

  /** Creates the account once; a concurrent creation keeps the first row (the answer is that row). */
  async createAccount(
    row: Omit<ExtAccountRow, 'credentialsCiphertext' | 'credentialsNonce'>,
    now: Date,
  ): Promise<ExtAccountRow> {
    await this.conn().execute(
      `insert into ext_market_accounts (user_id, signer_address, signer_key_ciphertext, wallet_kind, trading_wallet, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?) on conflict (user_id) do nothing`,
      [row.userId, row.signerAddress, row.signerKeyCiphertext, row.walletKind, row.tradingWallet, now, now],
    );
    return (await this.account(row.userId))!;
  }

  async setCredentials(userId: string, ciphertext: string, nonce: number, now: Date): Promise<void> {
    await this.conn().execute(
      'update ext_market_accounts set credentials_ciphertext = ?, credentials_nonce = ?, updated_at = ? where user_id = ?',
      [ciphertext, nonce, now, userId],
    );
  }

  async setWallet(userId: string, kind: 'WALLET' | 'SAFE', wallet: string, now: Date): Promise<void> {
    await this.conn().execute(
      'update ext_market_accounts set wallet_kind = ?, trading_wallet = ?, updated_at = ? where user_id = ?',
      [kind, wallet, now, userId],
    );
  }

  async recordOperation(op: ExtOperationRow): Promise<void> {
    await this.conn().execute(
      'insert into ext_market_operations (id, user_id, kind, details, created_at) values (?, ?, ?, ?, ?) on conflict (id) do nothing',
      [op.id, op.userId, op.kind, JSON.stringify(op.details), op.createdAt],
    );
  }

  async operation(id: string, userId: string): Promise<ExtOperationRow | undefined> {
    const rows = await this.conn().execute<
      { id: string; user_id: string; kind: ExtOperationKind; details: Record<string, unknown>; created_at: Date }[]
    >('select * from ext_market_operations where id = ? and user_id = ?', [id, userId]);
    const r = rows[0];
    return r
      ? { id: r.id, userId: r.user_id, kind: r.kind, details: r.details, createdAt: new Date(r.created_at) }
      : undefined;
  }

  async orderIntent(
    userId: string,
    key: string,
  ): Promise<{ orderId: string; payload: Record<string, unknown> } | undefined> {
    const rows = await this.conn().execute<{ order_id: string; payload: Record<string, unknown> }[]>(
      'select order_id, payload from ext_market_order_intents where user_id = ? and idempotency_key = ?',
      [userId, key],
    );
    const r = rows[0];
    return r ? { orderId: r.order_id, payload: r.payload } : undefined;
  }

  /** Keeps a signed order under its key; when one is kept already, that one is returned. */
  async keepOrderIntent(userId: string, key: string, orderId: string, payload: Record<string, unknown>, now: Date) {
    await this.conn().execute(
      `insert into ext_market_order_intents (user_id, idempotency_key, order_id, payload, created_at) values (?, ?, ?, ?, ?)
       on conflict (user_id, idempotency_key) do nothing`,
      [userId, key, orderId, JSON.stringify(payload), now],
    );
    return (await this.orderIntent(userId, key))!;
  }

  async relayerIntent(writeKey: string): Promise<ExtRelayerIntentRow | undefined> {
    const rows = await this.conn().execute<
      {
        write_key: string;
        user_id: string;
        operation: ExtRelayerIntentRow['operation'];
        request: ExtPreparedRelayerTx;
        details: Record<string, unknown>;
        transaction_id: string | null;
      }[]
    >('select * from ext_market_relayer_intents where write_key = ?', [writeKey]);
    const r = rows[0];
    return r
      ? {
          writeKey: r.write_key,
          userId: r.user_id,
          operation: r.operation,
          request: r.request,
          details: r.details,
          transactionId: r.transaction_id,
        }
      : undefined;
  }

  /**
   * Records an intent (a kept one wins) and, in the same transaction, marks the request's
   * idempotency record as having started its effect: from here its key is never released to run
   * afresh, and a retry resumes, finding the intent by its write key.
   */
  async keepRelayerIntent(
    row: Omit<ExtRelayerIntentRow, 'transactionId'>,
    idempotencyRecordId: string | undefined,
    now: Date,
  ): Promise<ExtRelayerIntentRow> {
    await this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      await sql(
        `insert into ext_market_relayer_intents (write_key, user_id, operation, request, details, transaction_id, created_at, updated_at)
         values (?, ?, ?, ?, ?, null, ?, ?) on conflict (write_key) do nothing`,
        [row.writeKey, row.userId, row.operation, JSON.stringify(row.request), JSON.stringify(row.details), now, now],
      );
      if (idempotencyRecordId !== undefined)
        await sql(
          'update idempotency_keys set effect_started_at = coalesce(effect_started_at, now()) where id = ?::bigint',
          [idempotencyRecordId],
        );
    });
    return (await this.relayerIntent(row.writeKey))!;
  }

  /** Replaces the signed request of an intent whose earlier one can never land (its nonce went to another batch). */
  async replaceRelayerRequest(writeKey: string, request: ExtPreparedRelayerTx, now: Date): Promise<void> {
    await this.conn().execute(
      'update ext_market_relayer_intents set request = ?, updated_at = ? where write_key = ? and transaction_id is null',
      [JSON.stringify(request), now, writeKey],
    );
  }

  async setRelayerTransaction(writeKey: string, transactionId: string, now: Date): Promise<void> {
    await this.conn().execute(
      'update ext_market_relayer_intents set transaction_id = ?, updated_at = ? where write_key = ?',
      [transactionId, now, writeKey],
    );
  }
}
