import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { ALICE, amount, BOB, seedScenario } from './analytics.test-kit.js';
import { marketsApi, signUpWallet } from '../../../test/support/http.js';

// Bodies are read loosely here; their shapes are enforced by the contract (response validation is on).

let server: TestServer;
let token: string;
const s = (units: string) => amount(units).toString();

const api = marketsApi(() => server);

/** Signs up a fresh wallet through Sign-In with Ethereum and returns its bearer token. */
async function signUp(username: string): Promise<string> {
  const res = await signUpWallet(api, username);
  expect(res.status).toBe(201);
  return res.body['token'] as string;
}

beforeAll(async () => {
  server = await startTestServer();
  await seedScenario(server.container.orm, new Date());
  token = await signUp('analyst_1');
});
afterAll(async () => {
  await server?.close();
});

describe('analytics over HTTP', () => {
  it('serves a leaderboard page and rejects an out-of-range page size', async () => {
    const res = await api('/svc/leaderboard/traders/pnl?limit=1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          rank: 1,
          address: ALICE,
          realizedPnl: s('11'),
          unrealizedPnl: s('-0.1'),
          totalPnl: s('10.9'),
          volume: s('40'),
        },
      ],
      pagination: { page: 1, limit: 1, total: 2, hasMore: true },
    });
    const bad = await api('/svc/leaderboard/traders?limit=500&sortBy=pnl');
    expect(bad.status).toBe(400);
    expect(bad.body['code']).toBe('VALIDATION_FAILED');
    expect(Object.keys(bad.body['fieldErrors'] as object).sort()).toEqual(['query.limit', 'query.sortBy']);
  });

  it('refreshes protocol statistics with 201 and serves the stored row', async () => {
    const refreshed = await api('/svc/protocol-stats/refresh', { body: {} });
    expect(refreshed.status).toBe(201);
    expect(refreshed.body['recomputed']).toBe(true);
    expect(refreshed.body['stats']).toMatchObject({ totalVolume: s('62.5'), totalUsers: 2, totalDuels: 3 });
    const again = await api('/svc/protocol-stats/refresh', { method: 'POST' }); // no body at all
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ recomputed: false, stats: { id: refreshed.body['stats']['id'] } });
    const current = await api('/svc/protocol-stats');
    expect(current.status).toBe(200);
    expect(current.body).toEqual(refreshed.body['stats']);
    expect((await api('/svc/analytics/platform')).body['totals']).toMatchObject({ volume: s('62.5'), creators: 2 });
  });

  it('summarises the stored statistics for anyone with the builder key', async () => {
    const summary = await api('/svc/protocol-stats/summary');
    expect(summary.status).toBe(200);
    // The seeded scenario: 62.5 traded by two wallets; at most one stored row so far has no predecessor.
    expect(summary.body).toMatchObject({ totalVolume: s('62.5'), totalUsers: 2 });
    expect(summary.body['computedAt']).toEqual((await api('/svc/protocol-stats')).body['computedAt']);
    const noKey = await fetch(`${server.marketsUrl}/svc/protocol-stats/summary`);
    expect(noKey.status).toBe(401);
  });

  it("lists another wallet's created and traded markets and charts its PnL, private markets left out", async () => {
    const created = await api('/svc/user/portfolio/duels', { body: { userAddress: BOB }, token });
    expect(created.status).toBe(200);
    // BOB created a public (cancelled) and a private market; a stranger sees the public one only.
    expect(created.body['pagination']).toMatchObject({ total: 1 });
    expect(created.body['data']).toEqual([expect.objectContaining({ isPrivate: false, volume: s('10'), traders: 2 })]);

    const traded = await api('/svc/user/portfolio/table/duels', { body: { userAddress: ALICE, limit: 2 }, token });
    expect(traded.status).toBe(200);
    expect(traded.body['pagination']).toEqual({ page: 1, limit: 2, total: 3, hasMore: true });
    expect((traded.body['data'] as { status: string }[]).map((r) => r.status)).toEqual(['open', 'settled']);

    const chart = await api('/svc/user/portfolio/pnl-chart', { body: { userAddress: ALICE, timeRange: '1D' }, token });
    expect(chart.status).toBe(200);
    expect(chart.body).toMatchObject({ realizedPnl: s('11'), unrealizedPnl: s('-0.1'), totalPnl: s('10.9') });
    expect(chart.body['points']).toHaveLength(24);

    const badRange = await api('/svc/user/portfolio/pnl-chart', {
      body: { userAddress: ALICE, timeRange: '2D' },
      token,
    });
    expect([badRange.status, badRange.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    const badPage = await api('/svc/user/portfolio/table/duels', { body: { userAddress: ALICE, limit: 0 }, token });
    expect([badPage.status, badPage.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    for (const path of [
      '/svc/user/portfolio/duels',
      '/svc/user/portfolio/table/duels',
      '/svc/user/portfolio/pnl-chart',
    ]) {
      expect((await api(path, { body: { userAddress: ALICE } })).status).toBe(401);
    }
  });

  it('reads any wallet portfolio with a bearer token and validates the address', async () => {
    const details = await api('/svc/user/portfolio/accountDetails', {
      body: { userAddress: ALICE.toLowerCase() },
      token,
    });
    expect(details.status).toBe(200);
    // Someone else's view: the private market stays out.
    expect(details.body).toMatchObject({
      userAddress: ALICE,
      positionValue: s('4.9'),
      realizedPnl: s('11'),
      unrealizedPnl: s('-0.1'),
    });
    const positions = await api(`/svc/user/portfolio/positions/${BOB}?collateralStack=usdc`, { token });
    expect(positions.status).toBe(200);
    expect(positions.body).toMatchObject({ address: BOB, totalCurrentValue: s('2.4'), totalCostBasis: s('5') });

    const badBody = await api('/svc/user/portfolio/accountDetails', { body: { userAddress: '0x1234' }, token });
    expect(badBody.status).toBe(400);
    expect(badBody.body['code']).toBe('VALIDATION_FAILED');
    const badPath = await api('/svc/user/portfolio/positions/not-an-address', { token });
    expect(badPath.status).toBe(400);
    expect(badPath.body['code']).toBe('VALIDATION_FAILED');
    const anonymous = await api('/svc/user/portfolio/table/history', { body: { userAddress: ALICE } });
    expect(anonymous.status).toBe(401);
  });
});
