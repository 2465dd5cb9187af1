import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse, untilSeen as until, type SseMessage } from '../../../test/support/sse.js';
import { marketsApi, signUpWallet } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { insertDuel, newDuelId } from '../../../test/support/duel-fixture.js';
import { duelEventSql } from '../../areas/markets/market-events.sql.js';
import { eventInsertSql } from './event-insert.sql.js';

/**
 * The signed-in user's event stream (`GET /svc/user/events/stream`, docs/events.md): what a
 * member, an outsider and a trader see of one builder app's events, judged when each is sent.
 */

interface User {
  token: string;
  address: string;
}

let server: TestServer;
const api = marketsApi(() => server);
let app: string;
const users = {} as Record<'creator' | 'member' | 'outsider', User>;

async function signUp(username: string): Promise<User> {
  const res = await signUpWallet(api, username);
  expect(res.status).toBe(201);
  return { token: res.body['token'] as string, address: res.body['user']['address'] as string };
}

const sql = (text: string, params: unknown[] = []) =>
  server.container.orm.em.fork().getConnection().execute(text, params);

/** A market event committed for `duelId` (the market's snapshot as data), then numbered. */
async function duelEvent(type: string, duelId: string): Promise<void> {
  await sql(duelEventSql('duels d where d.duel_id = ?'), [
    type,
    `${type}:${randomBytes(8).toString('hex')}:`,
    new Date(),
    duelId,
  ]);
}

/** A `bet.confirmed` of `trader` on `duelId`, as the indexer writes it. */
async function betEvent(duelId: string, trader: string): Promise<void> {
  const txHash = `0x${randomBytes(32).toString('hex')}`;
  await sql(
    eventInsertSql(
      `select 'bet.confirmed', d.builder_app_id, d.duel_id, d.is_private, 'bet.confirmed:' || ?::text || ':0',
         jsonb_build_object('duelId', d.duel_id, 'txHash', ?::text, 'logIndex', 0, 'trader', ?::text, 'side', 'buy',
           'optionIndex', 0, 'collateral', '1000000000000000000', 'fee', '0', 'shares', '1000000000000000000',
           'poolBalances', to_jsonb(d.pool_balances), 'yesBps', d.yes_bps), ?::timestamptz
       from duels d where d.duel_id = ?`,
    ),
    [txHash, txHash, trader, new Date(), duelId],
  );
}

