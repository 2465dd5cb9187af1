import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDuel } from '../../../test/support/duel-fixture.js';
import type { Body } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import type { LocalExchange } from '../../adapters/extmarket/local-exchange/local-exchange.js';
import { ManualClock } from '../../platform/clock.js';

const HOUR = 3_600_000;
let server: TestServer;
let sim: LocalExchange;
const clock = new ManualClock(Date.now());
const ids: Record<'arsenal' | 'fed' | 'manual', string> = { arsenal: '', fed: '', manual: '' };

/** Our three duels as the canonical list shows them in `status` mode, in its order. */
async function canonical(status: 'live' | 'upcoming' | 'all'): Promise<{ name: string; volume: string | null }[]> {
  const res = await fetch(`${server.marketsUrl}/svc/user/duels/canonical?status=${status}&limit=100`, {
    headers: { 'x-builder-api-key': server.builderKey },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: Body[] };
  const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
  return body.data
    .filter((d) => names.has(d['duelId'] as string))
    .map((d) => ({ name: names.get(d['duelId'] as string)!, volume: d['extMarketVolume24h'] as string | null }));
}

beforeAll(async () => {
  server = await startTestServer({}, { clock });
  sim = server.container.extmarket.local!.exchange;
  const db = server.container.orm.em.fork().getConnection();
  const later = { startTime: new Date(clock.now() + 2 * HOUR), endTime: new Date(clock.now() + 30 * HOUR) };
  // The local catalogue has "Will Arsenal win?" (event 9001) and "Fed cuts rates in December?" (9003).
  ids.arsenal = await insertDuel(db, { ...later, question: 'Will Arsenal win?' });
  ids.fed = await insertDuel(db, { ...later, question: 'fed cuts rates in december' });
  // Paired by hand by an operator, with a volume between the two.
  ids.manual = await insertDuel(db, {
    ...later,
    question: 'Manual pairing',
    isCanonical: true,
    extVolume24h: '300000000000',
  });
}, 120_000);
afterAll(() => server?.close());

describe('external market sync against the local exchange', () => {
  it('pairs duels by question, then follows the upstream volume and live flag in the canonical list', async () => {
    expect(await canonical('all')).toEqual([{ name: 'manual', volume: '300000000000' }]);

    const first = await server.container.extmarket.sync.run();
    expect(first).toMatchObject({ paired: 2, failed: 0 });
    expect(first.at.getTime()).toBe(clock.now());
    expect(await canonical('all')).toEqual([
      { name: 'fed', volume: '910000000000' },
      { name: 'manual', volume: '300000000000' },
      { name: 'arsenal', volume: '125000000000' },
    ]);
    expect((await canonical('upcoming')).map((d) => d.name)).toEqual(['fed', 'manual', 'arsenal']);
    expect(await canonical('live')).toEqual([]);

    // Kick-off upstream: the Arsenal event goes live and its volume jumps.
    sim.setMarketData('9001', { volume24hr: 2_000_000.5, live: true });
    clock.advance(60_000);
    expect(await server.container.extmarket.sync.run()).toMatchObject({ refreshed: 1, paired: 0, failed: 0 });
    expect((await canonical('all')).map((d) => d.name)).toEqual(['arsenal', 'fed', 'manual']);
    expect(await canonical('live')).toEqual([{ name: 'arsenal', volume: '2000000500000' }]);
    expect((await canonical('upcoming')).map((d) => d.name)).toEqual(['fed', 'manual']);

    // Gamma down: the run returns, and the list keeps what it had.
    sim.setMarketData('9001', { volume24hr: 1, live: false });
    sim.setFault('gamma', { mode: 'down' });
    const failed = await server.container.extmarket.sync.run();
    expect(failed.failed).toBeGreaterThan(0);
    expect(failed.refreshed).toBe(0);
    expect(await canonical('live')).toEqual([{ name: 'arsenal', volume: '2000000500000' }]);
  });
});
