import { EntitySchema } from '@mikro-orm/core';

const timestamptz = { type: 'Date', columnType: 'timestamptz' } as const;

/** An export or import of the tournaments state (docs/operations.md, "Data migration"). */
export const MigrationJobEntity = new EntitySchema<Record<string, unknown>>({
  name: 'MigrationJob',
  tableName: 'stream_migration_jobs',
  indexes: [{ name: 'stream_migration_jobs_created_idx', properties: ['createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    kind: { type: 'string', length: 6 },
    status: { type: 'string', length: 10 },
    archiveId: { type: 'string', length: 100 },
    formatVersion: { type: 'integer' },
    tables: { type: 'json', columnType: 'jsonb' },
    rowsDone: { type: 'integer', default: 0 },
    errorCode: { type: 'string', length: 60, nullable: true },
    errorMessage: { type: 'text', nullable: true },
    requestedBy: { type: 'string', length: 320 },
    createdAt: timestamptz,
    startedAt: { ...timestamptz, nullable: true },
    finishedAt: { ...timestamptz, nullable: true },
  },
});

/** The stream-migration job table. */
export const streamMigrationEntities: readonly EntitySchema[] = [MigrationJobEntity];
