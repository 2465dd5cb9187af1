import type { Orm } from '../db/orm.js';
import type { Hex } from './chain-tx.types.js';
import { directSql } from '../db/sql.js';

/** The chain a database belongs to. */
export interface ChainIdentity {
  readonly mode: 'embedded' | 'rpc';
  readonly chainId: number;
  readonly genesisHash: Hex;
  /** Seconds since the epoch. */
  readonly genesisTime: number;
  /** Contracts named by this identity; vaults are absent from identities recorded before they existed. */
  readonly contracts: {
    readonly credits: Hex;
    readonly usdc: Hex;
    readonly markets: Hex;
    readonly creditsVault?: Hex;
    readonly usdcVault?: Hex;
    readonly parlayBook?: Hex;
  };
  /** The block that deployed the contracts, when this server deployed them. */
  readonly deploymentBlock: bigint | null;
  /**
   * A block of this chain (the deployment on the embedded chain, the head at first boot over
   * RPC): two chains that share a genesis (nodes started in the same second) part there.
   */
  readonly anchor: { readonly block: bigint; readonly hash: Hex };
}

/** One entry of the embedded chain's history, replayed in order at boot. */
export type JournalEntry =
  | {
      readonly kind: 'block';
      readonly number: bigint;
      readonly hash: Hex;
      /** Seconds since the epoch. */
      readonly timestamp: number;
      /** Raw signed transactions, in block order. */
      readonly txs: readonly Hex[];
    }
  | { readonly kind: 'set_balance'; readonly address: Hex; readonly balance: Hex };

/**
 * Refusal to start against a chain that is not the one the database was written against. Its
 * message is the whole story: what was recorded, what was found, and what to do.
 */
export class ChainIdentityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainIdentityError';
  }
}

const IDENTITY_ID = 'current';

/** The chain identity row and the embedded chain's journal. */
export class ChainStateRepository {
  constructor(private readonly orm: Orm) {}

  async identity(): Promise<ChainIdentity | null> {
    const [row] = await this.exec<{
      mode: 'embedded' | 'rpc';
      chain_id: number;
      genesis_hash: string;
      genesis_time: string;
      contracts: ChainIdentity['contracts'];
      deployment_block: string | null;
      anchor_block: string;
      anchor_hash: string;
    }>('select * from chain_identity where id = ?', [IDENTITY_ID]);
    if (!row) return null;
    return {
      mode: row.mode,
      chainId: row.chain_id,
      genesisHash: row.genesis_hash as Hex,
      genesisTime: Number(row.genesis_time),
      contracts: row.contracts,
      deploymentBlock: row.deployment_block === null ? null : BigInt(row.deployment_block),
      anchor: { block: BigInt(row.anchor_block), hash: row.anchor_hash as Hex },
    };
  }

  /** Records the identity unless one is recorded already (first instance wins); returns the recorded one. */
  async recordIdentity(identity: ChainIdentity): Promise<ChainIdentity> {
    await this.exec(
      `insert into chain_identity (id, mode, chain_id, genesis_hash, genesis_time, contracts, deployment_block, anchor_block,
         anchor_hash, created_at)
       values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, now()) on conflict (id) do nothing`,
      [
        IDENTITY_ID,
        identity.mode,
        identity.chainId,
        identity.genesisHash.toLowerCase(),
        identity.genesisTime,
        JSON.stringify(identity.contracts),
        identity.deploymentBlock?.toString() ?? null,
        identity.anchor.block.toString(),
        identity.anchor.hash.toLowerCase(),
      ],
    );
    const stored = await this.identity();
    if (!stored) throw new Error('chain identity vanished after recording');
    return stored;
  }

  /** Names contracts deployed after the identity was first recorded (the prize vaults of an older data directory). */
  async recordContracts(contracts: ChainIdentity['contracts']): Promise<void> {
    await this.exec(`update chain_identity set contracts = ?::jsonb where id = ?`, [
      JSON.stringify(contracts),
      IDENTITY_ID,
    ]);
  }

  /**
   * Whether the database holds state read from or written to some chain (an indexer cursor,
   * recorded writes): a database like that must not meet a chain it has no identity for. Rows
   * imported without a chain (seeded duels) do not count.
   */
  async hasChainState(): Promise<boolean> {
    const [row] = await this.exec<{ any: boolean }>(
      `select exists (select 1 from chain_cursors) or exists (select 1 from chain_txs) as any`,
    );
    return row?.any ?? false;
  }

  /** The highest block any chain indexer has read, or null before the first read. */
  async highestCursor(): Promise<bigint | null> {
    const [row] = await this.exec<{ last: string | null }>('select max(last_block)::text as last from chain_cursors');
    return row?.last ? BigInt(row.last) : null;
  }

  /** Appends entries to the journal, in order. */
  async append(entries: readonly JournalEntry[]): Promise<void> {
    if (!entries.length) return;
    const values: unknown[] = [];
    const rows = entries.map((e) => {
      if (e.kind === 'block') {
        values.push('block', e.number.toString(), e.hash, e.timestamp, JSON.stringify({ txs: e.txs }));
      } else {
        values.push('set_balance', null, null, null, JSON.stringify({ address: e.address, balance: e.balance }));
      }
      return '(?, ?, ?, ?, ?::json, now())';
    });
    // Straight on the driver: the embedded chain journals every block it mines.
    await directSql(this.orm)(
      `insert into chain_journal (kind, block_number, block_hash, timestamp, payload, created_at) values ${rows.join(', ')}`,
      values,
    );
  }

  /** The whole journal in order, read in pages. */
  async *journal(pageSize = 1_000): AsyncGenerator<JournalEntry> {
    let after = '0';
    for (;;) {
      const rows = await this.exec<{
        seq: string;
        kind: 'block' | 'set_balance';
        block_number: string | null;
        block_hash: string | null;
        timestamp: string | null;
        payload: { txs?: Hex[]; address?: Hex; balance?: Hex };
      }>(
        'select seq::text as seq, kind, block_number, block_hash, timestamp, payload from chain_journal j where j.seq > ? order by j.seq limit ?',
        [after, pageSize],
      );
      for (const row of rows) {
        after = row.seq;
        if (row.kind === 'block') {
          yield {
            kind: 'block',
            number: BigInt(row.block_number ?? '0'),
            hash: row.block_hash as Hex,
            timestamp: Number(row.timestamp),
            txs: row.payload.txs ?? [],
          };
        } else {
          yield { kind: 'set_balance', address: row.payload.address as Hex, balance: row.payload.balance as Hex };
        }
      }
      if (rows.length < pageSize) return;
    }
  }

  private exec<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.orm.em.fork().getConnection().execute<T[]>(sql, params);
  }
}
