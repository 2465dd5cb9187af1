import type { CachePort } from '../../adapters/cache/cache.port.js';
import { MemoryCacheAdapter } from '../../adapters/cache/memory-cache.adapter.js';
import type { FakeSportmonks } from '../../adapters/sports-provider/fake-sportmonks.server.js';
import { SportmonksHttpAdapter } from '../../adapters/sports-provider/sportmonks-http.adapter.js';
import { DomainError } from '../../errors.js';
import { createLogger, type Logger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import { DEFAULT_SPORTS_LIMITS, upstreamLimits, type SportsLimits } from './sports-limits.js';
import { SportsService } from './sports.service.js';
import { SportsUpstreamClient } from './sports-upstream.client.js';
import { SwrCache } from './swr.cache.js';

/** Shared by the sports tests: the real HTTP adapter pointed at the fake, on a manual clock. */
export interface SportsHarness {
  readonly service: SportsService;
  readonly clock: ManualClock;
  readonly store: CachePort;
}

export function sportsHarness(
  fake: FakeSportmonks,
  options: {
    limits?: Partial<SportsLimits>;
    token?: string;
    timeoutMs?: number;
    clock?: ManualClock;
    store?: CachePort;
    logger?: Logger;
  } = {},
): SportsHarness {
  const clock = options.clock ?? new ManualClock();
  const provider = new SportmonksHttpAdapter({
    token: options.token ?? fake.token,
    v3BaseUrl: fake.v3BaseUrl,
    cricketV2BaseUrl: fake.cricketV2BaseUrl,
    timeoutMs: options.timeoutMs ?? 2_000,
  });
  const store = options.store ?? new MemoryCacheAdapter(10_000_000, clock);
  const logger = options.logger ?? createLogger('silent');
  const limits = { ...DEFAULT_SPORTS_LIMITS, ...options.limits };
  const service = new SportsService(
    new SwrCache(store, clock, logger, limits),
    new SportsUpstreamClient(provider, logger, clock, upstreamLimits(limits)),
  );
  return { service, clock, store };
}

/** The DomainError a promise rejects with (fails the test when it resolves or throws anything else). */
export async function errorOf(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected an DomainError');
}

/** Waits (real time) until `check` holds, at most about two seconds. */
export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error('condition not reached');
}

export const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));
