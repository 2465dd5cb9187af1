import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import { operationContext } from '../../platform/operation.context.js';
import type { ActorContext } from '../platform-invites/platform-invite.service.js';
import type { ArchiveStore } from './archive.store.js';
import { MANIFEST_FORMAT, MIGRATION_TABLES, type Manifest } from './migration.archive.js';
import { BrokenReference, type JobRecord, type MigrationRepository } from './migration.repository.js';
import { StreamMigrationService } from './stream-migration.service.js';

const START = Date.UTC(2026, 10, 28, 9, 15, 30, 250);
const SECOND = 1_000;
const TABLES = MIGRATION_TABLES.map((t) => t.table);
const sha256 = (lines: readonly string[]) =>
  createHash('sha256')
    .update(lines.map((l) => `${l}\n`).join(''))
    .digest('hex');

/** Archive folders in memory: a manifest (as JSON text) and one list of lines per file. */
class MemoryArchives {
  archives = new Map<string, { manifest: string | null; files: Map<string, string[]> }>();
  constructor(private readonly clock: ManualClock) {}
  private archive(id: string) {
    let a = this.archives.get(id);
    if (!a) this.archives.set(id, (a = { manifest: null, files: new Map() }));
    return a;
  }
  exists(id: string) {
    return this.archives.get(id)?.manifest != null;
  }
  async writeTable(id: string, table: string, rows: Readable) {
    const lines: string[] = [];
    for await (const row of rows as AsyncIterable<{ j: string }>) lines.push(row.j);
    this.archive(id).files.set(`${table}.ndjson`, lines);
    this.clock.advance(SECOND); // writing takes time
    return { rows: lines.length, sha256: sha256(lines) };
  }
  writeManifest(id: string, manifest: Manifest) {
    this.archive(id).manifest = JSON.stringify(manifest);
  }
  readManifest(id: string): unknown {
    return JSON.parse(this.archive(id).manifest ?? '');
  }
  measure(id: string, file: string) {
    const lines = this.archives.get(id)?.files.get(file);
    return Promise.resolve(lines ? { rows: lines.length, sha256: sha256(lines) } : undefined);
  }
  async *lines(id: string, file: string): AsyncIterable<string[]> {
    const lines = this.archives.get(id)?.files.get(file) ?? [];
    for (let i = 0; i < lines.length; i += 2) yield await Promise.resolve(lines.slice(i, i + 2));
  }
  manifestOf(id: string) {
    return JSON.parse(this.archive(id).manifest ?? 'null') as Manifest;
  }
  editManifest(id: string, edit: (m: Manifest) => unknown) {
    this.archive(id).manifest = JSON.stringify(edit(this.manifestOf(id)));
  }
}

/** The jobs table and the tournaments tables of one deployment, the load all-or-nothing. */
class MemoryMigrations {
  jobsById = new Map<string, JobRecord>();
  data = new Map<string, string[]>();
  /** A reference the load's check finds broken, or another failure of the load. */
  loadFailure: Error | null = null;
  constructor(private readonly clock: ManualClock) {}
  createJob(j: { id: string; kind: 'export' | 'import'; archiveId: string; version: number; by: string; now: Date }) {
    this.jobsById.set(j.id, {
      id: j.id,
      kind: j.kind,
      status: 'queued',
      archive_id: j.archiveId,
      format_version: j.version,
      tables: [],
      rows_done: 0,
      error_code: null,
      error_message: null,
      requested_by: j.by,
      created_at: j.now,
      started_at: null,
      finished_at: null,
    });
    this.clock.advance(1); // jobs are told apart by creation time
    return Promise.resolve();
  }
  private ordered() {
    return [...this.jobsById.values()].sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
  }
  job(id?: string) {
    return Promise.resolve(id ? this.jobsById.get(id) : this.ordered()[0]);
  }
  jobs(kind: string | undefined, limit: number, offset: number) {
    const rows = this.ordered().filter((j) => !kind || j.kind === kind);
    return Promise.resolve({ rows: rows.slice(offset, offset + limit), total: rows.length });
  }
  update(id: string, set: Partial<JobRecord>) {
    const job = this.jobsById.get(id);
    if (job) this.jobsById.set(id, { ...job, ...set });
    return Promise.resolve();
  }
  tableRows(table: string) {
    return Promise.resolve(Readable.from((this.data.get(table) ?? []).map((j) => ({ j }))));
  }
  nonEmpty() {
    return Promise.resolve(TABLES.filter((t) => (this.data.get(t)?.length ?? 0) > 0));
  }
  async load(rowsOf: (table: string) => AsyncIterable<string[]>, onTable: (table: string, rows: number) => unknown) {
    const staged = new Map<string, string[]>();
    for (const table of TABLES) {
      const rows: string[] = [];
      for await (const batch of rowsOf(table)) rows.push(...batch);
      staged.set(table, rows);
      await onTable(table, rows.length);
    }
    if (this.loadFailure) throw this.loadFailure;
    for (const [t, rows] of staged) this.data.set(t, rows);
  }
}

