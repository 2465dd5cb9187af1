import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheEntry, CachePort } from '../../adapters/cache/cache.port.js';
import { MemoryCacheAdapter } from '../../adapters/cache/memory-cache.adapter.js';
import { startFakeSportmonks, type FakeSportmonks } from '../../adapters/sports-provider/fake-sportmonks.server.js';
import { DomainError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import { settle, sportsHarness } from './sports.test-kit.js';

let fake: FakeSportmonks;
beforeAll(async () => {
  fake = await startFakeSportmonks();
});
afterAll(() => fake.close());

/** Records every key and every stored entry that passes through the cache port. */
class RecordingCache implements CachePort {
  readonly seen: string[] = [];
  constructor(private readonly inner: CachePort) {}
  get(key: string) {
    this.seen.push(key);
    return this.inner.get(key);
  }
  set(key: string, entry: CacheEntry, ttlMs: number) {
    this.seen.push(key, JSON.stringify(entry));
    return this.inner.set(key, entry, ttlMs);
  }
  tryLock(key: string, ttlMs: number) {
    this.seen.push(key);
    return this.inner.tryLock(key, ttlMs);
  }
  unlock(key: string, token: string) {
    return this.inner.unlock(key, token);
  }
  isLocked(key: string) {
    return this.inner.isLocked(key);
  }
}

describe('the provider token', () => {
  it('appears in no response body, error, log line or cache key', async () => {
    const clock = new ManualClock();
    const store = new RecordingCache(new MemoryCacheAdapter(10_000_000, clock));
    const logLines: string[] = [];
    const logger = createLogger('trace', { write: (line: string) => void logLines.push(line) });
    const { service } = sportsHarness(fake, { clock, store, logger, timeoutMs: 1_000 });
    const outputs: string[] = [];
    const run = async (call: () => Promise<unknown>) => {
      try {
        outputs.push(JSON.stringify(await call()));
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        outputs.push(
          JSON.stringify({
            code: err.code,
            message: err.message,
            details: err.details,
            retryAfterMs: err.retryAfterMs,
            stack: err.stack,
          }),
        );
      }
    };

    // Paged lists: the fake repeats the request URL, token included, in its pagination links.
    await run(() => service.proxy({ path: 'football/fixtures', params: { per_page: 10 } }));
    await run(() => service.cricketV2Proxy({ path: 'fixtures', params: { page: 1 } }));
    await run(() => service.proxy({ path: 'motorsport/races' }));
    // A caller who somehow holds the token and sends it, under several names.
    await run(() =>
      service.proxy({
        path: 'football/teams/1',
        params: { api_token: fake.token, Authorization: fake.token, apiKey: fake.token },
      }),
    );
    await run(() => service.fixtureSnapshot('9'));
    await run(() => service.teamSquad('9'));
    await run(() => service.teamSeasonStats('9'));
    await run(() => service.proxy({ path: 'football/nowhere' }));
    await run(() => service.proxy({ path: 'football/../x' }));
    for (const status of [401, 403, 429, 500]) {
      fake.setMode({ status, pathPrefix: 'football/teams/2' });
      await run(() => service.proxy({ path: `football/teams/2${status}` }));
    }
    fake.setMode({ delayMs: 1_500, pathPrefix: 'football/teams/3' });
    await run(() => service.proxy({ path: 'football/teams/3' }));
    fake.setMode(null);
    await settle(1_500);

    expect(outputs).toHaveLength(14);
    expect(outputs.filter((o) => o.includes('"_meta"'))).toHaveLength(7);
    for (const text of [...outputs, ...logLines, ...store.seen]) expect(text).not.toContain(fake.token);
    // The links survive, minus the token.
    expect(outputs[0]).toContain('api_token=[redacted]');
    expect(outputs[1]).toContain('"links"');
    // The fake did receive the server's token on each call.
    expect(fake.lastRequests.every((r) => r.query.get('api_token') === fake.token)).toBe(true);
  });
});
