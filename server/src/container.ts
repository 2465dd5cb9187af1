import { Redis } from 'ioredis';
import { BuilderKeyService } from './builders/builder-key.service.js';
import type { Config } from './config.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded-postgres.js';
import { initOrm, type Orm } from './db/orm.js';
import { GeoGate } from './geo/geo-gate.js';
import { ChainedGeoLookup, CsvGeoLookup, HeaderGeoLookup, type GeoLookupPort } from './geo/geo-lookup.js';
import { HealthService } from './health/health.service.js';
import type { CachePort } from './adapters/cache/cache.port.js';
import { MemoryCacheAdapter } from './adapters/cache/memory-cache.adapter.js';
import { RedisCacheAdapter } from './adapters/cache/redis-cache.adapter.js';
import { startFakeSportmonks } from './adapters/sports-provider/fake-sportmonks.server.js';
import { SportmonksHttpAdapter } from './adapters/sports-provider/sportmonks-http.adapter.js';
import type { SportsProviderPort } from './adapters/sports-provider/sports-provider.port.js';
import { SportsService } from './sports/sports.service.js';
import { noCredentials, type Authenticator } from './http/middleware/authenticate.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import type { Logger } from './logger.js';
import { RateLimiterFactory, type RateLimiter } from './rate-limit/rate-limiter.js';

/** Everything the apps need, built once per process. The only place that picks adapters. */
export interface Container {
  readonly config: Config;
  readonly logger: Logger;
  readonly orm: Orm;
  readonly redis: Redis | undefined;
  readonly builderKeys: BuilderKeyService;
  readonly idempotency: IdempotencyService;
  readonly limits: {
    readonly team: RateLimiter;
    readonly selfserve: RateLimiter;
    readonly tournamentsIp: RateLimiter;
    readonly sportsProxyIp: RateLimiter;
    readonly sportsHelpersIp: RateLimiter;
    readonly factory: RateLimiterFactory;
  };
  readonly geo: GeoGate;
  readonly health: HealthService;
  readonly authenticator: Authenticator;
  readonly sports: SportsService;
  close(): Promise<void>;
}

/** Connections the embedded database accepts; every pool in the process stays below it. */
const EMBEDDED_MAX_CONNECTIONS = 12;

function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    // Fail fast while disconnected so limiters fall back to memory instead of queueing.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let lastWarn = 0;
  redis.on('error', (err: Error) => {
    if (Date.now() - lastWarn > 10_000) {
      lastWarn = Date.now();
      logger.warn({ err: err.message }, 'redis unavailable; using in-memory fallbacks');
    }
  });
  return redis;
}

function createGeoLookup(config: Config): GeoLookupPort {
  const lookups: GeoLookupPort[] = [];
  if (config.geo.countryHeader) lookups.push(new HeaderGeoLookup(config.geo.countryHeader));
  if (config.geo.csvPath) lookups.push(CsvGeoLookup.fromFile(config.geo.csvPath));
  return new ChainedGeoLookup(lookups);
}

export interface ContainerOverrides {
  authenticator?: Authenticator;
  geoLookup?: GeoLookupPort;
  sportsProvider?: SportsProviderPort;
}

/** The real provider when configured; otherwise the local fake, served on loopback. */
async function createSportsProvider(config: Config, closers: (() => Promise<void>)[]): Promise<SportsProviderPort> {
  if (config.sports.provider === 'sportmonks') {
    return new SportmonksHttpAdapter({
      token: config.sports.token ?? '',
      v3BaseUrl: config.sports.v3BaseUrl,
      cricketV2BaseUrl: config.sports.cricketV2BaseUrl,
      timeoutMs: config.sports.timeoutMs,
    });
  }
  const fake = await startFakeSportmonks();
  closers.push(() => fake.close());
  // The fake is reached through the real HTTP adapter, so development exercises the real path.
  return new SportmonksHttpAdapter({
    token: fake.token,
    v3BaseUrl: fake.v3BaseUrl,
    cricketV2BaseUrl: fake.cricketV2BaseUrl,
    timeoutMs: config.sports.timeoutMs,
  });
}

export async function createContainer(
  config: Config,
  logger: Logger,
  overrides: ContainerOverrides = {},
): Promise<Container> {
  const closers: (() => Promise<void>)[] = [];
  let embedded: EmbeddedPostgres | undefined;
  let url = config.database.url;
  let poolSize = config.database.poolSize;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.database.dataDir,
      maxConnections: EMBEDDED_MAX_CONNECTIONS,
    });
    url = embedded.url;
    poolSize = Math.min(poolSize, 4);
    logger.info({ dataDir: config.database.dataDir ?? '(memory)' }, 'embedded PostgreSQL started');
  }
  const orm = await initOrm(url, poolSize, config.database.runMigrations);
  closers.push(() => orm.close(true));
  if (embedded) closers.push(() => (embedded).stop());

  const redis = config.redisUrl ? createRedis(config.redisUrl, logger) : undefined;
  if (redis) closers.unshift(async () => void (await redis.quit().catch(() => redis.disconnect())));

  const factory = new RateLimiterFactory(redis, (err) =>
    logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limiter store error; allowing'),
  );
  const health = new HealthService(orm, redis);
  const sportsCache: CachePort = redis
    ? new RedisCacheAdapter(redis)
    : new MemoryCacheAdapter(config.sports.cacheMaxBytes);
  const sportsProvider = overrides.sportsProvider ?? (await createSportsProvider(config, closers));
  const container: Container = {
    config,
    logger,
    orm,
    redis,
    builderKeys: new BuilderKeyService(orm, config.builderKeys.cacheMs),
    idempotency: new IdempotencyService(orm, config.idempotency),
    limits: {
      team: factory.create('key:team', config.rateLimits.teamPerMin),
      selfserve: factory.create('key:selfserve', config.rateLimits.selfservePerMin),
      tournamentsIp: factory.create('ip:tournaments', config.rateLimits.tournamentsIpPerMin),
      sportsProxyIp: factory.create('ip:sports-proxy', config.sports.proxyIpPerMin),
      sportsHelpersIp: factory.create('ip:sports-helpers', config.sports.helpersIpPerMin),
      factory,
    },
    geo: new GeoGate(overrides.geoLookup ?? createGeoLookup(config), config.geo.blockedCountries),
    health,
    authenticator: overrides.authenticator ?? noCredentials,
    sports: new SportsService(sportsProvider, sportsCache, logger),
    async close() {
      for (const close of closers) await close();
    },
  };
  return container;
}