function deployment(clock: ManualClock) {
  const repo = new MemoryMigrations(clock);
  const archives = new MemoryArchives(clock);
  const service = new StreamMigrationService(
    repo as unknown as MigrationRepository,
    archives as unknown as ArchiveStore,
    () => new Date(clock.now()),
  );
  return { repo, archives, service };
}

function ctx(clock: ManualClock, actor = 'ops@example.com'): ActorContext {
  return { ...operationContext({ requestId: 'req-1', clock }), actor };
}

function seeded(clock: ManualClock) {
  const d = deployment(clock);
  d.repo.data.set('tournaments', ['{"id":"t1"}', '{"id":"t2"}']);
  d.repo.data.set('tournament_stages', ['{"id":"s1","tournament_id":"t1"}']);
  d.repo.data.set('tournament_entries', ['{"id":"e1"}', '{"id":"e2"}', '{"id":"e3"}']);
  return d;
}

/** An archive exported from a seeded deployment, copied into `to`. */
async function exported(clock: ManualClock, to = deployment(clock)) {
  const from = seeded(clock);
  const job = await from.service.requestExport(ctx(clock));
  to.archives.archives.set(job.archiveId, structuredClone(from.archives.archives.get(job.archiveId)!));
  return { ...to, archiveId: job.archiveId, source: from };
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof DomainError ? { code: e.code, ...e.details } : String(e);
  }
}

