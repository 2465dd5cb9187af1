import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type { Body } from '../../../test/support/http.js';
import { until } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { T0, TOURNAMENT_ENV, enter, paidCreate, player, postBond, tournamentsApi } from './tournaments.test-kit.js';

const clock = new ManualClock(T0);
let server: TestServer;
const api = tournamentsApi(() => server);

beforeAll(async () => {
  server = await startTestServer(
    { ...TOURNAMENT_ENV, JOBS_ENABLED: 'true', TOURNAMENT_TIMEOUTS_INTERVAL_MS: '300' },
    { clock },
  );
}, 120_000);
afterAll(() => server?.close());

describe('the timeouts step as a repeating durable job', () => {
  it('cancels a tournament below its minimum once its first lock passes, with nobody calling the route', async () => {
    const creator = await player(server, 'tt_creator');
    const alice = await player(server, 'tt_alice');
    await postBond(api, creator);
    const { id } = await paidCreate(api, creator, { config: { minEntriesToActivate: 3 } });
    await enter(api, alice, id);
    const detail = async () => (await api(`/api/tournaments/${id}`)).body['tournament'] as Body;
    const startTime = (await detail())['startTime'] as string;

    expect((await detail())['status']).toBe('LIVE');
    clock.advance(Date.parse(startTime) - clock.now() + 60_000);
    await until(detail, (t) => t['status'] === 'CANCELED', 30_000);
    const proof = await api(`/api/tournaments/${id}/refund-proof?wallet=${alice.address}`);
    expect(proof.body).toMatchObject({ account: alice.address, published: false });
    const requests = await api(`/api/tournaments/${id}/cancel-request?wallet=${creator.address}`);
    expect(requests.body).toMatchObject({ tournamentStatus: 'CANCELED', canRequest: false });
  });
});
