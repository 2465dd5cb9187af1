import { randomUUID } from 'node:crypto';
import type { Orm } from '../db/orm.js';
import { sqlIn } from '../db/sql.js';
import type { MerkleDistributionRow, MerkleLeafRow } from './distribution.entity.js';
import type { BuiltDistribution } from './merkle-tree.js';

const DISTRIBUTION = `"id", "pool_id" as "poolId", "kind", "collateral", "root", "total"::text as "total", "leaf_count" as "leafCount",
  "status", "publish_tx_hash" as "publishTxHash", "created_at" as "createdAt", "published_at" as "publishedAt"`;
const LEAF = `"distribution_id" as "distributionId", "account", "amount"::text as "amount", "proof", "claim_tx_hash" as "claimTxHash",
  "claimed_at" as "claimedAt"`;

export type DistributionKind = MerkleDistributionRow['kind'];

/** Merkle distributions and their leaves in PostgreSQL. */
export class DistributionRepository {
  constructor(private readonly orm: Orm) {}

  /**
   * Stores a built distribution and all its leaves in one transaction, once per (pool, kind):
   * when one exists already it is returned as it is (`created: false`) and nothing is written.
   */
  async insertOnce(
    kind: DistributionKind,
    collateral: MerkleDistributionRow['collateral'],
    built: BuiltDistribution,
  ): Promise<{ row: MerkleDistributionRow; created: boolean }> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const id = randomUUID();
      const [inserted] = await sql<MerkleDistributionRow>(
        `insert into "merkle_distributions" ("id", "pool_id", "kind", "collateral", "root", "total", "leaf_count", "status", "created_at")
         values (?, ?, ?, ?, ?, ?, ?, 'built', now())
         on conflict ("pool_id", "kind") do nothing returning ${DISTRIBUTION}`,
        [id, built.poolId, kind, collateral, built.root, built.total.toString(), built.leaves.length],
      );
      if (!inserted) {
        const [existing] = await sql<MerkleDistributionRow>(
          `select ${DISTRIBUTION} from "merkle_distributions" where "pool_id" = ? and "kind" = ?`,
          [built.poolId, kind],
        );
        return { row: existing as MerkleDistributionRow, created: false };
      }
      for (let i = 0; i < built.leaves.length; i += 500) {
        const chunk = built.leaves.slice(i, i + 500);
        await sql(
          `insert into "merkle_leaves" ("distribution_id", "account", "amount", "proof")
           select ?, l.account, l.amount::numeric, string_to_array(l.proof, ',')
             from unnest(?::text[], ?::text[], ?::text[]) as l(account, amount, proof)`,
          [
            id,
            `{${chunk.map((l) => l.account.toLowerCase()).join(',')}}`,
            `{${chunk.map((l) => l.amount.toString()).join(',')}}`,
            // A proof is a list of 0x-hex words: no commas or quotes inside, so a comma join is lossless.
            `{${chunk.map((l) => `"${l.proof.join(',')}"`).join(',')}}`,
          ],
        );
      }
      return { row: inserted, created: true };
    });
  }

  async find(poolId: string, kind: DistributionKind): Promise<MerkleDistributionRow | null> {
    const [row] = await this.sql<MerkleDistributionRow>(
      `select ${DISTRIBUTION} from "merkle_distributions" where "pool_id" = ? and "kind" = ?`,
      [poolId.toLowerCase(), kind],
    );
    return row ?? null;
  }

  async leaf(distributionId: string, account: string): Promise<MerkleLeafRow | null> {
    const [row] = await this.sql<MerkleLeafRow>(
      `select ${LEAF} from "merkle_leaves" where "distribution_id" = ? and "account" = ?`,
      [distributionId, account.toLowerCase()],
    );
    return row ?? null;
  }

  /** A page of leaves in account order; `claimed` filters on whether the leaf was claimed. */
  async leaves(
    distributionId: string,
    page: { offset: number; limit: number; claimed?: boolean },
  ): Promise<MerkleLeafRow[]> {
    const filter =
      page.claimed === undefined ? '' : page.claimed ? 'and "claimed_at" is not null' : 'and "claimed_at" is null';
    return this.sql<MerkleLeafRow>(
      `select ${LEAF} from "merkle_leaves" where "distribution_id" = ? ${filter} order by "account" limit ? offset ?`,
      [distributionId, page.limit, page.offset],
    );
  }

  async counts(distributionId: string): Promise<{ claimed: number; unclaimed: number; claimedAmount: string }> {
    const [row] = await this.sql<{ claimed: string; unclaimed: string; claimedAmount: string }>(
      `select count(*) filter (where "claimed_at" is not null)::text as "claimed",
              count(*) filter (where "claimed_at" is null)::text as "unclaimed",
              coalesce(sum("amount") filter (where "claimed_at" is not null), 0)::text as "claimedAmount"
         from "merkle_leaves" where "distribution_id" = ?`,
      [distributionId],
    );
    return {
      claimed: Number(row?.claimed ?? 0),
      unclaimed: Number(row?.unclaimed ?? 0),
      claimedAmount: row?.claimedAmount ?? '0',
    };
  }

  /** Records the root on chain; true when this call moved it from built to published. */
  async markPublished(id: string, txHash: string): Promise<boolean> {
    const rows = await this.sql(
      `update "merkle_distributions" set "status" = 'published', "publish_tx_hash" = ?, "published_at" = now()
        where "id" = ? and "status" = 'built' returning "id"`,
      [txHash.toLowerCase(), id],
    );
    return rows.length > 0;
  }

  /** Records a leaf's claim; true when this call recorded it (a second record changes nothing). */
  async markClaimed(distributionId: string, account: string, txHash: string): Promise<boolean> {
    const rows = await this.sql(
      `update "merkle_leaves" set "claim_tx_hash" = ?, "claimed_at" = now()
        where "distribution_id" = ? and "account" = ? and "claimed_at" is null returning "account"`,
      [txHash.toLowerCase(), distributionId, account.toLowerCase()],
    );
    return rows.length > 0;
  }

  private sql<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return sqlIn(this.orm.em.fork())<T>(sql, params);
  }
}
