import type { SqlExec } from '../../platform/db/sql.js';

export interface BondMovementRow {
  id: string;
  wallet: string;
  asset: 'usdc' | 'credits';
  kind: 'deposit' | 'withdrawal';
  amount: string;
  txHash: string | null;
  /** `sent` once the chain write is accepted; a withdrawal is `pending` until then. */
  status: 'pending' | 'sent';
}

const MOVEMENT = `"id", "wallet", "asset", "kind", "amount"::text as "amount", "tx_hash" as "txHash", "status"`;

/** Creators' bonds: one balance per wallet and asset, and the movements that made it. */
export class BondRepository {
  constructor(private readonly sql: SqlExec) {}

  /** The bond held; `lock` keeps creations and withdrawals of this wallet in line until the transaction ends. */
  async balance(wallet: string, asset: string, lock = false): Promise<bigint> {
    if (lock) {
      // The row must exist to be locked: a first deposit or withdrawal attempt creates it at zero.
      await this.sql(
        `insert into "tournament_bonds" ("wallet", "asset", "balance", "updated_at") values (?, ?, 0, now()) on conflict do nothing`,
        [wallet, asset],
      );
    }
    const [row] = await this.sql<{ balance: string }>(
      `select "balance"::text as "balance" from "tournament_bonds" where "wallet" = ? and "asset" = ?${lock ? ' for update' : ''}`,
      [wallet, asset],
    );
    return BigInt(row?.balance ?? '0');
  }

  async add(wallet: string, asset: string, delta: bigint): Promise<void> {
    await this.sql(
      `insert into "tournament_bonds" ("wallet", "asset", "balance", "updated_at") values (?, ?, ?, now())
       on conflict ("wallet", "asset") do update set "balance" = "tournament_bonds"."balance" + excluded."balance", "updated_at" = now()`,
      [wallet, asset, delta.toString()],
    );
  }

  /** Records a movement; false when its transaction was recorded already. */
  async insertMovement(m: BondMovementRow): Promise<boolean> {
    const rows = await this.sql(
      `insert into "tournament_bond_movements" ("id", "wallet", "asset", "kind", "amount", "tx_hash", "status", "created_at")
       values (?, ?, ?, ?, ?, ?, ?, now()) on conflict do nothing returning "id"`,
      [m.id, m.wallet, m.asset, m.kind, m.amount, m.txHash?.toLowerCase() ?? null, m.status],
    );
    return rows.length > 0;
  }

  async movementByTx(txHash: string): Promise<BondMovementRow | null> {
    const [row] = await this.sql<BondMovementRow>(
      `select ${MOVEMENT} from "tournament_bond_movements" where "tx_hash" = ?`,
      [txHash.toLowerCase()],
    );
    return row ?? null;
  }

  async movementById(id: string): Promise<BondMovementRow | null> {
    const [row] = await this.sql<BondMovementRow>(
      `select ${MOVEMENT} from "tournament_bond_movements" where "id" = ?`,
      [id],
    );
    return row ?? null;
  }

  async movementCount(wallet: string, kind: BondMovementRow['kind']): Promise<number> {
    const [row] = await this.sql<{ n: number }>(
      `select count(*)::int as "n" from "tournament_bond_movements" where "wallet" = ? and "kind" = ?`,
      [wallet, kind],
    );
    return row?.n ?? 0;
  }

  async markSent(id: string, txHash: string): Promise<void> {
    await this.sql(`update "tournament_bond_movements" set "tx_hash" = ?, "status" = 'sent' where "id" = ?`, [
      txHash.toLowerCase(),
      id,
    ]);
  }

  /** Withdrawals decided but not yet sent (the process stopped in between). */
  async pendingWithdrawals(limit: number): Promise<BondMovementRow[]> {
    return this.sql<BondMovementRow>(
      `select ${MOVEMENT} from "tournament_bond_movements" where "status" = 'pending' order by "created_at" limit ?`,
      [limit],
    );
  }
}
