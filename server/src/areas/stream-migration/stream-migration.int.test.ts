import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Body } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { adminTokenOf } from '../tournaments/tournaments-close.test-kit.js';
import { MIGRATION_TABLES, type Manifest } from './migration.archive.js';

/** Two deployments sharing one archive folder: the source with tournaments state, the target empty. */
const dir = mkdtempSync(join(tmpdir(), 'dk-migration-'));
let source: TestServer;
let target: TestServer;
const admins = new Map<TestServer, string>();

function sql<T>(server: TestServer, q: string, params: unknown[] = []) {
  return server.container.orm.em.fork().getConnection().execute<T[]>(q, params);
}

async function call(server: TestServer, path: string, body?: unknown) {
  const res = await fetch(`${server.tournamentsUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'x-builder-api-key': server.builderKey,
      authorization: `Bearer ${admins.get(server) ?? ''}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

/** Every table of the scope as its rows' JSON in primary-key order. */
async function state(server: TestServer): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const { table } of MIGRATION_TABLES) {
    const rows = await sql<{ j: string }>(server, `select row_to_json(t)::text as j from "${table}" t order by 1`);
    out[table] = rows.map((r) => r.j);
  }
  return out;
}

/** A tournament with a stage, two fixtures, two entrants, their stage entries and picks, and an admin action. */
async function seed(server: TestServer) {
  const now = server.container.clock.now();
  const at = (hours: number) => new Date(now + hours * 3_600_000);
  const id = randomBytes(12).toString('hex');
  const stageId = randomUUID();
  const wallet = (n: number) => `0x${String(n).repeat(40)}`;
  await sql(
    server,
    `insert into tournaments (id, name, sport, game_type, format, type, status, stake_asset, owner_wallet, total_stages,
       min_entries, max_entrants, chips_per_stage, group_size, advance_per_group, fixtures_per_stage, league_id, fee_bps,
       payout_bps, creator_deposit_tx_hash, pool_id, starts_at, ends_at, created_at, updated_at)
     values (?, 'Migration cup', 'football', 'classic', 'single', 'public', 'ACTIVE', 'USDC', ?, 1, 2, 8, 1000, 4, 2, 2,
       8, 250, '[7000,3000]', ?, ?, ?, ?, ?, ?)`,
    [id, wallet(1), `0x${'2'.repeat(64)}`, `0x${'3'.repeat(64)}`, at(-1), at(10), at(-2), at(-1)],
  );
  await sql(
    server,
    `insert into tournament_stages (id, tournament_id, stage_index, stage_name, kind, buyin, multiplier, is_final,
       start_chips, window_start, window_end, starts_at, lock_at, ends_at)
     values (?, ?, 0, 'Final', 'final', '1000000000000000000000', 1, true, 1000, ?, ?, ?, ?, ?)`,
    [stageId, id, at(-1), at(10), at(-1), at(9), at(10)],
  );
  const fixtures = [randomUUID(), randomUUID()];
  for (const [i, fixtureId] of fixtures.entries()) {
    await sql(
      server,
      `insert into tournament_fixtures (id, tournament_id, stage_id, provider_fixture_id, title, home_team, away_team,
         starts_at, lock_at, ends_at, expires_at, odds_home, odds_draw, odds_away)
       values (?, ?, ?, ?, ?, 'Home', 'Away', ?, ?, ?, ?, 210, 320, 430)`,
      [fixtureId, id, stageId, 18_100_000 + i, `Home v Away ${i}`, at(i + 1), at(i + 1), at(i + 3), at(i + 4)],
    );
  }
  for (const n of [4, 5]) {
    const entryId = randomUUID();
    await sql(
      server,
      `insert into tournament_entries (id, tournament_id, wallet, user_id, is_creator, seq, deposit_tx_hash, entered_at)
       values (?, ?, ?, null, ?, ?, ?, ?)`,
      [entryId, id, wallet(n), n === 4, n, `0x${String(n).repeat(64)}`, at(-1)],
    );
    await sql(
      server,
      `insert into tournament_stage_entries (stage_id, entry_id, tournament_id, wallet, start_chips, available, stack, status)
       values (?, ?, ?, ?, 1000, 900, 1000, 'ALIVE')`,
      [stageId, entryId, id, wallet(n)],
    );
    await sql(
      server,
      `insert into tournament_picks (id, tournament_id, stage_id, fixture_id, entry_id, wallet, outcome, stake, odds, status, created_at)
       values (?, ?, ?, ?, ?, ?, 'HOME', 100, 210, 'OPEN', ?)`,
      [randomUUID(), id, stageId, fixtures[n % 2], entryId, wallet(n), at(-0.5)],
    );
  }
}

/** A copy of `archiveId` whose picks name a fixture nobody has, its manifest re-checksummed to match. */
function withBrokenReference(archiveId: string): string {
  const broken = `${archiveId}-broken`;
  cpSync(join(dir, archiveId), join(dir, broken), { recursive: true });
  const file = join(dir, broken, 'tournament_picks.ndjson');
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const first = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
  lines[0] = JSON.stringify({ ...first, fixture_id: randomUUID() });
  const text = `${lines.join('\n')}\n`;
  writeFileSync(file, text);
  const manifestPath = join(dir, broken, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const tables = manifest.tables.map((t) =>
    t.table === 'tournament_picks' ? { ...t, sha256: createHash('sha256').update(text).digest('hex') } : t,
  );
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, tables }));
  return broken;
}

beforeAll(async () => {
  source = await startTestServer({ STREAM_MIGRATION_DIR: dir });
  target = await startTestServer({ STREAM_MIGRATION_DIR: dir });
  admins.set(source, await adminTokenOf(source));
  admins.set(target, await adminTokenOf(target));
}, 180_000);
afterAll(async () => {
  await target?.close();
  await source?.close();
});

describe('stream migration between two deployments', () => {
  it('refuses an archive with a broken reference writing nothing, then imports the export row for row', async () => {
    await seed(source);
    const before = await state(source);
    expect(before['tournament_picks']).toHaveLength(2);

    const exported = await call(source, '/svc/admin/stream-migration/export', {});
    expect(exported.body).toMatchObject({ kind: 'export', status: 'succeeded', rowsDone: expect.any(Number) });
    const archiveId = exported.body['archiveId'] as string;

    const broken = await call(target, '/svc/admin/stream-migration/import', {
      archiveId: withBrokenReference(archiveId),
    });
    expect(broken.body).toMatchObject({
      kind: 'import',
      status: 'failed',
      error: { code: 'ARCHIVE_CORRUPT', message: expect.stringContaining('tournament_picks.fixture_id') },
    });
    const empty = await state(target);
    expect(Object.values(empty).flat()).toEqual([]);

    const imported = await call(target, '/svc/admin/stream-migration/import', { archiveId });
    expect(imported.body).toMatchObject({ kind: 'import', status: 'succeeded', rowsDone: exported.body['rowsDone'] });
    expect(await state(target)).toEqual(before);

    // A second import into the now full deployment is refused.
    const again = await call(target, '/svc/admin/stream-migration/import', { archiveId });
    expect([again.status, again.body['code']]).toEqual([409, 'IMPORT_TARGET_NOT_EMPTY']);
    const jobs = await call(target, '/svc/admin/stream-migration/jobs');
    expect((jobs.body['data'] as Body[]).map((j) => j['status'] as string)).toEqual(['succeeded', 'failed']);
  });
});