function userStream(user: User, query = '', lastEventId?: string) {
  const controller = new AbortController();
  const headers: Record<string, string> = {
    'x-builder-api-key': server.builderKey,
    authorization: `Bearer ${user.token}`,
  };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const messages: SseMessage[] = [];
  const opened = fetch(`${server.marketsUrl}/svc/user/events/stream${query}`, {
    headers,
    signal: controller.signal,
  }).then((res) => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    readSse(res, messages);
  });
  const events = (type: string) =>
    messages
      .filter((m) => m.event === type)
      .map((m) => JSON.parse(m.data ?? '{}') as { data: Record<string, unknown> });
  return { messages, opened, events, close: () => controller.abort() };
}

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_TEAM_PER_MIN: '10000' });
  app = (await server.container.builderKeys.resolve(server.builderKey))?.builderAppId as string;
  users.creator = await signUp('ues_creator');
  users.member = await signUp('ues_member');
  users.outsider = await signUp('ues_outsider');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('user event stream', () => {
  it('shows a private market’s events to its creator and members only, while they are members', async () => {
    const db = server.container.orm.em.fork().getConnection();
    const privateDuel = await insertDuel(db, {
      builderAppId: app,
      creator: users.creator.address,
      isPrivate: true,
      chainState: 'confirmed',
    });
    const publicDuel = await insertDuel(db, { builderAppId: app, chainState: 'confirmed' });
    await sql(
      `insert into duel_memberships (duel_id, member_address, via, chain_state, use_counted, joined_at)
       values (?, ?, 'added', 'confirmed', false, now())`,
      [privateDuel.toLowerCase(), users.member.address],
    );
    const creator = userStream(users.creator);
    const member = userStream(users.member);
    const outsider = userStream(users.outsider);
    await Promise.all([creator.opened, member.opened, outsider.opened]);

    await duelEvent('duel.closed', privateDuel);
    await duelEvent('duel.closed', publicDuel);
    await server.container.events.relay.runOnce();
    const closedOf = (s: ReturnType<typeof userStream>) => s.events('duel.closed').map((e) => e.data['duelId']);
    await until(() => closedOf(member).length === 2 && closedOf(creator).length === 2, 'the member’s two events');
    await until(() => closedOf(outsider).length === 1, 'the outsider’s public event');
    expect(closedOf(member)).toEqual([privateDuel, publicDuel]);
    expect(closedOf(creator)).toEqual([privateDuel, publicDuel]);
    expect(closedOf(outsider)).toEqual([publicDuel]);

    // The member leaves; the stream stays open and judges the next event without them.
    await sql(`update duel_memberships set removed_at = now() where duel_id = ? and member_address = ?`, [
      privateDuel.toLowerCase(),
      users.member.address,
    ]);
    await duelEvent('duel.resolved', privateDuel);
    await duelEvent('duel.resolved', publicDuel);
    await server.container.events.relay.runOnce();
    await until(() => member.events('duel.resolved').length === 1, 'the member’s public resolution');
    await until(() => creator.events('duel.resolved').length === 2, 'the creator’s two resolutions');
    await new Promise((r) => setTimeout(r, 200));
    expect(member.events('duel.resolved').map((e) => e.data['duelId'])).toEqual([publicDuel]);
    expect(outsider.events('duel.resolved').map((e) => e.data['duelId'])).toEqual([publicDuel]);
    for (const s of [creator, member, outsider]) s.close();
  });

  it('shows a user their own bet.confirmed, of another user’s trade only the price, and resumes with Last-Event-ID', async () => {
    const db = server.container.orm.em.fork().getConnection();
    const duelId = await insertDuel(db, { builderAppId: app, chainState: 'confirmed' });
    const trader = userStream(users.member, `?types=bet.confirmed&duelIds=${duelId}&prices=true`);
    const other = userStream(users.outsider, `?types=bet.confirmed&duelIds=${duelId}&prices=true`);
    await Promise.all([trader.opened, other.opened]);
    await betEvent(duelId, users.member.address.toLowerCase());
    await server.container.events.relay.runOnce();
    await until(() => trader.events('bet.confirmed').length === 1, 'the trader’s bet');
    await until(() => other.messages.some((m) => m.event === 'price'), 'the other user’s price update');
    expect(trader.events('bet.confirmed')[0]?.data).toMatchObject({ duelId, side: 'buy' });
    expect(other.events('bet.confirmed')).toEqual([]);
    const seen = trader.messages.find((m) => m.event === 'bet.confirmed')?.id as string;
    trader.close();
    other.close();

    // Two bets while the trader is away, one of them another user's: only theirs comes back.
    await betEvent(duelId, users.outsider.address);
    await betEvent(duelId, users.member.address);
    await server.container.events.relay.runOnce();
    const resumed = userStream(users.member, `?types=bet.confirmed&duelIds=${duelId}`, seen);
    await resumed.opened;
    await until(() => resumed.events('bet.confirmed').length === 1, 'the resumed bet');
    await new Promise((r) => setTimeout(r, 200));
    expect(resumed.events('bet.confirmed')).toHaveLength(1);
    expect(BigInt(resumed.messages[0]?.id ?? '0')).toBeGreaterThan(BigInt(seen));
    resumed.close();
  });

  it('refuses a stream without a user token, and bad input with VALIDATION_FAILED, the field and the request id', async () => {
    const noToken = await fetch(`${server.marketsUrl}/svc/user/events/stream`, {
      headers: { 'x-builder-api-key': server.builderKey },
    });
    expect(noToken.status).toBe(401);
    expect(((await noToken.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    const bad = await fetch(`${server.marketsUrl}/svc/user/events/stream?types=nope&duelIds=${newDuelId()},x`, {
      headers: {
        'x-builder-api-key': server.builderKey,
        authorization: `Bearer ${users.member.token}`,
        'x-request-id': 'ues-bad-filter',
        'last-event-id': 'abc',
      },
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { code: string; requestId: string; fieldErrors: Record<string, string[]> };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.requestId).toBe('ues-bad-filter');
    expect(Object.keys(body.fieldErrors).sort()).toEqual(['headers.last-event-id', 'query.duelIds', 'query.types']);
  });
});
