import { DomainError } from '../../errors.js';
import type { ActorContext } from '../platform-invites/platform-invite.service.js';
import type { ArchiveStore } from './archive.store.js';
import { MANIFEST_FORMAT, MIGRATION_FORMAT_VERSION, MIGRATION_TABLES, type Manifest } from './migration.archive.js';
import { BrokenReference, newJobId, type JobRecord, type MigrationRepository } from './migration.repository.js';

/** Runs a job now or on the job engine; the engine's delivery is at least once (a job checks its status). */
export type JobRunner = (jobId: string) => Promise<void>;

export function toJobDto(j: JobRecord) {
  return {
    id: j.id,
    kind: j.kind,
    status: j.status,
    archiveId: j.archive_id,
    formatVersion: Number(j.format_version),
    tables: (j.tables ?? []).map((t) => ({ table: t.table, rows: Number(t.rows) })),
    rowsDone: Number(j.rows_done),
    error: j.error_code ? { code: j.error_code, message: j.error_message ?? '' } : null,
    requestedBy: j.requested_by,
    createdAt: new Date(j.created_at).toISOString(),
    startedAt: j.started_at ? new Date(j.started_at).toISOString() : null,
    finishedAt: j.finished_at ? new Date(j.finished_at).toISOString() : null,
  };
}

/**
 * Stream migration (docs/operations.md, "Data migration"): the tournaments host's state exported
 * to a versioned archive (NDJSON per table, a manifest with counts and SHA-256 checksums) and
 * imported into an empty deployment in one transaction, each as a tracked job.
 */
export class StreamMigrationService {
  private runner: JobRunner = async (id) => {
    await this.execute(id);
  };

  constructor(
    private readonly repo: MigrationRepository,
    private readonly archives: ArchiveStore,
    private readonly now: () => Date,
  ) {}

  /** Jobs go through `runner` (the job engine) from now on. */
  useRunner(runner: JobRunner): void {
    this.runner = runner;
  }

  async requestExport(ctx: ActorContext) {
    const id = newJobId();
    const archiveId = `export-${ctx.now.toISOString().replace(/[:.]/g, '-')}-${id.slice(0, 8)}`;
    await this.repo.createJob({
      id,
      kind: 'export',
      archiveId,
      version: MIGRATION_FORMAT_VERSION,
      by: ctx.actor,
      now: ctx.now,
    });
    await this.runner(id);
    return this.status(id);
  }

  async requestImport(ctx: ActorContext, archiveId: string) {
    await this.validate(archiveId);
    const notEmpty = await this.repo.nonEmpty();
    if (notEmpty.length > 0) {
      throw new DomainError('IMPORT_TARGET_NOT_EMPTY', 'An import loads into a deployment without tournaments state', {
        details: { tables: notEmpty },
      });
    }
    const id = newJobId();
    await this.repo.createJob({
      id,
      kind: 'import',
      archiveId,
      version: MIGRATION_FORMAT_VERSION,
      by: ctx.actor,
      now: ctx.now,
    });
    await this.runner(id);
    return this.status(id);
  }

  async status(jobId?: string) {
    const job = await this.repo.job(jobId);
    if (!job) throw new DomainError('NOT_FOUND', jobId ? `No migration job ${jobId}` : 'No migration job has run yet');
    return toJobDto(job);
  }

  async jobs(query: { page: number; limit: number; kind?: string | undefined }) {
    const { rows, total } = await this.repo.jobs(query.kind, query.limit, (query.page - 1) * query.limit);
    return {
      data: rows.map(toJobDto),
      pagination: { page: query.page, limit: query.limit, total, hasMore: query.page * query.limit < total },
    };
  }

