import type { Orm } from './orm.js';

/**
 * What a crash can lose when PostgreSQL's `synchronous_commit` is off: a transaction the server
 * saw committed (the record of a signed chain write, an idempotency key's "effect started") may be
 * gone after the database restarts, while the chain still has the write — and a retry then sends
 * the effect again. Undefined when commits are durable.
 */
export async function durabilityWarning(orm: Orm): Promise<string | undefined> {
  const [row] = await orm.em
    .fork()
    .getConnection()
    .execute<{ synchronous_commit: string }[]>('show synchronous_commit');
  const setting = row?.synchronous_commit ?? 'on';
  if (setting !== 'off') return undefined;
  return (
    'PostgreSQL synchronous_commit is off: a database crash can lose the record of a chain write the chain ' +
    'already has, and a retried request would then send it again. Keep it on for this database or role ' +
    '(docs/deployment.md, "Durable commits").'
  );
}
