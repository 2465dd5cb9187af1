import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsApi, signUpWallet, type Body } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { adminTokenOf } from '../tournaments/tournaments-close.test-kit.js';

const MINUTE = 60_000;
const HOUR_MS = 60 * MINUTE;

/** Two instances of one deployment: the second reaches the first one's database. */
let a: TestServer;
let b: TestServer;
const admins = new Map<TestServer, string>();
const api = marketsApi(() => a);

function sql<T>(q: string, params: unknown[] = []) {
  return a.container.orm.em.fork().getConnection().execute<T[]>(q, params);
}

async function runCycle(instance: TestServer) {
  const res = await fetch(`${instance.tournamentsUrl}/user/admin/notifications/run-prematch-cycle`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-builder-api-key': instance.builderKey,
      authorization: `Bearer ${admins.get(instance) ?? ''}`,
    },
    body: '{}',
  });
  return { status: res.status, body: (await res.json()) as Body };
}

async function user(name: string) {
  const signedUp = await signUpWallet(api, name);
  const token = signedUp.body['token'] as string;
  const device = await fetch(`${a.tournamentsUrl}/user/notifications/devices`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-builder-api-key': a.builderKey,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ provider: 'expo', token: `ExponentPushToken[${name}]` }),
  });
  expect(device.status).toBe(201);
  return { id: signedUp.body['user']['id'] as string, wallet: signedUp.body['user']['address'] as string };
}

/** A live tournament with one stage whose fixtures start `startsIn` minutes from now. */
async function tournament(now: number, startsIn: readonly number[]) {
  const id = randomBytes(12).toString('hex');
  const stageId = randomUUID();
  const at = (ms: number) => new Date(now + ms);
  await sql(
    `insert into tournaments (id, name, sport, game_type, format, type, status, stake_asset, owner_wallet, total_stages,
       min_entries, max_entrants, chips_per_stage, group_size, advance_per_group, fixtures_per_stage, league_id, fee_bps,
       payout_bps, creator_deposit_tx_hash, pool_id, starts_at, ends_at, created_at, updated_at)
     values (?, 'Pre-match cup', 'football', 'classic', 'single', 'public', 'ACTIVE', 'USDC', ?, 1, 2, 8, 1000, 4, 2, ?,
       8, 0, '[10000]', ?, ?, ?, ?, ?, ?)`,
    [
      id,
      `0x${'1'.repeat(40)}`,
      startsIn.length,
      `0x${'2'.repeat(64)}`,
      `0x${'3'.repeat(64)}`,
      at(-HOUR_MS),
      at(10 * HOUR_MS),
      at(-HOUR_MS),
      at(-HOUR_MS),
    ],
  );
  await sql(
    `insert into tournament_stages (id, tournament_id, stage_index, stage_name, kind, buyin, multiplier, is_final,
       start_chips, window_start, window_end, starts_at, lock_at, ends_at)
     values (?, ?, 0, 'Final', 'final', 0, 1, true, 1000, ?, ?, ?, ?, ?)`,
    [stageId, id, at(-HOUR_MS), at(10 * HOUR_MS), at(-HOUR_MS), at(10 * HOUR_MS), at(10 * HOUR_MS)],
  );
  const fixtures: { id: string; providerId: number }[] = [];
  for (const minutes of startsIn) {
    const fixture = { id: randomUUID(), providerId: 19_000_000 + Math.floor(Math.random() * 900_000) };
    await sql(
      `insert into tournament_fixtures (id, tournament_id, stage_id, provider_fixture_id, title, home_team, away_team,
         starts_at, lock_at, ends_at, expires_at, odds_home, odds_draw, odds_away)
       values (?, ?, ?, ?, 'Home v Away', 'Home', 'Away', ?, ?, ?, ?, 200, 300, 400)`,
      [
        fixture.id,
        id,
        stageId,
        fixture.providerId,
        at(minutes * MINUTE),
        at(minutes * MINUTE),
        at(minutes * MINUTE + 2 * HOUR_MS),
        at(minutes * MINUTE + 3 * HOUR_MS),
      ],
    );
    fixtures.push(fixture);
  }
  return { id, stageId, fixtures };
}