  /** Runs a queued job to its end; a job already past `queued` is left alone (a redelivery). */
  async execute(jobId: string): Promise<void> {
    const job = await this.repo.job(jobId);
    if (!job || job.status !== 'queued') return;
    await this.repo.update(jobId, { status: 'running', started_at: this.now() });
    try {
      if (job.kind === 'export') await this.runExport(job);
      else await this.runImport(job);
      await this.repo.update(jobId, { status: 'succeeded', finished_at: this.now() });
    } catch (err) {
      const e =
        err instanceof DomainError
          ? err
          : err instanceof BrokenReference
            ? new DomainError('ARCHIVE_CORRUPT', err.message, { details: { reason: 'foreign_key', table: err.table } })
            : new DomainError('INTERNAL', (err as Error).message);
      await this.repo.update(jobId, {
        status: 'failed',
        error_code: e.code,
        error_message: e.message,
        finished_at: this.now(),
      });
    }
  }

  private async runExport(job: JobRecord): Promise<void> {
    const tables: Manifest['tables'][number][] = [];
    let done = 0;
    for (const { table } of MIGRATION_TABLES) {
      const written = await this.archives.writeTable(job.archive_id, table, await this.repo.tableRows(table));
      tables.push({ table, file: `${table}.ndjson`, ...written });
      done += written.rows;
      await this.repo.update(job.id, {
        tables: tables.map((t) => ({ table: t.table, rows: t.rows })),
        rows_done: done,
      });
    }
    this.archives.writeManifest(job.archive_id, {
      format: MANIFEST_FORMAT,
      version: MIGRATION_FORMAT_VERSION,
      createdAt: this.now().toISOString(),
      tables,
    });
  }

  private async runImport(job: JobRecord): Promise<void> {
    const manifest = await this.validate(job.archive_id);
    const files = new Map(manifest.tables.map((t) => [t.table, t.file]));
    const loaded: { table: string; rows: number }[] = [];
    await this.repo.load(
      (table) => {
        const file = files.get(table);
        return file ? this.archives.lines(job.archive_id, file) : empty();
      },
      (table, rows) => {
        loaded.push({ table, rows });
      },
    );
    await this.repo.update(job.id, { tables: loaded, rows_done: loaded.reduce((n, t) => n + t.rows, 0) });
  }

  /** The archive's manifest once its format, version, tables, counts and checksums are right. */
  async validate(archiveId: string): Promise<Manifest> {
    if (!this.archives.exists(archiveId)) {
      throw new DomainError('ARCHIVE_NOT_FOUND', `No archive ${archiveId} in this deployment's STREAM_MIGRATION_DIR`, {
        details: { archiveId },
      });
    }
    const corrupt = (reason: string, message: string, table?: string) =>
      new DomainError('ARCHIVE_CORRUPT', message, { details: { reason, ...(table ? { table } : {}) } });
    let manifest: Manifest;
    try {
      manifest = this.archives.readManifest(archiveId) as Manifest;
    } catch {
      throw corrupt('manifest', 'manifest.json is not JSON');
    }
    const tables: unknown = manifest?.tables;
    if (manifest?.format !== MANIFEST_FORMAT || !Array.isArray(tables)) {
      throw corrupt('manifest', 'manifest.json is not a Duelkit stream-migration manifest');
    }
    if (manifest.version !== MIGRATION_FORMAT_VERSION) {
      throw new DomainError(
        'ARCHIVE_VERSION_UNSUPPORTED',
        `Archive version ${String(manifest.version)}; this server reads ${MIGRATION_FORMAT_VERSION}`,
        {
          details: { version: manifest.version, supported: [MIGRATION_FORMAT_VERSION] },
        },
      );
    }
    const known = new Set(MIGRATION_TABLES.map((t) => t.table));
    for (const t of manifest.tables) {
      if (!known.has(t.table) || t.file !== `${t.table}.ndjson`)
        throw corrupt('manifest', `Unknown table ${t.table}`, t.table);
      const actual = await this.archives.measure(archiveId, t.file);
      if (!actual) throw corrupt('missing_file', `${t.file} is missing`, t.table);
      if (actual.rows !== t.rows)
        throw corrupt('count', `${t.file} has ${actual.rows} rows; the manifest says ${t.rows}`, t.table);
      if (actual.sha256 !== t.sha256) throw corrupt('checksum', `${t.file} does not match its checksum`, t.table);
    }
    return manifest;
  }
}

async function* empty(): AsyncIterable<string[]> {}
