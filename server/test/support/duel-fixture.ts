import { randomBytes, randomUUID } from 'node:crypto';

/**
 * A market row written straight into `duels`, for tests and benchmarks that need markets in a
 * given state without creating them through the service (and the chain). Every column the
 * service would fill has a default here; a test names only what it cares about.
 */
export interface DuelFixture {
  duelId?: string;
  builderAppId?: string;
  creator?: string;
  question?: string;
  category?: string;
  options?: readonly string[];
  collateralStack?: 'credits' | 'usdc';
  isPrivate?: boolean;
  parentMarketId?: string | null;
  startTime?: Date;
  endTime?: Date;
  createdAt?: Date;
  status?: 'open' | 'pending' | 'pending_contest' | 'settled' | 'cancelled';
  chainState?: 'pending' | 'confirmed' | 'failed';
  winningOptionIndex?: number | null;
  poolBalances?: readonly (bigint | string)[];
  isCanonical?: boolean;
  extVolume24h?: string | null;
  feeBps?: number;
  initialLiquidity?: bigint | string;
}

const COLUMNS = [
  'id',
  'duel_id',
  'builder_app_id',
  'creator_address',
  'question',
  'category',
  'tags',
  'options',
  'duel_type',
  'collateral_stack',
  'is_private',
  'parent_market_id',
  'start_time',
  'end_time',
  'created_at',
  'status',
  'chain_state',
  'winning_option_index',
  'pool_balances',
  'total_volume',
  'unique_participants',
  'yes_bps',
  'ext_live',
  'is_canonical',
  'ext_volume24h',
  'fee_bps',
  'initial_liquidity',
] as const;

const CASTS: Partial<Record<(typeof COLUMNS)[number], string>> = {
  tags: 'text[]',
  options: 'text[]',
  pool_balances: 'text[]',
  start_time: 'timestamptz',
  end_time: 'timestamptz',
  created_at: 'timestamptz',
};

const HOUR = 3_600_000;
const arrayLiteral = (values: readonly (string | bigint)[]) =>
  `{${values.map((v) => `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

/** A fresh random market id (bytes32 hex). */
export const newDuelId = (): string => `0x${randomBytes(32).toString('hex')}`;

function rowOf(f: DuelFixture, now: number): { duelId: string; values: unknown[] } {
  const duelId = f.duelId ?? newDuelId();
  const options = f.options ?? ['YES', 'NO'];
  const values = [
    randomUUID(),
    duelId,
    f.builderAppId ?? randomUUID(),
    f.creator ?? '0x0000000000000000000000000000000000000001',
    f.question ?? `Question ${duelId.slice(2, 10)}?`,
    f.category ?? 'Football',
    '{}',
    arrayLiteral(options),
    'PREDICTION',
    f.collateralStack ?? 'credits',
    f.isPrivate ?? false,
    f.parentMarketId ?? null,
    (f.startTime ?? new Date(now)).toISOString(),
    (f.endTime ?? new Date(now + 24 * HOUR)).toISOString(),
    (f.createdAt ?? new Date(now)).toISOString(),
    f.status ?? 'open',
    f.chainState ?? 'confirmed',
    f.winningOptionIndex ?? null,
    arrayLiteral(f.poolBalances ?? []),
    0,
    0,
    5000,
    false,
    f.isCanonical ?? false,
    f.extVolume24h ?? null,
    f.feeBps ?? 0,
    String(f.initialLiquidity ?? 0),
  ];
  return { duelId, values };
}

/**
 * One `insert into duels` statement for `fixtures`, with `?` placeholders (MikroORM/knex); pass
 * `placeholders: 'pg'` for node-postgres' `$1, $2, …`.
 */
export function duelsInsert(
  fixtures: readonly DuelFixture[],
  options: { placeholders?: '?' | 'pg' } = {},
): { sql: string; params: unknown[]; duelIds: string[] } {
  const now = Date.now();
  const rows = fixtures.map((f) => rowOf(f, now));
  let n = 0;
  const mark = () => (options.placeholders === 'pg' ? `$${++n}` : '?');
  const tuple = () =>
    `(${COLUMNS.map((c) => {
      const cast = CASTS[c];
      return cast ? `${mark()}::${cast}` : mark();
    }).join(', ')})`;
  const sql = `insert into duels (${COLUMNS.join(', ')}) values ${rows.map(tuple).join(', ')}`;
  return { sql, params: rows.flatMap((r) => r.values), duelIds: rows.map((r) => r.duelId) };
}

/** Anything that runs SQL with `?` placeholders: an ORM connection, `sqlIn(em)`. */
export interface SqlRunner {
  execute(sql: string, params: unknown[]): Promise<unknown>;
}

/** Inserts one market row and returns its id. */
export async function insertDuel(db: SqlRunner, fixture: DuelFixture = {}): Promise<string> {
  const { sql, params, duelIds } = duelsInsert([fixture]);
  await db.execute(sql, params);
  return duelIds[0] as string;
}

/** Inserts market rows in one statement and returns their ids, in order. */
export async function insertDuels(db: SqlRunner, fixtures: readonly DuelFixture[]): Promise<string[]> {
  const { sql, params, duelIds } = duelsInsert(fixtures);
  await db.execute(sql, params);
  return duelIds;
}
