import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { OPERATOR_KEY } from '../../../test/support/chain.js';
import type { Body } from '../../../test/support/http.js';
import { spawnReady, type Spawned, type ChainNodeInfo } from '../../../test/support/processes.js';
import { startServerProcess, type ServerProcess } from '../../../test/support/server-process.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import {
  HOUR,
  T0,
  TOURNAMENT_ENV,
  enter,
  paidCreate,
  player,
  postBond,
  tournamentsApi,
} from './tournaments.test-kit.js';
import { adminTokenOf } from './tournaments-close.test-kit.js';

const TOURNAMENTS = 3;
/** Before any wall-clock "now" of the server processes: the windows of the stages are closed for them. */
const LONG_AGO = '2026-01-01T00:00:00.000Z';

let node: Spawned<ChainNodeInfo>;
let server: TestServer;
const processes: ServerProcess[] = [];
const clock = new ManualClock(T0);
const api = tournamentsApi(() => server);
let admin: string;
const stageIds: string[] = [];

/**
 * One database and one chain node behind three servers: the one this test drives on its own clock
 * (to play the tournaments), and two server processes on the wall clock that run the automation.
 */
beforeAll(async () => {
  node = await spawnReady<ChainNodeInfo>('chain-node.process.ts');
  const shared = {
    // Instances of one deployment share their secrets (tokens signed by one verify on the other).
    JWT_SECRET: `automation-${randomBytes(16).toString('hex')}`,
    WALLET_MASTER_KEY: `0x${randomBytes(32).toString('hex')}`,
    CHAIN_RPC_URL: node.info.rpcUrl,
    CHAIN_CONTRACTS: JSON.stringify(node.info.addresses),
    CHAIN_OPERATOR_KEY: OPERATOR_KEY,
    CHAIN_CONFIRMATIONS: '0',
  };
  server = await startTestServer({ ...TOURNAMENT_ENV, ...shared }, { clock });
  admin = await adminTokenOf(server);
  for (let i = 0; i < TOURNAMENTS; i++) {
    const [creator, rival] = await Promise.all([player(server, `ta_creator_${i}`), player(server, `ta_rival_${i}`)]);
    await postBond(api, creator);
    const { id } = await paidCreate(api, creator);
    await enter(api, rival, id);
    const stages = (await api(`/api/tournaments/${id}`)).body['stages'] as Body[];
    stageIds.push(...stages.map((s) => s['id'] as string));
  }
  clock.advance(16 * HOUR);
  await server.container.tournaments.results.sweep();
  for (const stageId of stageIds) {
    const set = await api(`/api/tournaments/admin/stages/${stageId}/dispute-window/set`, {
      token: admin,
      body: { endsAt: LONG_AGO },
    });
    if (set.status !== 200) throw new Error(`window: ${JSON.stringify(set.body)}`);
  }
  const env = {
    ...shared,
    NODE_ENV: 'test',
    DATABASE_URL: server.database.url,
    DATABASE_POOL_SIZE: '4',
    // Only the calls below run the automation: no scheduled run interleaves with them.
    JOBS_ENABLED: 'false',
    RATE_LIMIT_TEAM_PER_MIN: '100000',
    TOURNAMENTS_IP_LIMIT_PER_MIN: '100000',
  };
  processes.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
}, 240_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await server?.close();
  await node?.stop();
});

async function run(p: ServerProcess, path: string): Promise<Body> {
  const res = await fetch(`${p.tournamentsUrl}/api/tournaments/admin/automation/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${admin}`,
      'x-builder-api-key': server.builderKey,
    },
    body: '{}',
  });
  const body = (await res.json()) as Body;
  if (res.status !== 200) throw new Error(`automation/${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

describe('the automation run from two server processes at once', () => {
  it('settles every stage exactly once, and a later run changes nothing', async () => {
    const [a, b] = processes as [ServerProcess, ServerProcess];
    const answers = await Promise.all([run(a, 'run'), run(b, 'run'), run(a, 'settle-ready'), run(b, 'run')]);
    const settled = answers.flatMap((x): string[] => {
      const summary = (x['steps'] ? x['steps']['settleReady'] : x) as Body;
      return summary['stageIds'] as string[];
    });
    expect(settled.sort()).toEqual([...stageIds].sort());
    const rows = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ stageId: string; n: number }[]>(
        `select "stage_id" as "stageId", count(*)::int as "n" from "tournament_stage_settlements" group by "stage_id"`,
      );
    expect(rows).toHaveLength(stageIds.length);
    expect(rows.every((r) => r.n === 1)).toBe(true);

    const again = await Promise.all([run(a, 'run'), run(b, 'run')]);
    for (const x of again) {
      expect(x['steps']['settleReady']).toEqual({ checked: 0, settled: 0, stageIds: [] });
      expect(x['steps']['processExpired']).toEqual({ expired: 0, disputeIds: [] });
    }
    const proceed = await api(`/api/tournaments/admin/stages/${stageIds[0]}/can-proceed`, { token: admin });
    expect(proceed.body).toMatchObject({ canProceed: true, settled: true });
  }, 120_000);
});
