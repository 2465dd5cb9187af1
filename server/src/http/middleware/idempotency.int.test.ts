import { initContract } from '@ts-rest/core';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { AmountSchema, commonResponses, meta, TxHashSchema } from '@duelkit/contract';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { serveOnLoopback } from '../../../test/support/http.js';
import { until } from '../../../test/support/market-fixtures.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostApp, tsRest } from '../../app.js';
import { ctxOf } from '../request-context.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';

const c = initContract();

/**
 * One idempotent route whose handler mints on chain through the pipeline, then does what the
 * request's `then` says: answer, fail, or hold the request open for a while. `wait-first` holds a
 * destination's first run before it mints, until the test lets it go (`letGo`).
 */
const grantContract = c.router(
  {
    grant: {
      method: 'POST',
      path: '/test/grants',
      body: z
        .object({
          to: z.string(),
          amount: AmountSchema,
          then: z.enum(['answer', 'fail', 'fail-first', 'hold', 'wait-first']),
          knownAnswer: z.boolean(),
        })
        .strict(),
      responses: { 201: z.object({ txHash: TxHashSchema, amount: AmountSchema }).strict() },
      metadata: meta('Test', '0', 'public', { idempotent: true }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);

let server: TestServer;
let probe: Awaited<ReturnType<typeof serveOnLoopback>> | undefined;
let url: string;
let runs = 0;
const seen = new Set<string>();
/** Destinations whose first run is held before it mints, and how to let it go on. */
const held = new Map<string, () => void>();
const letGo = (to: string) => held.get(to)?.();

async function grant(key: string, body: Record<string, unknown>) {
  const res = await fetch(`${url}/test/grants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-builder-api-key': server.builderKey, 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const keyRow = async (key: string) =>
  (
    await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ state: string; started: boolean }[]>(
        `select state, effect_started_at is not null as started from idempotency_keys where idempotency_key = ?`,
        [key],
      )
  )[0];

beforeAll(async () => {
  server = await startTestServer({ IDEMPOTENCY_LOCK_TIMEOUT_MS: '1000', IDEMPOTENCY_WAIT_MS: '300' });
  const s = initServer();
  const app = createHostApp(server.container, 'markets', (a, options) =>
    createExpressEndpoints(
      grantContract,
      s.router(grantContract, {
        grant: async ({ body, req }) => {
          runs++;
          if (body.then === 'wait-first' && !held.has(body.to)) {
            await new Promise<void>((resolve) => held.set(body.to, resolve));
          }
          const answer = (txHash: `0x${string}`) => ({ txHash, amount: body.amount });
          const txHash = await server.container.chain.mint('credits', body.to as `0x${string}`, BigInt(body.amount), {
            write: ctxOf(req).writeKey('grant'),
            ...(body.knownAnswer ? { result: answer } : {}),
          });
          const firstTime = !seen.has(body.to);
          seen.add(body.to);
          if (body.then === 'fail' || (body.then === 'fail-first' && firstTime)) {
            throw new Error('the process lost its database after the send');
          }
          if (body.then === 'hold') await new Promise((r) => setTimeout(r, 1_500));
          return { status: 201, body: answer(txHash) };
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
  await probe?.close();
  await server?.close();
});

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
const balance = (to: string) => server.container.chain.collateralBalance('credits', to as `0x${string}`);

describe('Idempotency-Key once the effect started', () => {
  it('answers the pending answer instead of a 5xx when the request fails after its write was recorded', async () => {
    const to = fresh();
    const body = { to, amount: '5', then: 'fail', knownAnswer: true };
    const first = await grant('fail-after-send', body);
    expect(first.status).toBe(201);
    expect(first.body['amount']).toBe('5');
    const retry = await grant('fail-after-send', body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await balance(to)).toBe(5n);
  });

  it('replays the answer recorded with the write to a duplicate that arrives while the first still runs', async () => {
    const to = fresh();
    const body = { to, amount: '6', then: 'hold', knownAnswer: true };
    let firstAnswered = false;
    const first = grant('held', body).finally(() => (firstAnswered = true));
    // The statement that records the write completes the key with its answer.
    await until(
      () => keyRow('held'),
      (row) => row?.state === 'completed',
      10_000,
    );
    const duplicate = await grant('held', body);
    expect(firstAnswered).toBe(false);
    expect(duplicate.status).toBe(201);
    expect(duplicate.headers.get('idempotent-replayed')).toBe('true');
    expect(duplicate.body).toEqual((await first).body);
    expect(await balance(to)).toBe(6n);
  });

  it('keeps a key whose effect started without a known answer, and resumes it after the lock timeout without a second write', async () => {
    const to = fresh();
    const body = { to, amount: '7', then: 'fail-first', knownAnswer: false };
    const before = runs;
    const first = await grant('resume', body);
    expect(first.status).toBe(500);
    expect(await keyRow('resume')).toEqual({ state: 'in_flight', started: true });
    // Not released: within the lock timeout a retry is told to wait, not run again.
    const early = await grant('resume', body);
    expect(early).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_KEY_IN_FLIGHT' } });
    // Asked again until the lock times out: every retry before then is refused the same way.
    const resumed = await until(
      () => grant('resume', body),
      (r) => r.status !== 409 || r.body['code'] !== 'IDEMPOTENCY_KEY_IN_FLIGHT',
      30_000,
    );
    expect(resumed.status).toBe(201);
    expect(runs - before).toBe(2);
    // The resumed run found its write by key: the first run's transaction, minted once.
    const [sent] = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ tx_hash: string; n: string }[]>(
        `select min(tx_hash) as tx_hash, count(*) as n from chain_txs where kind = 'collateral.mint' and effect->>'to' = ?`,
        [to],
      );
    expect(sent?.n).toBe('1');
    expect(resumed.body['txHash']).toBe(sent?.tx_hash);
    expect(await balance(to)).toBe(7n);
  });

  it('sends one write when a retry takes over the key of a request that is still running, slower than the lock timeout', async () => {
    const to = fresh();
    const body = { to, amount: '9', then: 'wait-first', knownAnswer: false };
    const before = runs;
    const slow = grant('overlap', body);
    await until(
      () => Promise.resolve(runs - before),
      (n) => n === 1,
      10_000,
    );
    expect(await keyRow('overlap')).toEqual({ state: 'in_flight', started: false });
    // The first run's lock grows older than the lock timeout while it still runs (aged in the
    // database, whose clock the lock is judged by).
    await server.container.orm.em
      .fork()
      .getConnection()
      .execute(`update idempotency_keys set locked_at = locked_at - interval '1 hour' where idempotency_key = ?`, [
        'overlap',
      ]);
    const retry = await grant('overlap', body);
    expect(retry.status).toBe(201);
    expect(runs - before).toBe(2);

    // The first run goes on: its write is the one the retry recorded, found by its name.
    letGo(to);
    const first = await slow;
    expect(first.status).toBe(201);
    expect(first.body['txHash']).toBe(retry.body['txHash']);
    const [sent] = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ n: string }[]>(
        `select count(*) as n from chain_txs where kind = 'collateral.mint' and effect->>'to' = ?`,
        [to],
      );
    expect(sent?.n).toBe('1');
    expect(await balance(to)).toBe(9n);
    expect(await keyRow('overlap')).toEqual({ state: 'completed', started: true });
  });

  it('releases a key whose request failed before any write, so a retry runs', async () => {
    const body = { to: 'not-an-address', amount: '1', then: 'answer', knownAnswer: true };
    const first = await grant('never-started', body);
    expect(first.status).toBe(500);
    expect(await keyRow('never-started')).toBeUndefined();
  });
});
