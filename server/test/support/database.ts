import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database cloned from the run's template, on the real local PostgreSQL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  return createDatabase(inject('templateDatabase'));
}

/** A fresh database with nothing in it, as a first deployment finds it. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  return createDatabase('template0');
}

async function createDatabase(template: string): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `dk_t_${inject('runId')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${template}`);
        break;
      } catch (err) {
        // Two clones of one template at the same instant: the second sees the first as a user.
        if (attempt < 20 && String(err).includes('being accessed by other users')) {
          await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
          continue;
        }
        throw err;
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
