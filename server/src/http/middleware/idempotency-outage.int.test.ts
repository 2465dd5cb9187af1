import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { initContract } from '@ts-rest/core';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { z } from 'zod';
import { serveOnLoopback } from '../../../test/support/http.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commonResponses, meta } from '@duelkit/contract';
import { createHostApp, tsRest } from '../../app.js';
import { IdempotencyRepository } from '../../platform/idempotency/idempotency.repository.js';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';

/**
 * An Idempotency-Key after a database outage: the request fails with 503 while PostgreSQL is cut,
 * so the release of its key cannot reach the database either. Once PostgreSQL is back, a retry
 * with the key runs at once (docs/kernel.md) — unless the request's effect had started.
 */

const c = initContract();
const outageContract = c.router(
  {
    write: {
      method: 'POST',
      path: '/test/outage-writes',
      body: z.object({ note: z.string(), cut: z.enum(['no', 'before-effect', 'after-effect']) }).strict(),
      responses: { 201: z.object({ note: z.string(), runs: z.number() }).strict() },
      metadata: meta('Test', '0', 'public', { idempotent: true }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);

let proxy: TcpProxy;
let server: TestServer;
let probe: Awaited<ReturnType<typeof serveOnLoopback>> | undefined;
let url: string;
let direct: pg.Client;
const runs = new Map<string, number>();

beforeAll(async () => {
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  server = await startTestServer({ IDEMPOTENCY_WAIT_MS: '500' }, {}, (u) => proxy.urlFor(u));
  direct = new pg.Client({ connectionString: server.database.url });
  await direct.connect();
  const s = initServer();
  const app = createHostApp(server.container, 'markets', (a, options) =>
    createExpressEndpoints(
      outageContract,
      s.router(outageContract, {
        write: async ({ body, req }) => {
          const n = (runs.get(body.note) ?? 0) + 1;
          runs.set(body.note, n);
          const conn = server.container.orm.em.fork().getConnection();
          if (n === 1 && body.cut === 'after-effect') {
            // What the chain pipeline does when it records a signed write for the request.
            const run = req.idempotentRun;
            if (!run) throw new Error('no idempotent run');
            await conn.execute('update idempotency_keys set effect_started_at = now() where id = ?', [run.recordId]);
            run.effectStarted = true;
          }
          if (n === 1 && body.cut !== 'no') await proxy.cut();
          await conn.execute('select 1');
          return { status: 201, body: { note: body.note, runs: n } };
        },
      }),
      a,
      tsRest(options),
    ),
  );
  probe = await serveOnLoopback(app);
  url = probe.url;
}, 120_000);

afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await probe?.close();
  await direct?.end();
  await server?.close();
  await proxy?.close();
});

async function write(key: string, body: { note: string; cut: string }) {
  const res = await fetch(`${url}/test/outage-writes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-builder-api-key': server.builderKey, 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const recordOf = async (key: string) =>
  (
    await direct.query<{ state: string; effect_started_at: Date | null }>(
      'select state, effect_started_at from idempotency_keys where idempotency_key = $1',
      [key],
    )
  ).rows[0];

/** Polls until `read` holds (the pools reconnect by themselves once the proxy is restored). */
async function until(read: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await read())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const databaseBack = () => until(async () => (await fetch(`${server.marketsUrl}/ready`)).status === 200, 30_000);

describe('Idempotency-Key after a 503 DATABASE_UNAVAILABLE', () => {
  it('runs a retry with the same key as soon as the database is back, although the release was lost', async () => {
    const body = { note: 'retry-here', cut: 'before-effect' };
    const failed = await write('outage-retry-here', body);
    expect([failed.status, failed.body['code']]).toEqual([503, 'DATABASE_UNAVAILABLE']);
    expect(failed.headers.get('retry-after')).toBe('5');
    expect(failed.body['details'] ?? {}).not.toHaveProperty('outcome');
    // The release did not reach the database: the record is still in flight there.
    expect((await recordOf('outage-retry-here'))?.state).toBe('in_flight');
    await proxy.restore();
    await databaseBack();

    const retried = await write('outage-retry-here', body);
    expect(retried.status).toBe(201);
    expect(retried.body).toEqual({ note: 'retry-here', runs: 2 });
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect((await write('outage-retry-here', body)).headers.get('idempotent-replayed')).toBe('true');
    expect(runs.get('retry-here')).toBe(2);
  }, 60_000);

  it('releases the key in the background once the database answers, so a retry through any instance runs', async () => {
    const body = { note: 'released-later', cut: 'before-effect' };
    expect((await write('outage-released-later', body)).status).toBe(503);
    expect((await recordOf('outage-released-later'))?.state).toBe('in_flight');
    await proxy.restore();
    // No retry reaches this instance: the row goes away by itself (another instance inserts anew).
    await until(async () => (await recordOf('outage-released-later')) === undefined);
  }, 60_000);

  it('never releases nor takes over a key whose effect had started, and says the outcome is unknown', async () => {
    const body = { note: 'effect-started', cut: 'after-effect' };
    const failed = await write('outage-effect-started', body);
    expect([failed.status, failed.body['code']]).toEqual([503, 'DATABASE_UNAVAILABLE']);
    expect(failed.body['details']).toMatchObject({ outcome: 'unknown' });
    expect(failed.body['message']).toMatch(/outcome is unknown/);
    await proxy.restore();
    await databaseBack();

    const retried = await write('outage-effect-started', body);
    expect([retried.status, retried.body['code']]).toEqual([409, 'IDEMPOTENCY_KEY_IN_FLIGHT']);
    // Several rounds of the background release have passed by now: the record is still held.
    await new Promise((r) => setTimeout(r, 1_500));
    const record = await recordOf('outage-effect-started');
    expect(record?.state).toBe('in_flight');
    expect(record?.effect_started_at).not.toBeNull();
    expect((await write('outage-effect-started', body)).status).toBe(409);
    expect(runs.get('effect-started')).toBe(1);
  }, 60_000);

  it('releases and takes over a record only under the lock its execution held, and never once its effect started', async () => {
    const repo = new IdempotencyRepository(server.container.orm);
    const ref = { tenantId: randomUUID(), caller: 'caller', route: 'POST /test', key: 'lock-test' };
    const first = await repo.insertInFlight(ref, 'fp', 60_000);
    if (!first) throw new Error('not inserted');
    const second = await repo.takeOverEnded(first.id, first.lock);
    expect(second).toBeDefined();
    // The first execution's late release and a second takeover with its stale lock change nothing.
    expect(await repo.takeOverEnded(first.id, first.lock)).toBeUndefined();
    await repo.release(first.id, first.lock);
    expect(await repo.find(ref)).toBeDefined();
    await direct.query('update idempotency_keys set effect_started_at = now() where id = $1', [first.id]);
    expect(await repo.takeOverEnded(first.id, second as string)).toBeUndefined();
    await repo.release(first.id, second);
    expect((await repo.find(ref))?.effect_started_at).not.toBeNull();
    await direct.query('update idempotency_keys set effect_started_at = null where id = $1', [first.id]);
    await repo.release(first.id, second);
    expect(await repo.find(ref)).toBeUndefined();
  });
});
