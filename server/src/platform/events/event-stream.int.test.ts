import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse, untilSeen as until, type SseMessage } from '../../../test/support/sse.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { insertDuel, newDuelId } from '../../../test/support/duel-fixture.js';
import { duelEventSql } from '../../areas/markets/market-events.sql.js';
import { betBody, postJson } from '../../../test/support/bets.js';
import { confirmedMarket, fundedUser, UNIT } from '../../../test/support/market-fixtures.js';
import { OPERATOR_KEY } from '../../../test/support/chain.js';
import { spawnReady, type ChainNodeInfo, type Spawned } from '../../../test/support/processes.js';

let a: TestServer;
let b: TestServer;
let node: Spawned<ChainNodeInfo>;
const REDIS = { REDIS_URL: 'redis://127.0.0.1:6379' };

/** A trade confirmed through instance B: its event committed there and relayed by B's relay. */
async function betThroughB(duelId: string): Promise<void> {
  const conn = b.container.orm.em.fork().getConnection();
  await conn.execute(duelEventSql('duels d where d.duel_id = ?'), [
    'bet.confirmed',
    `bet.confirmed:${newDuelId()}:`,
    new Date(),
    duelId,
  ]);
  await b.container.events.relay.runOnce();
}

/**
 * What stands behind a bet that did not reach A: whether B's relay numbered it, and whether A's
 * bus connection is still subscribed to the deployment's channel.
 */
async function whyNot(duelId: string, messages: readonly SseMessage[]): Promise<string> {
  const conn = a.container.orm.em.fork().getConnection();
  const events = await conn.execute<{ seq: string | null; type: string }[]>(
    `select seq::text, type from events where duel_id = ? order by created_at`,
    [duelId],
  );
  const [relay] = await conn.execute<{ last_seq: string }[]>(`select last_seq::text from event_relay`);
  const [db] = await conn.execute<{ name: string }[]>('select current_database() as name');
  const redis = new Redis(REDIS.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    const numsub = await redis.pubsub('NUMSUB', `duelkit:events:${db?.name ?? ''}`);
    return JSON.stringify({
      events,
      relay: relay?.last_seq,
      subscribers: numsub[1],
      received: messages.map((m) => `${m.event ?? ''}#${m.id ?? ''}`),
    });
  } finally {
    redis.disconnect();
  }
}

function stream(server: TestServer, query: string, lastEventId?: string) {
  const controller = new AbortController();
  const headers: Record<string, string> = { 'x-builder-api-key': a.builderKey };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const messages: SseMessage[] = [];
  const opened = fetch(`${server.marketsUrl}/svc/builder/events/stream${query}`, {
    headers,
    signal: controller.signal,
  }).then((res) => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    readSse(res, messages);
  });
  return { messages, opened, close: () => controller.abort() };
}

beforeAll(async () => {
  // Both instances on one chain (a node of its own), so a bet placed through B is a real trade
  // that either could have sent.
  node = await spawnReady<ChainNodeInfo>('chain-node.process.ts');
  const env = {
    ...REDIS,
    CHAIN_RPC_URL: node.info.rpcUrl,
    CHAIN_CONTRACTS: JSON.stringify(node.info.addresses),
    CHAIN_OPERATOR_KEY: OPERATOR_KEY,
    CHAIN_CONFIRMATIONS: '0',
    DUEL_PUBLIC_LEAD_SECONDS: '0',
  };
  a = await startTestServer(env);
  // B serves the same database (and so the same builder keys) through its own process state, and
  // runs the background jobs (the indexer confirms markets and records trades, the relay numbers
  // their events).
  b = await startTestServer({ ...env, JOBS_ENABLED: 'true', INDEXER_INTERVAL_MS: '200' }, {}, () => a.database.url);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  await node?.stop();
});

