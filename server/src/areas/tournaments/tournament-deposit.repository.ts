import type { SqlExec } from '../../platform/db/sql.js';
import type { DepositRow } from './tournament.types.js';

const DEPOSIT = `"tx_hash" as "txHash", "tournament_id" as "tournamentId", "stage_index" as "stageIndex", "wallet", "amount"::text as "amount",
  "purpose", "refund_tx_hash" as "refundTxHash", "refunded_at" as "refundedAt"`;

/** Vault deposits used for tournaments: at most once each (the transaction hash is the key), and their refunds. */
export class DepositRepository {
  constructor(private readonly sql: SqlExec) {}

  async deposit(txHash: string): Promise<DepositRow | null> {
    const [row] = await this.sql<DepositRow>(`select ${DEPOSIT} from "tournament_deposits" where "tx_hash" = ?`, [
      txHash.toLowerCase(),
    ]);
    return row ?? null;
  }

  async insertDeposit(d: Omit<DepositRow, 'refundTxHash' | 'refundedAt'>): Promise<boolean> {
    const rows = await this.sql(
      `insert into "tournament_deposits" ("tx_hash", "tournament_id", "stage_index", "wallet", "amount", "purpose", "created_at")
       values (?, ?, ?, ?, ?, ?, now()) on conflict do nothing returning "tx_hash"`,
      [d.txHash.toLowerCase(), d.tournamentId, d.stageIndex, d.wallet, d.amount, d.purpose],
    );
    return rows.length > 0;
  }

  async deposits(tournamentId: string): Promise<DepositRow[]> {
    return this.sql<DepositRow>(
      `select ${DEPOSIT} from "tournament_deposits" where "tournament_id" = ? order by "created_at"`,
      [tournamentId],
    );
  }

  /** How many deposits a wallet has recorded for a tournament's stage (refunded ones included). */
  async depositCount(tournamentId: string, wallet: string, stageIndex: number): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournament_deposits" where "tournament_id" = ? and lower("wallet") = lower(?) and "stage_index" = ?`,
      [tournamentId, wallet, stageIndex],
    );
    return row?.n ?? 0;
  }

  async markRefunding(txHash: string, at: Date): Promise<void> {
    await this.sql(`update "tournament_deposits" set "refunded_at" = ? where "tx_hash" = ? and "refunded_at" is null`, [
      at,
      txHash,
    ]);
  }

  async setRefundTx(txHash: string, refundTxHash: string): Promise<void> {
    await this.sql(`update "tournament_deposits" set "refund_tx_hash" = ? where "tx_hash" = ?`, [refundTxHash, txHash]);
  }

  /** Refunds decided but not yet sent (the process stopped in between). */
  async pendingRefunds(limit: number) {
    return this.sql<DepositRow & { stakeAsset: 'usdc' | 'credits'; poolId: string }>(
      `select d."tx_hash" as "txHash", d."tournament_id" as "tournamentId", d."stage_index" as "stageIndex", d."wallet",
          d."amount"::text as "amount", d."purpose", d."refund_tx_hash" as "refundTxHash", d."refunded_at" as "refundedAt",
          t."stake_asset" as "stakeAsset", t."pool_id" as "poolId"
         from "tournament_deposits" d join "tournaments" t on t."id" = d."tournament_id"
        where d."refunded_at" is not null and d."refund_tx_hash" is null order by d."refunded_at" limit ?`,
      [limit],
    );
  }
}
