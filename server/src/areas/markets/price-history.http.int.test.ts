import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE } from './fpmm.math.js';
import { insertDuel as insertDuelRow, newDuelId } from '../../../test/support/duel-fixture.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { recordTradeSnapshot } from './price-snapshot.repository.js';

const CREATOR = '0x00000000000000000000000000000000000000Aa';

let server: TestServer;
/** Builder key of the app the user tokens below belong to. */
let builderKey: string;
let creatorToken: string;
let strangerToken: string;

async function insertDuel(isPrivate: boolean, parent: string | null = null): Promise<string> {
  return insertDuelRow(server.container.orm.em.fork().getConnection(), {
    creator: CREATOR.toLowerCase(),
    question: 'Will it rain',
    category: 'Weather',
    isPrivate,
    parentMarketId: parent,
    createdAt: new Date(Date.now() - 86_400_000),
    poolBalances: [ONE, ONE],
  });
}

async function get(path: string, token?: string) {
  const res = await fetch(`${server.marketsUrl}${path}`, {
    headers: { 'x-builder-api-key': builderKey, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  server = await startTestServer();
  const created = await server.container.builderKeys.create({ name: 'price-history', tier: 'team' });
  builderKey = created.key;
  const sign = async (address: string) =>
    (
      await server.container.identity.tokens.signUser({
        sub: randomUUID(),
        bap: created.tenant.builderAppId,
        address,
        eoaAddress: null,
      })
    ).token;
  creatorToken = await sign(CREATOR);
  strangerToken = await sign('0x00000000000000000000000000000000000000bB');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('price history over HTTP', () => {
  it('serves a public duel’s chart with the documented body', async () => {
    const duelId = await insertDuel(false);
    const conn = server.container.orm.em.fork().getConnection();
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    await recordTradeSnapshot(conn, duelId, [ONE, 3n * ONE], tenMinutesAgo);

    const res = await get(`/svc/public/bets/yes-percentage-snapshots/${duelId}?timeRange=1H&limit=10`);
    expect(res).toEqual({
      status: 200,
      body: {
        duelId,
        timeRange: '1H',
        bucketSeconds: 120,
        points: [
          {
            timestamp: new Date(tenMinutesAgo * 1000).toISOString(),
            yesPercentage: 75,
            prices: ['750000000000000000', '250000000000000000'],
          },
        ],
      },
    });
    const byDefault = await get(`/svc/public/bets/yes-percentage-snapshots/${duelId}`);
    expect(byDefault.body).toMatchObject({ timeRange: '1D', bucketSeconds: 1800 });
  });

  it('rejects a bad timeRange or limit with VALIDATION_FAILED', async () => {
    const duelId = await insertDuel(false);
    const bad = await get(`/svc/public/bets/yes-percentage-snapshots/${duelId}?timeRange=2D`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(bad.body['fieldErrors']).toHaveProperty(['query.timeRange']);
    const tooMany = await get(`/svc/public/bets/yes-percentage-snapshots/${duelId}?limit=1001`);
    expect(tooMany.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('answers 404 for an unknown duel and 403 PRIVATE_MARKET for a private one on the public route', async () => {
    const missing = await get(`/svc/public/bets/yes-percentage-snapshots/${newDuelId()}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND' });
    const secret = await insertDuel(true);
    const hidden = await get(`/svc/public/bets/yes-percentage-snapshots/${secret}`);
    expect(hidden.status).toBe(403);
    expect(hidden.body).toMatchObject({ code: 'PRIVATE_MARKET' });
  });

  it('shows a private duel to its creator on the bearer routes only', async () => {
    const parent = randomUUID();
    const secret = await insertDuel(true, parent);
    const path = `/svc/user/bets/yes-percentage-snapshots/${secret}?timeRange=30M`;
    expect((await get(path)).status).toBe(401);
    expect((await get(path, strangerToken)).body).toMatchObject({ code: 'PRIVATE_MARKET' });
    const own = await get(path, creatorToken);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ duelId: secret, timeRange: '30M', bucketSeconds: 60 });
    expect(own.body['points']).toHaveLength(1);

    const series = await get(`/svc/user/bets/yes-percentage-snapshots/parent/${parent}`, creatorToken);
    expect(series.status).toBe(200);
    expect(series.body).toMatchObject({ parentMarketId: parent, series: [{ duelId: secret, options: ['YES', 'NO'] }] });
    expect((await get(`/svc/user/bets/yes-percentage-snapshots/parent/${randomUUID()}`, creatorToken)).status).toBe(
      404,
    );
  });
});
