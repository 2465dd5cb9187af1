import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { initOrm } from '../src/platform/db/orm.js';
import { entities } from '../src/entities.js';
import { ensureTestBuild } from './support/test-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDatabase: string;
    runId: string;
  }
}

const adminUrl = process.env['TEST_PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Builds `.test-build/` (see support/test-build.ts) and migrates one template database per run; every test file then clones it (CREATE DATABASE …
 * TEMPLATE), which takes milliseconds and isolates files from each other.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The JavaScript every child process (servers, operator commands, chain nodes) runs.
  await ensureTestBuild();
  const runId = randomBytes(4).toString('hex');
  const template = `dk_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const orm = await initOrm(entities, withDatabase(adminUrl, template), 2, true);
  await orm.close(true);
  await admin.end();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDatabase', template);
  project.provide('runId', runId);
  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = $2`,
      [`dk_t_${runId}_%`, template],
    );
    for (const { datname } of rows) {
      await client.query(`drop database if exists ${datname} with (force)`);
    }
    await client.end();
  };
}
