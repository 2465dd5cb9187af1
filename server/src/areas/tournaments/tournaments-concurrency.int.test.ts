import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import type { Body } from '../../../test/support/http.js';
import {
  T0,
  TOURNAMENT_ENV,
  UNIT,
  at,
  depositFor,
  paidCreate,
  player,
  postBond,
  tournamentsApi,
  type Player,
} from './tournaments.test-kit.js';
import { tournamentPoolId } from './vault-pools.js';

const clock = new ManualClock(T0);
let server: TestServer;
const api = tournamentsApi(() => server);
let creator: Player;

beforeAll(async () => {
  server = await startTestServer(TOURNAMENT_ENV, { clock });
  creator = await player(server, 'tx_creator');
  await postBond(api, creator);
}, 120_000);
afterAll(() => server?.close());

const entriesOf = async (id: string, wallet: string) => {
  const [row] = await server.container.orm.em
    .fork()
    .getConnection()
    .execute<{ n: number }[]>(
      'select count(*)::int as "n" from "tournament_entries" where "tournament_id" = ? and "wallet" = ?',
      [id, wallet],
    );
  return row?.n;
};

describe('concurrent writes', () => {
  it('records one entry for 20 concurrent enters of the same player with the same deposit', async () => {
    const { id } = await paidCreate(api, creator);
    const p = await player(server, 'tx_same');
    const tx = await depositFor(api, p, id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(`/api/tournaments/${id}/enter`, {
          token: p.token,
          body: { depositTxHash: tx },
          // Half carry their own Idempotency-Key: the service, not the key, keeps the entry single.
          ...(i % 2 ? { headers: { 'idempotency-key': `enter-${i}` } } : {}),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body['created'] === true)).toHaveLength(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.body['entry'])))).toHaveProperty('size', 1);
    expect(await entriesOf(id, p.address)).toBe(1);
    expect((await api(`/api/tournaments/${id}`)).body['tournament']['entryCount']).toBe(2);
  });

  it('records one entry for 20 concurrent enters of the same player, each with its own deposit', async () => {
    const { id } = await paidCreate(api, creator);
    const p = await player(server, 'tx_many');
    const signer = await server.container.markets.signers.forUser(p.userId);
    const txs: `0x${string}`[] = [];
    for (let i = 0; i < 20; i++) {
      txs.push(await server.container.prizeVault.deposit(signer, 'credits', tournamentPoolId(id), 1, 10n * UNIT));
    }
    const answers = await Promise.all(
      txs.map((tx) => api(`/api/tournaments/${id}/enter`, { token: p.token, body: { depositTxHash: tx } })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a): unknown => a.body['code'])).toEqual(
      Array(19).fill('ALREADY_ENTERED'),
    );
    expect(await entriesOf(id, p.address)).toBe(1);
    const pool = await api(`/api/tournaments/${id}/prize-pool`);
    expect(pool.body['total']).toBe((20n * UNIT).toString());
  });

  it('never lets concurrent picks stake more chips than a player has', async () => {
    const { id } = await paidCreate(api, creator, {
      config: { minEntriesToActivate: 2, fixturesPerStage: 6 },
      stages: [
        { stageIndex: 1, buyinUsdc: (10n * UNIT).toString(), isFinal: false, startTime: at(1), endTime: at(13) },
        { stageIndex: 2, buyinUsdc: '0', isFinal: true, startTime: at(13), endTime: at(30) },
      ],
    });
    const detail = await api(`/api/tournaments/${id}`);
    const stage = (detail.body['stages'] as Body[])[0] as Body;
    const fixtures = stage['fixtures'] as Body[];
    expect(fixtures).toHaveLength(6);
    const answers = await Promise.all(
      fixtures.map((f) =>
        api(`/api/tournaments/${id}/stages/${stage['id'] as string}/picks`, {
          token: creator.token,
          body: { fixtureId: f['id'], outcome: 'DRAW', stake: 400 },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 400).map((a): unknown => a.body['code'])).toEqual(
      Array(4).fill('INSUFFICIENT_CHIPS'),
    );
    const status = await api(`/api/tournaments/${id}/my-status`, { token: creator.token });
    expect(status.body['stage']['chips']).toEqual({ available: 200, stack: 1000 });
  });

  it('takes no pick on a tournament whose cancellation commits while the pick is being made', async () => {
    const { id } = await paidCreate(api, creator, { config: { minEntriesToActivate: 2, fixturesPerStage: 2 } });
    const detail = await api(`/api/tournaments/${id}`);
    const stage = (detail.body['stages'] as Body[])[0] as Body;
    const fixture = (stage['fixtures'] as Body[])[0] as Body;
    // A cancellation in its transaction: the tournament's row held for update and its status set.
    const knex = server.container.orm.em.getConnection().getKnex();
    const cancelling = await knex.transaction();
    let answer: Awaited<ReturnType<typeof api>> | undefined;
    try {
      await cancelling.raw('select "id" from "tournaments" where "id" = ? for update', [id]);
      await cancelling.raw(`update "tournaments" set "status" = 'CANCELED' where "id" = ?`, [id]);
      const pick = api(`/api/tournaments/${id}/stages/${stage['id'] as string}/picks`, {
        token: creator.token,
        body: { fixtureId: fixture['id'], outcome: 'DRAW', stake: 100 },
      }).then((a) => (answer = a));
      // The pick waits on the tournament's row, unanswered, until the cancellation commits.
      const waiting = async () =>
        (
          await knex.raw<{ rows: { n: number }[] }>(
            `select count(*)::int as "n" from pg_stat_activity where "datname" = current_database() and "wait_event_type" = 'Lock'`,
          )
        ).rows[0]?.n ?? 0;
      for (let i = 0; i < 200 && (await waiting()) === 0 && !answer; i++) await new Promise((r) => setTimeout(r, 25));
      expect(answer).toBeUndefined();
      await cancelling.commit();
      await pick;
    } finally {
      if (!cancelling.isCompleted()) await cancelling.rollback();
    }
    expect(answer?.status).toBe(409);
    expect(answer?.body).toMatchObject({ code: 'STAGE_NOT_OPEN', details: { status: 'CANCELED' } });
    const [row] = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as "n" from "tournament_picks" where "tournament_id" = ?', [id]);
    expect(row?.n).toBe(0);
  });
});