describe('event stream', () => {
  it('streams from A an event committed through B, and resumes with Last-Event-ID missing nothing and repeating nothing', async () => {
    const app = (await a.container.builderKeys.resolve(a.builderKey))?.builderAppId as string;
    const duelId = newDuelId();
    await insertDuel(a.container.orm.em.fork().getConnection(), { duelId, builderAppId: app, chainState: 'confirmed' });

    const first = stream(a, '?types=bet.confirmed&prices=true');
    await first.opened;
    await betThroughB(duelId);
    await until(
      () => first.messages.some((m) => m.event === 'bet.confirmed'),
      'the first bet on A',
      () => whyNot(duelId, first.messages),
    );
    const seen = first.messages.filter((m) => m.event === 'bet.confirmed');
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]?.data ?? '{}')).toMatchObject({ type: 'bet.confirmed', builderAppId: app });
    await until(() => first.messages.some((m) => m.event === 'price'), 'a price update');
    first.close();

    // Three more bets while the client is away, then it comes back with the last id it saw.
    for (let i = 0; i < 3; i++) await betThroughB(duelId);
    const second = stream(a, '?types=bet.confirmed', seen[0]?.id);
    await second.opened;
    await betThroughB(duelId);
    await until(
      () => second.messages.filter((m) => m.event === 'bet.confirmed').length >= 4,
      'the resumed bets',
      () => whyNot(duelId, second.messages),
    );
    // A marker after them: once it arrives, a duplicate of any of the four would have too.
    await betThroughB(duelId);
    await until(() => second.messages.filter((m) => m.event === 'bet.confirmed').length >= 5, 'the marker');
    const delivered = second.messages.filter((m) => m.event === 'bet.confirmed').map((m) => BigInt(m.id ?? '0'));
    expect(delivered).toHaveLength(5);
    const resumed = delivered.slice(0, 4);
    expect(resumed.every((id) => id > BigInt(seen[0]?.id ?? '0'))).toBe(true);
    expect(new Set(resumed).size).toBe(4);
    expect([...resumed].sort((x, y) => (x < y ? -1 : 1))).toEqual(resumed);
    second.close();
  });

  it('streams from A a real bet placed through B: the API accepts it, the chain confirms it, A’s client sees it once', async () => {
    // Users of the streaming builder app (A's key: both instances serve its database).
    const creator = await fundedUser(b.container, a.builderKey, 'stream_creator');
    const duelId = await confirmedMarket(b.container, creator);
    const bettor = await fundedUser(b.container, a.builderKey, 'stream_bettor');
    const live = stream(a, `?types=bet.confirmed&duelIds=${duelId}`);
    await live.opened;

    const caller = { url: b.marketsUrl, builderKey: a.builderKey, token: bettor.token };
    const placed = await postJson(caller, '/svc/user/bets/create', await betBody(caller, duelId, 10n * UNIT), 'b-bet');
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const seen = () => live.messages.filter((m) => m.event === 'bet.confirmed');
    for (let i = 0; i < 200 && seen().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    // A second bet as a marker: once A's client has it, later indexer and relay rounds on B have
    // run, and the first bet is still there once.
    const marker = await postJson(
      caller,
      '/svc/user/bets/create',
      await betBody(caller, duelId, 10n * UNIT),
      'b-marker',
    );
    expect(marker.status, JSON.stringify(marker.body)).toBe(201);
    const ofTx = (txHash: unknown) =>
      seen().filter((m) => (JSON.parse(m.data ?? '{}') as { data?: { txHash?: string } }).data?.txHash === txHash);
    for (let i = 0; i < 200 && ofTx(marker.body['txHash']).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(ofTx(placed.body['txHash'])).toHaveLength(1);
    expect(seen()).toHaveLength(2);
    const event = JSON.parse(ofTx(placed.body['txHash'])[0]?.data ?? '{}') as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event.type).toBe('bet.confirmed');
    expect(event.data).toMatchObject({
      duelId,
      txHash: placed.body['txHash'] as string,
      side: 'buy',
      optionIndex: 0,
      collateral: placed.body['betAmount'] as string,
      // Nothing traded between the quote and the bet: the shares are the ones the API expected.
      shares: placed.body['expectedSharesOut'] as string,
    });
    expect(String(event.data['trader']).toLowerCase()).toBe(bettor.address.toLowerCase());
    live.close();
  });

  it('refuses a stream without a builder key, with an unknown type or a malformed Last-Event-ID', async () => {
    expect((await fetch(`${a.marketsUrl}/svc/builder/events/stream`)).status).toBe(401);
    const bad = await fetch(`${a.marketsUrl}/svc/builder/events/stream?types=nope`, {
      headers: { 'x-builder-api-key': a.builderKey },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
    const badId = await fetch(`${a.marketsUrl}/svc/builder/events/stream`, {
      headers: { 'x-builder-api-key': a.builderKey, 'last-event-id': 'abc' },
    });
    expect(badId.status).toBe(400);
  });
});