async function entry(t: { id: string; stageId: string }, wallet: string, status: string) {
  const entryId = randomUUID();
  await sql(
    `insert into tournament_stage_entries (stage_id, entry_id, tournament_id, wallet, start_chips, available, stack, status)
     values (?, ?, ?, ?, 1000, 1000, 1000, ?)`,
    [t.stageId, entryId, t.id, wallet, status],
  );
  return entryId;
}

async function pick(
  t: { id: string; stageId: string },
  fixtureId: string,
  entryId: string,
  wallet: string,
  now: number,
) {
  await sql(
    `insert into tournament_picks (id, tournament_id, stage_id, fixture_id, entry_id, wallet, outcome, stake, odds, status, created_at)
     values (?, ?, ?, ?, ?, ?, 'HOME', 100, 200, 'OPEN', ?)`,
    [randomUUID(), t.id, t.stageId, fixtureId, entryId, wallet, new Date(now)],
  );
}

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({}, {}, () => a.database.url);
  admins.set(a, await adminTokenOf(a));
  admins.set(b, await adminTokenOf(b));
}, 180_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('the pre-match cycle', () => {
  it('reminds each user of each fixture once, over repeated runs and two instances racing', async () => {
    const now = a.container.clock.now();
    // Within the 60-minute window: 20 and 40 minutes out; outside it: three hours out.
    const t = await tournament(now, [20, 40, 180]);
    const [soon, later, far] = t.fixtures as [(typeof t.fixtures)[0], (typeof t.fixtures)[0], (typeof t.fixtures)[0]];
    const picker = await user('pm_picker');
    const alive = await user('pm_alive');
    const out = await user('pm_out');
    const idle = await user('pm_idle');
    // The picker's entry is eliminated: only its pick on the soon fixture counts.
    const pickerEntry = await entry(t, picker.wallet, 'ELIMINATED');
    await pick(t, soon.id, pickerEntry, picker.wallet, now);
    await pick(t, far.id, pickerEntry, picker.wallet, now);
    // A live entry without picks: every fixture of its stage within the window.
    await entry(t, alive.wallet, 'ALIVE');
    // Out of the tournament, no picks: nothing.
    await entry(t, out.wallet, 'ELIMINATED');
    // A user with a device and no part in the tournament: nothing.
    void idle;

    const racing = await Promise.all([runCycle(a), runCycle(b), runCycle(a), runCycle(b)]);
    expect(racing.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(racing.reduce((n, r) => n + (r.body['enqueued'] as number), 0)).toBe(3);
    for (let i = 0; i < 3; i++) {
      const again = await runCycle(i % 2 === 0 ? a : b);
      expect(again.body).toMatchObject({ candidates: 3, enqueued: 0 });
    }

    const sent = await sql<{ user_id: string; fixture: string; n: string }>(
      `select o.user_id, o.payload->'data'->>'fixtureId' as fixture, count(d.id)::text as n
         from notification_outbox o left join push_deliveries d on d.notification_id = o.id
        where o.kind = 'prematch' group by o.user_id, o.payload->'data'->>'fixtureId'
        order by o.user_id, fixture`,
    );
    const expected = [
      { user_id: picker.id, fixture: String(soon.providerId), n: '1' },
      { user_id: alive.id, fixture: String(soon.providerId), n: '1' },
      { user_id: alive.id, fixture: String(later.providerId), n: '1' },
    ].sort((x, y) => (x.user_id + x.fixture < y.user_id + y.fixture ? -1 : 1));
    expect(sent).toEqual(expected);
    const deliveries = await sql<{ status: string; n: string }>(
      `select status, count(*)::text as n from push_deliveries where kind = 'prematch' group by status`,
    );
    expect(deliveries).toEqual([{ status: 'ok', n: '3' }]);
    const pending = await sql<{ n: string }>(
      `select count(*)::text as n from notification_outbox where kind = 'prematch' and status <> 'delivered'`,
    );
    expect(pending).toEqual([{ n: '0' }]);
  });
});