describe('StreamMigrationService', () => {
  it('exports every table, parents first, with row counts and checksums, as a job that succeeds', async () => {
    const clock = new ManualClock(START);
    const { archives, service } = seeded(clock);
    const job = await service.requestExport(ctx(clock));
    expect(job.archiveId).toMatch(/^export-2026-11-28T09-15-30-250Z-[0-9a-f]{8}$/);
    expect(job).toMatchObject({
      kind: 'export',
      status: 'succeeded',
      formatVersion: 1,
      rowsDone: 6,
      error: null,
      requestedBy: 'ops@example.com',
      createdAt: new Date(START).toISOString(),
      startedAt: new Date(START + 1).toISOString(),
      finishedAt: new Date(START + 1 + TABLES.length * SECOND).toISOString(),
    });
    expect(job.tables.map((t) => t.table)).toEqual(TABLES);
    expect(job.tables.filter((t) => t.rows > 0)).toEqual([
      { table: 'tournaments', rows: 2 },
      { table: 'tournament_stages', rows: 1 },
      { table: 'tournament_entries', rows: 3 },
    ]);
    const manifest = archives.manifestOf(job.archiveId);
    expect(manifest).toMatchObject({ format: MANIFEST_FORMAT, version: 1, createdAt: job.finishedAt });
    expect(manifest.tables[0]).toEqual({
      table: 'tournaments',
      file: 'tournaments.ndjson',
      rows: 2,
      sha256: sha256(['{"id":"t1"}', '{"id":"t2"}']),
    });
  });

  it('imports an archive into an empty deployment, table by table, in one load', async () => {
    const clock = new ManualClock(START);
    const { repo, service, archiveId, source } = await exported(clock);
    const job = await service.requestImport(ctx(clock, 'user:42'), archiveId);
    expect(job).toMatchObject({ kind: 'import', status: 'succeeded', archiveId, rowsDone: 6, requestedBy: 'user:42' });
    expect(job.tables).toHaveLength(TABLES.length);
    for (const table of TABLES) expect(repo.data.get(table) ?? []).toEqual(source.repo.data.get(table) ?? []);
    expect(await repo.nonEmpty()).toEqual(['tournaments', 'tournament_stages', 'tournament_entries']);
  });

  it('refuses to import into a deployment that holds tournaments state, naming the tables', async () => {
    const clock = new ManualClock(START);
    const target = deployment(clock);
    target.repo.data.set('tournament_bonds', ['{"id":"b1"}']);
    const { service, archiveId, repo } = await exported(clock, target);
    expect(await refusal(service.requestImport(ctx(clock), archiveId))).toEqual({
      code: 'IMPORT_TARGET_NOT_EMPTY',
      tables: ['tournament_bonds'],
    });
    expect(repo.jobsById.size).toBe(0);
  });

  it('refuses an archive it does not have, and one of another format version', async () => {
    const clock = new ManualClock(START);
    const { service, archives, archiveId, repo } = await exported(clock);
    expect(await refusal(service.requestImport(ctx(clock), 'export-nope'))).toEqual({
      code: 'ARCHIVE_NOT_FOUND',
      archiveId: 'export-nope',
    });
    archives.editManifest(archiveId, (m) => ({ ...m, version: 2 }));
    expect(await refusal(service.requestImport(ctx(clock), archiveId))).toEqual({
      code: 'ARCHIVE_VERSION_UNSUPPORTED',
      version: 2,
      supported: [1],
    });
    expect(repo.jobsById.size).toBe(0);
  });

  it('refuses a corrupt archive with the reason and the table', async () => {
    const clock = new ManualClock(START);
    const { service, archives, archiveId } = await exported(clock);
    const original = structuredClone(archives.archives.get(archiveId)!);
    const reset = () => archives.archives.set(archiveId, structuredClone(original));
    const check = () => refusal(service.validate(archiveId));

    archives.archives.get(archiveId)!.manifest = '{not json';
    expect(await check()).toEqual({ code: 'ARCHIVE_CORRUPT', reason: 'manifest' });
    reset();
    archives.editManifest(archiveId, (m) => ({ ...m, format: 'other' }));
    expect(await check()).toEqual({ code: 'ARCHIVE_CORRUPT', reason: 'manifest' });
    reset();
    archives.editManifest(archiveId, (m) => ({ ...m, tables: {} }));
    expect(await check()).toEqual({ code: 'ARCHIVE_CORRUPT', reason: 'manifest' });
    reset();
    archives.editManifest(archiveId, (m) => ({
      ...m,
      tables: [...m.tables, { ...m.tables[0]!, table: 'users', file: 'users.ndjson' }],
    }));
    expect(await check()).toEqual({ code: 'ARCHIVE_CORRUPT', reason: 'manifest', table: 'users' });
    reset();
    archives.editManifest(archiveId, (m) => ({ ...m, tables: [{ ...m.tables[0]!, file: '../tournaments.ndjson' }] }));
    expect(await check()).toEqual({ code: 'ARCHIVE_CORRUPT', reason: 'manifest', table: 'tournaments' });
    reset();
    archives.archives.get(archiveId)!.files.delete('tournament_stages.ndjson');
    expect(await check()).toEqual({ code: 'ARCHIVE_CORRUPT', reason: 'missing_file', table: 'tournament_stages' });
    reset();
    archives.archives.get(archiveId)!.files.get('tournament_entries.ndjson')!.pop();
    expect(await check()).toEqual({ code: 'ARCHIVE_CORRUPT', reason: 'count', table: 'tournament_entries' });
    reset();
    archives.archives.get(archiveId)!.files.get('tournaments.ndjson')![0] = '{"id":"tX"}';
    expect(await check()).toEqual({ code: 'ARCHIVE_CORRUPT', reason: 'checksum', table: 'tournaments' });
    reset();
    expect(await check()).toBe('ok');
  });

  it('checks the archive again when the job runs: a file changed after the request fails the job', async () => {
    const clock = new ManualClock(START);
    const { service, archives, archiveId, repo } = await exported(clock);
    const queued: string[] = [];
    service.useRunner((id) => (queued.push(id), Promise.resolve()));
    const job = await service.requestImport(ctx(clock), archiveId);
    expect(job.status).toBe('queued');
    archives.archives.get(archiveId)!.files.get('tournaments.ndjson')![1] = '{"id":"tY"}';
    await service.execute(queued[0]!);
    expect(await service.status(job.id)).toMatchObject({
      status: 'failed',
      error: { code: 'ARCHIVE_CORRUPT', message: 'tournaments.ndjson does not match its checksum' },
    });
    expect(repo.data.size).toBe(0);
  });

  it('fails the job on a broken reference, writing nothing', async () => {
    const clock = new ManualClock(START);
    const { service, archiveId, repo } = await exported(clock);
    repo.loadFailure = new BrokenReference('tournament_stages', 'tournament_id', 1);
    const job = await service.requestImport(ctx(clock), archiveId);
    expect(job).toMatchObject({
      status: 'failed',
      error: {
        code: 'ARCHIVE_CORRUPT',
        message: '1 rows of tournament_stages.tournament_id name a row the archive does not have',
      },
    });
    expect(job.finishedAt).not.toBeNull();
    expect(await repo.nonEmpty()).toEqual([]);
  });

  it('records any other failure as INTERNAL with its message', async () => {
    const clock = new ManualClock(START);
    const { service, archiveId, repo } = await exported(clock);
    repo.loadFailure = new Error('connection reset');
    const job = await service.requestImport(ctx(clock), archiveId);
    expect(job.error).toEqual({ code: 'INTERNAL', message: 'connection reset' });
  });

  it('runs a redelivered job once: a job past queued is left alone', async () => {
    const clock = new ManualClock(START);
    const { service, repo } = seeded(clock);
    const queued: string[] = [];
    service.useRunner((id) => (queued.push(id), Promise.resolve()));
    const { id } = await service.requestExport(ctx(clock));
    await service.execute(queued[0]!);
    const done = await service.status(id);
    clock.advance(60 * SECOND);
    repo.data.set('tournament_bonds', ['{"id":"late"}']);
    await service.execute(id);
    await service.execute('no-such-job');
    expect(await service.status(id)).toEqual(done);
  });

  it('shows one job or the latest, and pages jobs newest first by kind', async () => {
    const clock = new ManualClock(START);
    const { service, archives } = seeded(clock);
    expect(await refusal(service.status())).toEqual({ code: 'NOT_FOUND' });
    expect(await refusal(service.status('missing'))).toEqual({ code: 'NOT_FOUND' });
    const e1 = await service.requestExport(ctx(clock));
    const e2 = await service.requestExport(ctx(clock));
    archives.archives.set('copy', structuredClone(archives.archives.get(e1.archiveId)!));
    await refusal(service.requestImport(ctx(clock), 'copy')); // not empty: no job
    expect((await service.status()).id).toBe(e2.id);
    expect((await service.status(e1.id)).id).toBe(e1.id);
    const page1 = await service.jobs({ page: 1, limit: 1, kind: 'export' });
    expect(page1).toEqual({
      data: [await service.status(e2.id)],
      pagination: { page: 1, limit: 1, total: 2, hasMore: true },
    });
    const page2 = await service.jobs({ page: 2, limit: 1, kind: 'export' });
    expect(page2.data.map((j) => j.id)).toEqual([e1.id]);
    expect(page2.pagination.hasMore).toBe(false);
    expect((await service.jobs({ page: 1, limit: 10, kind: 'import' })).pagination.total).toBe(0);
  });
});
