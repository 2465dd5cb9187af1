import type { ExternalExchange } from './adapters/extmarket/external-exchange.port.js';
import {
  startLocalExchange,
  type RunningLocalExchange,
} from './adapters/extmarket/local-exchange/local-exchange.server.js';
import { PolymarketExchangeAdapter } from './adapters/extmarket/polymarket-exchange.adapter.js';
import { ExtDiscoveryService } from './areas/extmarket/extmarket-discovery.service.js';
import { ExtSyncRepository } from './areas/extmarket/extmarket-sync.repository.js';
import { ExtSyncService } from './areas/extmarket/extmarket-sync.service.js';
import { ExtTradingService } from './areas/extmarket/extmarket-trading.service.js';
import { ExtMarketService } from './areas/extmarket/extmarket.service.js';
import { ExtMarketRepository } from './areas/extmarket/extmarket.repository.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { MarketIndexer, type MarketEventSink } from './areas/markets/market-indexer.js';
import { MarketEventLogRepository } from './areas/markets/market-event-log.repository.js';
import type { EventBusPort } from './adapters/event-bus/event-bus.port.js';
import { MemoryEventBusAdapter } from './adapters/event-bus/memory-event-bus.adapter.js';
import { RedisEventBusAdapter } from './adapters/event-bus/redis-event-bus.adapter.js';
import { HttpWebhookSenderAdapter } from './adapters/webhook-sender/http-webhook-sender.adapter.js';
import { WebhookDispatcher } from './areas/webhooks/webhook-dispatch.service.js';
import { WebhookRepository } from './areas/webhooks/webhook.repository.js';
import { WebhookService } from './areas/webhooks/webhook.service.js';
import { EventLogRepository } from './platform/events/event-log.repository.js';
import { EventRelay } from './platform/events/event-relay.service.js';
import { EventStreamService } from './platform/events/event-stream.service.js';
import {
  JobBackendUnavailableError,
  JobEngine,
  retryUntilStarted,
  type JobEngineOptions,
} from './platform/jobs/job-engine.js';
import { Lease } from './platform/jobs/lease.js';
import { BetsService } from './areas/markets/bets.service.js';
import { ListCache } from './areas/markets/duel-list.cache.js';
import { DuelService, type DuelPage } from './areas/markets/duel.service.js';
import { MarketAccess } from './areas/markets/market-access.js';
import { UserEventVisibility } from './areas/markets/event-visibility.rules.js';
import {
  indexerTask,
  reconcilePendingDuels,
  registerMarketOutcomes,
  scheduleMarketJobs,
  type ScheduledTask,
} from './areas/markets/market-jobs.js';
import { QuoteSigner } from './areas/markets/quote-signer.js';
import { Quoter } from './areas/markets/bet-quotes.js';
import { MarketSettingsStore } from './areas/settlement/market-settings.js';
import { DistributionLedgerRepository } from './areas/settlement/distribution-ledger.repository.js';
import { DistributionService } from './areas/settlement/distribution.service.js';
import { MarketAdminQueries } from './areas/settlement/market-admin.queries.js';
import { MarketAdminRepository } from './areas/settlement/market-admin.repository.js';
import { MarketAdminService } from './areas/settlement/market-admin.service.js';
import { ResolutionService } from './areas/settlement/resolution.service.js';
import { ContestRepository } from './areas/settlement/contest.repository.js';
import { settlementTasks } from './areas/settlement/settlement-tasks.js';
import { createMoney, type Money } from './areas/money/money.js';
import { SimulatedBridgeAdapter } from './adapters/bridge/simulated-bridge.adapter.js';
import { LocalUploadSigner } from './adapters/storage/local-upload-signer.adapter.js';
import type { UploadSignerPort } from './adapters/storage/upload-signer.port.js';
import { UploadService } from './areas/uploads/upload.service.js';
import { LocalUploadService } from './areas/uploads/local-upload.service.js';
import type { NotificationsPort } from './adapters/notifications/notifications.port.js';
import { ManagedSigners } from './areas/identity/managed-signers.js';
import { ResponseCache } from './http/middleware/response-cache.js';
import { BuilderKeyRepository } from './areas/builders/builder-key.repository.js';
import { BuilderKeyService } from './areas/builders/builder-key.service.js';
import type { Config } from './config.js';
import type { EmbeddedPostgres } from './platform/db/embedded-postgres.js';
import { initOrm, type Orm } from './platform/db/orm.js';
import { entities } from './entities.js';
import { GeoGate } from './platform/geo/geo-gate.js';
import { ChainedGeoLookup } from './adapters/geo/chained-geo-lookup.adapter.js';
import { CsvGeoLookup } from './adapters/geo/csv-geo-lookup.adapter.js';
import type { GeoLookupPort } from './adapters/geo/geo.port.js';
import { HeaderGeoLookup } from './adapters/geo/header-geo-lookup.adapter.js';
import { AnalyticsRepository } from './areas/analytics/analytics.repository.js';
import { LeaderboardService } from './areas/analytics/leaderboard.service.js';
import { PortfolioRepository } from './areas/analytics/portfolio.repository.js';
import { PortfolioService } from './areas/analytics/portfolio.service.js';
import { StatsService } from './areas/analytics/stats.service.js';
import { ProtocolStatsRepository } from './areas/analytics/protocol-stats.repository.js';
import { HealthService } from './platform/health/health.service.js';
import { DuelRepository } from './areas/markets/duel.repository.js';
import { PriceHistoryService } from './areas/markets/price-history.service.js';
import { PriceSnapshotRepository } from './areas/markets/price-snapshot.repository.js';
import type { CachePort } from './adapters/cache/cache.port.js';
import { MemoryCacheAdapter } from './adapters/cache/memory-cache.adapter.js';
import { RedisCacheAdapter } from './adapters/cache/redis-cache.adapter.js';
import { startFakeSportmonks } from './adapters/sports-provider/fake-sportmonks.server.js';
import { SportmonksHttpAdapter } from './adapters/sports-provider/sportmonks-http.adapter.js';
import type { SportsProviderPort } from './adapters/sports-provider/sports-provider.port.js';
import { SportsService } from './areas/sports/sports.service.js';
import { upstreamLimits } from './areas/sports/sports-limits.js';
import { SportsUpstreamClient } from './areas/sports/sports-upstream.client.js';
import { SwrCache } from './areas/sports/swr.cache.js';
import type { ChainPort } from './adapters/chain/chain.port.js';
import { ViemChainAdapter } from './adapters/chain/viem-chain.adapter.js';
import { privateKeyToAccount } from 'viem/accounts';
import { LocalDiskStorage } from './adapters/storage/local-disk.adapter.js';
import type { StoragePort } from './adapters/storage/storage.port.js';
import { AdminAuthService } from './areas/identity/admin-auth.service.js';
import { AdminRepository } from './areas/identity/admin.repository.js';
import { AuthService } from './areas/identity/auth.service.js';
import { AuthenticationService } from './areas/identity/authentication.service.js';
import { IdpService } from './areas/identity/idp.service.js';
import { SecretBox } from './areas/identity/secret-box.js';
import { SiweNonceRepository } from './areas/identity/siwe-nonce.repository.js';
import { SiweService } from './areas/identity/siwe.service.js';
import { TokenService } from './areas/identity/token.service.js';
import { UserRepository } from './areas/identity/user.repository.js';
import { UserService } from './areas/identity/user.service.js';
import { WalletCredentialRepository } from './areas/identity/wallet-credential.repository.js';
import { WalletCredentialVerifier } from './areas/identity/wallet-credential.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdempotencyService } from './platform/idempotency/idempotency.service.js';
import { IdempotencyRepository } from './platform/idempotency/idempotency.repository.js';
import { ChainStateRepository } from './platform/chain-tx/chain-state.repository.js';
import type { ChainTxPipeline } from './platform/chain-tx/chain-tx.pipeline.js';
import { FundsRepository } from './platform/chain-tx/funds.repository.js';
import { durabilityWarning } from './platform/db/durability.js';
import { ChainTxReconciler } from './platform/chain-tx/chain-tx.reconciler.js';
import { ChainTxRepository } from './platform/chain-tx/chain-tx.repository.js';
import type { Logger } from './logger.js';
import { RateLimiterFactory, type RateLimiter } from './platform/rate-limit/rate-limiter.js';
import { InvitationRepository } from './areas/invitations/invitation.repository.js';
import { InvitationEventSink } from './areas/invitations/invitation-events.repository.js';
import { InvitationService } from './areas/invitations/invitation.service.js';
import { MembershipDirectory } from './areas/invitations/membership-directory.js';
import { MembershipService } from './areas/invitations/membership.service.js';
import { ParentInvitationService } from './areas/parent-markets/parent-invitation.service.js';
import { ParentMarketRepository } from './areas/parent-markets/parent-market.repository.js';
import { ParentMarketService } from './areas/parent-markets/parent-market.service.js';
import { createPacks, type Packs } from './areas/packs/packs.js';
import type { PrizeVaultPort } from './adapters/chain/prize-vault.port.js';
import { DistributionBook } from './platform/merkle/distribution-book.js';
import { DistributionRepository } from './platform/merkle/distribution.repository.js';
import { isAdjustable, OffsetClock, systemClock, type Clock } from './platform/clock.js';
import type { FixturesPort } from './adapters/sports-provider/fixtures.port.js';
import { SportmonksFixturesAdapter } from './adapters/sports-provider/sportmonks-fixtures.adapter.js';
import { ParlayCatalogueService } from './areas/parlay/parlay-catalogue.service.js';
import { ParlayQuoteService } from './areas/parlay/parlay-quote.service.js';
import { ParlayRepository } from './areas/parlay/parlay.repository.js';
import { LpService } from './areas/lp/lp.service.js';
import { ParlayIndexer } from './areas/parlay/parlay-indexer.job.js';
import { ParlaySettlementService } from './areas/parlay/parlay-settlement.service.js';
import { ParlayTicketsRepository } from './areas/parlay/parlay-tickets.repository.js';
import { ParlayTicketsService } from './areas/parlay/parlay-tickets.service.js';
import { createTournaments, type Tournaments } from './areas/tournaments/tournaments.js';
import { TournamentAdminLinkService } from './areas/tournaments/tournament-admin-link.service.js';
import { createRacing, type Racing } from './areas/racing/racing.wiring.js';
import { FakeMotorsportSeason } from './adapters/sports-provider/fake-motorsport.season.js';
import { fakeSportsScript, type SportsScript } from './adapters/sports-provider/fake-sports.script.js';
import type { MotorsportPort } from './adapters/sports-provider/motorsport.port.js';
import { SportmonksMotorsportAdapter } from './adapters/sports-provider/sportmonks-motorsport.adapter.js';
import { ParlayTournamentsAdminService } from './areas/parlay-tournaments-admin/parlay-tournaments-admin.service.js';
import { HttpTournamentsAdmin } from './adapters/tournaments-admin/http-tournaments-admin.adapter.js';
import { InProcessTournamentsAdmin } from './adapters/tournaments-admin/in-process-tournaments-admin.adapter.js';
import type { TournamentsAdminPort } from './adapters/tournaments-admin/tournaments-admin.port.js';
import { CircuitBreaker } from './platform/outage/circuit-breaker.js';
import { createOperations, type Operations } from './areas/operations.wiring.js';
import { OutboxPushAdapter } from './adapters/notifications/outbox-push.adapter.js';
import type { PushProviderPort } from './adapters/notifications/push-provider.port.js';
import { SportmonksMatchFactsAdapter } from './adapters/commentary/sportmonks-match-facts.adapter.js';
import { TemplateCommentaryGenerator } from './adapters/commentary/template-commentary.adapter.js';

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
    readonly adminLoginPerEmail: RateLimiter;
    readonly adminLoginPerIp: RateLimiter;
    readonly factory: RateLimiterFactory;
  };
  readonly geo: GeoGate;
  readonly health: HealthService;
  /** Turns bearer tokens and wallet credentials into principals (the HTTP layer reads the headers). */
  readonly authentication: AuthenticationService;
  readonly sports: SportsService;
  readonly chain: ChainPort;
  /** The pipeline every chain write goes through, and the reconciler that finishes open writes. */
  readonly chainTxs: { readonly pipeline: ChainTxPipeline; readonly reconciler: ChainTxReconciler };
  readonly analytics: {
    readonly stats: StatsService;
    readonly leaderboards: LeaderboardService;
    readonly portfolio: PortfolioService;
  };
  readonly priceHistory: PriceHistoryService;
  readonly markets: {
    readonly duels: DuelService;
    readonly bets: BetsService;
    readonly repo: DuelRepository;
    readonly access: MarketAccess;
    /** What a signed-in user's event stream may show (docs/events.md). */
    readonly eventVisibility: UserEventVisibility;
    readonly signers: ManagedSigners;
    readonly listCache: ListCache<DuelPage>;
    readonly indexer: MarketIndexer;
  };
  /** §4.8 private markets: invitations and memberships. */
  readonly privateMarkets: { readonly invitations: InvitationService; readonly memberships: MembershipService };
  /** §4.9 parent markets. */
  readonly parentMarkets: { readonly parents: ParentMarketService; readonly invitations: ParentInvitationService };
  /** The prize vaults (one per collateral): pools of packs and tournaments, Merkle claims. */
  readonly prizeVault: PrizeVaultPort;
  /** The one book of Merkle payout and refund tables (packs, tournaments, racing). */
  readonly distributions: DistributionBook;
  /** §4.13 and §4.16 packs. */
  readonly packs: Packs;
  /** Serialised answers of cacheable public routes; dropped whenever the read model changes. */
  readonly responseCache: ResponseCache;
  /** The durable job engine, when this process runs background work (JOBS_ENABLED). */
  readonly jobs: JobEngine | undefined;
  /** Resolution, contests, payouts and refunds, market administration (§4.7, §4.16). */
  readonly settlement: {
    readonly resolution: ResolutionService;
    readonly distribution: DistributionService;
    readonly admin: MarketAdminService;
    /** The admin's read-only views of markets. */
    readonly adminQueries: MarketAdminQueries;
    readonly settings: MarketSettingsStore;
  };
  /** §4.4, §4.16 money movement: claims, withdrawals, the daily limit, withdrawal requests. */
  readonly money: Money;
  readonly identity: {
    readonly box: SecretBox;
    readonly tokens: TokenService;
    readonly users: UserService;
    readonly auth: AuthService;
    readonly admins: AdminAuthService;
  };
  /** §4.5 presigned uploads; `local` receives the embedded default's uploads (the markets host serves its signed URLs). */
  readonly uploads: { readonly service: UploadService; readonly local: LocalUploadService | undefined };
  /** Directory the markets host serves at /media, when files are stored on local disk. */
  readonly mediaRoot: string | undefined;
  /** §4.17 tournaments: creation, bonds, entries, picks, standings, brackets, statistics. */
  readonly tournaments: Tournaments;
  /** §4.17 racing tournaments (F1 grid predictor): tournaments of `gameType` F1_GRID_PREDICTOR. */
  readonly racing: Racing;
  /**
   * Tournament cancellations for the admins of both hosts: `local` is this process's tournaments
   * domain (behind the tournaments host's internal admin routes); `markets` is how the markets
   * host reaches it — in-process, or over HTTP when the hosts run apart (SERVE_HOSTS=markets).
   */
  readonly tournamentsAdmin: {
    readonly local: TournamentAdminLinkService;
    readonly markets: ParlayTournamentsAdminService;
  };
  /** Parlays and the liquidity pool (docs/parlays.md, docs/liquidity-pool.md). */
  readonly parlay: {
    readonly catalogue: ParlayCatalogueService;
    readonly quotes: ParlayQuoteService;
    readonly lp: LpService;
    readonly tickets: ParlayTicketsService;
    /** Reads ParlayBook's events into tickets and the pool's ledger; undefined without a book. */
    readonly indexer: ParlayIndexer | undefined;
    /** Posts results and settles tickets; undefined without a book. */
    readonly settlement: ParlaySettlementService | undefined;
    /** The pool's ledger and quotes, for operators and tests that need a pool in a given state. */
    readonly repository: ParlayRepository;
  };
  /** Invites, reports, requests, push, the pre-match cycle, commentary, stream migration (docs/operations.md). */
  readonly operations: Operations;
  /** §4.15 the external prediction market; `local` is the loopback exchange when no upstream is configured. */
  readonly extmarket: {
    readonly accounts: ExtMarketService;
    readonly trading: ExtTradingService;
    readonly discovery: ExtDiscoveryService;
    /** Pairs canonical duels with external events and keeps their 24 h volume and live flag current. */
    readonly sync: ExtSyncService;
    readonly exchange: ExternalExchange;
    readonly local: RunningLocalExchange | undefined;
  };
  /** The event log, its relay and bus, and webhooks (docs/events.md). */
  readonly events: Events;
  /** The time every domain rule is judged by (markets, settlement, packs, money, tournaments, the local sports fake). */
  readonly clock: Clock;
  /**
   * What the local sports simulator will play (fixture results, session classifications), for the
   * operator's `sports/script`; undefined when a real provider (or a test's own port) serves sports.
   */
  readonly sportsScript: SportsScript | undefined;
  /**
   * Moves the rules' clock and the embedded chain's time forward together (the operator's
   * `time/advance`); undefined on a real chain, whose time nobody moves.
   */
  readonly time: TimeTravel | undefined;
  close(): Promise<void>;
}

/** The event log, its relay and bus, and webhooks (docs/events.md). */
export interface Events {
  readonly log: EventLogRepository;
  readonly bus: EventBusPort;
  readonly relay: EventRelay;
  readonly webhooks: WebhookService;
  readonly dispatcher: WebhookDispatcher;
  readonly stream: EventStreamService;
  close(): Promise<void>;
}

function createEvents(
  orm: Orm,
  redis: Redis | undefined,
  box: SecretBox,
  clock: Clock,
  logger: Logger,
  embedded: boolean,
): Events {
  const log = new EventLogRepository(orm);
  const bus: EventBusPort = redis
    ? new RedisEventBusAdapter(
        redis,
        () => log.databaseName(),
        (err) => logger.warn({ err }, 'event bus error'),
      )
    : new MemoryEventBusAdapter();
  const repo = new WebhookRepository(orm);
  // SSRF: the embedded defaults deliver to local receivers; production never to private addresses.
  const sender = new HttpWebhookSenderAdapter({ allowPrivate: embedded, timeoutMs: 10_000 });
  const relay = new EventRelay(
    log,
    bus,
    [(sql, numbered) => repo.createDeliveries(sql, numbered, new Date(clock.now()))],
    logger,
  );
  const stream = new EventStreamService(log, bus, logger);
  return {
    log,
    bus,
    relay,
    stream,
    webhooks: new WebhookService({ repo, sender, box }),
    dispatcher: new WebhookDispatcher(repo, sender, box, clock, logger),
    async close() {
      stream.close();
      await relay.stop();
      await bus.close();
    },
  };
}

/** Moves the rules' clock and the embedded chain's time forward together. */
export interface TimeTravel {
  /** Moves both forward by `seconds`; answers the rules' time after the move. */
  advance(seconds: number): Promise<Date>;
}

/**
 * The embedded chain's time control joined to the rules' clock. A chain moved forward before a
 * restart runs ahead of the wall clock; the clock the container made starts as far ahead.
 */
function timeTravel(chain: ViemChainAdapter['time'], clock: Clock, ownClock: boolean): TimeTravel | undefined {
  if (!chain || !isAdjustable(clock)) return undefined;
  if (ownClock && chain.aheadMs() > 0) clock.advance(chain.aheadMs());
  return {
    async advance(seconds) {
      await chain.advanceTime(seconds);
      clock.advance(seconds * 1000);
      return new Date(clock.now());
    },
  };
}

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
  geoLookup?: GeoLookupPort;
  sportsProvider?: SportsProviderPort;
  storage?: StoragePort;
  /** A clock tests move by hand: every domain rule reads it (deadlines, expiries, fixture locks, the sports fake). */
  clock?: Clock;
  /** Where user push notifications go (default: kept in memory and logged). */
  notifications?: NotificationsPort;
  fixtures?: FixturesPort;
  /** The local push outbox (tests read what it kept). */
  pushOutbox?: OutboxPushAdapter;
  /** Motorsport seasons and results (default: the clock-driven fake season, or Sportmonks when configured). */
  motorsport?: MotorsportPort;
}

/** The push providers PUSH_PROVIDERS names; loaded only when configured (the embedded default needs neither SDK). */
async function createPushProviders(config: Config): Promise<PushProviderPort[]> {
  const out: PushProviderPort[] = [];
  const { push } = config.operations;
  if (push.providers.includes('expo')) {
    const { ExpoPushAdapter } = await import('./adapters/notifications/expo-push.adapter.js');
    out.push(new ExpoPushAdapter(push.expo));
  }
  if (push.providers.includes('webpush')) {
    const { WebPushAdapter } = await import('./adapters/notifications/web-push.adapter.js');
    out.push(new WebPushAdapter(push.webpush));
  }
  return out;
}

async function createStorage(config: Config): Promise<{ storage: StoragePort; mediaRoot: string | undefined }> {
  if (config.storage.driver === 's3') {
    // Loaded only when configured: the AWS SDK is large and not needed on embedded defaults.
    const { S3Storage } = await import('./adapters/storage/s3.adapter.js');
    const { bucket, region, endpoint, publicBaseUrl } = config.storage.s3;
    const base = publicBaseUrl ?? `https://${bucket}.s3.${region}.amazonaws.com`;
    return { storage: new S3Storage(bucket as string, region, endpoint, base), mediaRoot: undefined };
  }
  const root =
    config.storage.localDir ??
    (config.database.dataDir ? join(config.database.dataDir, 'media') : mkdtempSync(join(tmpdir(), 'duelkit-media-')));
  return { storage: new LocalDiskStorage(root, config.storage.publicBaseUrl), mediaRoot: root };
}

/** The external exchange: the configured upstream, or the local exchange served on loopback. */
async function createExtMarket(
  config: Config,
  clock: Clock,
  box: SecretBox,
  orm: Orm,
  closers: (() => Promise<void>)[],
  logger: Logger,
  onDuelsChange: () => void,
) {
  const x = config.extMarket;
  const policy = {
    timeoutMs: x.timeoutMs,
    maxRetryWaitMs: 2_000,
    maxRetries: 2,
    breakerThreshold: x.breakerThreshold,
    breakerCooldownMs: x.breakerCooldownMs,
    defaultRetryAfterMs: 5_000,
  };
  let local: RunningLocalExchange | undefined;
  let upstream = x.upstream;
  if (!upstream) {
    const builder = {
      key: randomUUID(),
      secret: randomBytes(32).toString('base64url'),
      passphrase: randomBytes(16).toString('hex'),
    };
    local = await startLocalExchange({ clock, builder, seed: randomUUID() });
    const running = local;
    closers.push(() => running.close());
    // Its test hooks (/_sim/fund, /_sim/resolve, /_sim/bridge-deposit) answer on these loopback URLs.
    logger.info({ urls: local.urls }, 'local external exchange served on loopback');
    const u = local.urls;
    upstream = {
      clobUrl: u.clob,
      gammaUrl: u.gamma,
      dataUrl: u.data,
      relayerUrl: u.relayer,
      bridgeUrl: u.bridge,
      rpcUrl: u.rpc,
      sportsWsUrl: u.sportsWs,
      builder,
    };
  }
  // Breakers and Retry-After are wall-clock time; relayer deadlines and signatures follow the domain clock.
  const exchange = new PolymarketExchangeAdapter({ ...upstream, policy }, clock, systemClock);
  closers.push(() => exchange.close());
  const deps = { store: new ExtMarketRepository(orm), exchange, box };
  return {
    accounts: new ExtMarketService(deps, clock),
    trading: new ExtTradingService(deps, clock),
    discovery: new ExtDiscoveryService(exchange, clock),
    sync: new ExtSyncService({
      store: new ExtSyncRepository(orm),
      exchange,
      clock,
      onChange: onDuelsChange,
      logger,
    }),
    exchange,
    local,
  };
}

/** The real provider when configured; otherwise the local fake, served on loopback. */
async function createSportsProvider(
  config: Config,
  closers: (() => Promise<void>)[],
  clock: Clock,
): Promise<SportsProviderPort> {
  if (config.sports.provider === 'sportmonks') {
    return new SportmonksHttpAdapter({
      token: config.sports.token ?? '',
      v3BaseUrl: config.sports.v3BaseUrl,
      cricketV2BaseUrl: config.sports.cricketV2BaseUrl,
      timeoutMs: config.sports.timeoutMs,
    });
  }
  const fake = await startFakeSportmonks({ clock });
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
    // Loaded only on embedded defaults: production never starts PGlite.
    const { startEmbeddedPostgres } = await import('./platform/db/embedded-postgres.js');
    embedded = await startEmbeddedPostgres({ dataDir: config.database.dataDir });
    url = embedded.url;
    poolSize = Math.min(poolSize, 4);
    logger.info({ dataDir: config.database.dataDir ?? '(memory)' }, 'embedded PostgreSQL started');
  }
  const orm = await initOrm(entities, url, poolSize, config.database.runMigrations, (holder) =>
    logger.info({ holder }, 'waiting for another instance to finish migrating'),
  );
  closers.push(() => orm.close(true));
  if (embedded) closers.push(() => embedded.stop());
  const durability = await durabilityWarning(orm);
  if (durability) logger.warn({ synchronous_commit: 'off' }, durability);

  const redis = config.redisUrl ? createRedis(config.redisUrl, logger) : undefined;
  if (redis) closers.unshift(async () => void (await redis.quit().catch(() => redis.disconnect())));

  const factory = new RateLimiterFactory(
    redis,
    (err) =>
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limiter store error; allowing'),
    `${config.redisPrefix}:rl`,
  );
  const health = new HealthService(orm, redis);
  // On the embedded chain the rules' time can be moved forward with the chain's (see `time`).
  const clock = overrides.clock ?? (config.chain.rpcUrl ? systemClock : new OffsetClock());
  const chainTxRepo = new ChainTxRepository(orm);
  let chain: ViemChainAdapter;
  try {
    chain = await ViemChainAdapter.connect(
      {
        ...config.chain,
        // The embedded chain deploys ParlayBook bound to this server's quote signer and pricing.
        parlayBook: {
          quoteSigner: privateKeyToAccount(config.parlay.signerKey).address,
          feeBps: config.parlay.feeBps,
          marginBps: config.parlay.marginBps,
        },
      },
      logger,
      {
        txs: chainTxRepo,
        funds: new FundsRepository(orm),
        state: new ChainStateRepository(orm),
        clock,
      },
    );
  } catch (err) {
    for (const close of closers) await close().catch(() => undefined);
    throw err;
  }
  closers.unshift(() => chain.close());
  const time = timeTravel(chain.time, clock, overrides.clock === undefined);
  const reconciler = new ChainTxReconciler(
    chainTxRepo,
    chain.pipeline,
    logger,
    { rebroadcastAfterMs: config.chain.rebroadcastAfterMs, batch: 500 },
    // Infrastructure: a write's last send is the database's now(), so its age is wall-clock time.
    systemClock,
  );
  const marketEventLog = new MarketEventLogRepository(clock);
  registerMarketOutcomes(chain.pipeline, new DuelRepository(orm), marketEventLog);
  // Writes recorded before a crash or restart are finished in the background, a page at a time:
  // waiting for them would keep a restarted instance from serving for as long as the node takes
  // to answer for each (or for ever, with the node away). Requests whose write is still open get
  // the pending answer their idempotency key stores.
  void reconciler.recover().catch((err: unknown) => logger.warn({ err }, 'boot recovery of chain writes failed'));
  // Not waited for at shutdown: a page may be waiting on a node that does not answer.
  closers.unshift(async () => reconciler.stop());
  // Not critical: the instance serves while it recovers; readiness says how many writes are left.
  health.addProbe(
    'chainWritesRecovery',
    () => {
      const left = reconciler.recoveryLeft();
      if (left === null) return Promise.resolve();
      return Promise.reject(new Error(`recovering open chain writes: ${left} left to check`));
    },
    { critical: false },
  );
  // Not critical: reads keep working while the node is away, chain writes answer CHAIN_UNAVAILABLE.
  health.addProbe(
    'chain',
    async () => {
      await chain.blockNumber();
    },
    { critical: false },
  );
  // Critical: a node that answers as another chain than the database's is a configuration to
  // correct, and no call reaches it (a node away at start is only waited for: see `chain` above).
  health.addProbe(
    'chainIdentity',
    () => {
      const verification = chain.verification();
      return verification.state === 'refused' ? Promise.reject(new Error(verification.reason)) : Promise.resolve();
    },
    { critical: true },
  );
  const sportsCache: CachePort = redis
    ? new RedisCacheAdapter(redis, `${config.redisPrefix}:cache:`)
    : new MemoryCacheAdapter(config.sports.cacheMaxBytes);
  const box = new SecretBox(config.auth.walletMasterKey);
  const tokens = new TokenService(
    config.auth.jwtSecret,
    config.auth.previousJwtSecrets,
    config.auth.userTokenTtlSeconds,
    config.auth.adminTokenTtlSeconds,
    // Tokens stay on the wall clock: a test moving the domain clock by days would expire its own sessions.
    systemClock,
  );
  const sportsProviderEarly = overrides.sportsProvider ?? (await createSportsProvider(config, closers, clock));
  const operations = createOperations({
    orm,
    config,
    clock,
    pushProviders: await createPushProviders(config),
    outbox: overrides.pushOutbox ?? new OutboxPushAdapter(),
    matchFacts: new SportmonksMatchFactsAdapter(sportsProviderEarly, config.sports.timeoutMs),
    commentary: new TemplateCommentaryGenerator(),
  });
  const users = new UserService(new UserRepository(orm), box, tokens, clock, operations.signUpGate);
  const admins = new AdminAuthService(new AdminRepository(orm), box, tokens);
  const walletCredentials = new WalletCredentialRepository(orm);
  const { storage, mediaRoot } = overrides.storage
    ? { storage: overrides.storage, mediaRoot: undefined }
    : await createStorage(config);
  const siwe = new SiweService(
    new SiweNonceRepository(orm),
    {
      domain: config.auth.siweDomain,
      uri: config.auth.siweUri,
      chainId: config.auth.chainId,
      nonceTtlSeconds: config.auth.nonceTtlSeconds,
    },
    // Wall clock: the database's now() also judges a nonce's expiry when it is consumed.
    systemClock,
  );
  const auth = new AuthService(siwe, users, new IdpService(config.auth.idpIssuers), box, storage);
  const sportsProvider = sportsProviderEarly;
  const analyticsRepo = new AnalyticsRepository(orm);
  const analytics = {
    stats: new StatsService(new ProtocolStatsRepository(orm), analyticsRepo, clock),
    leaderboards: new LeaderboardService(analyticsRepo, clock),
    portfolio: new PortfolioService(new PortfolioRepository(orm), analyticsRepo, clock),
  };
  const duelRepo = new DuelRepository(orm);
  const signers = new ManagedSigners(users, box);
  const invitationRepo = new InvitationRepository(orm);
  const directory = new MembershipDirectory(invitationRepo, chain);
  const access = new MarketAccess(directory);
  const listCache = new ListCache<DuelPage>(config.markets.listCacheMs);
  // Shared by every instance through Redis when configured: one instance's answer serves all.
  const responseCache = new ResponseCache(
    config.markets.listCacheMs,
    clock,
    redis ? new RedisCacheAdapter(redis, `${config.redisPrefix}:answers:`) : undefined,
  );
  listCache.onInvalidate(() => responseCache.invalidate());
  const marketSettings = await MarketSettingsStore.open(orm, config.markets);
  closers.push(async () => marketSettings.stop());
  const duels = new DuelService({
    collateral: chain,
    lifecycle: chain,
    signers,
    repo: duelRepo,
    access,
    listCache,
    settings: marketSettings,
    clock,
  });
  const bets = new BetsService({
    trading: chain,
    collateral: chain,
    duels,
    repo: duelRepo,
    access,
    signers,
    quoter: new Quoter(new QuoteSigner(config.auth.jwtSecret), config.markets.quoteTtlSeconds, clock),
    settings: config.markets,
    clock,
  });
  const sinks: MarketEventSink[] = [];
  const threshold = {
    minParticipants: config.markets.bootstrapMinParticipants,
    minVolume: config.markets.bootstrapMinVolume,
  };
  const resolution = new ResolutionService({
    contests: new ContestRepository(orm),
    lifecycle: chain,
    duels,
    signers,
    access,
    logger,
    clock,
  });
  const distribution = new DistributionService({
    ledger: new DistributionLedgerRepository(orm),
    lifecycle: chain,
    reads: chain,
    logger,
    clock,
  });
  const adminQueries = new MarketAdminQueries(orm, duels, distribution, marketSettings, threshold, clock);
  const marketAdmin = new MarketAdminService({
    repo: new MarketAdminRepository(orm),
    lifecycle: chain,
    duels,
    distribution,
    queries: adminQueries,
    settings: marketSettings,
    threshold,
    logger,
    clock,
  });
  const settlement = { resolution, distribution, admin: marketAdmin, adminQueries, settings: marketSettings };
  // Paid events land in the payouts ledger inside the indexer's transaction.
  sinks.push(distribution.paidSink);
  sinks.push(new InvitationEventSink());
  sinks.push(marketEventLog);
  const invitations = new InvitationService({ repo: invitationRepo, duels, membership: chain, signers, clock });
  const parentRepo = new ParentMarketRepository(orm);
  const parents = new ParentMarketService({
    repo: parentRepo,
    duels,
    duelRepo,
    access,
    memberships: invitationRepo,
    membership: chain,
    logger,
  });
  const prizeVault = chain.prizeVault();
  const distributions = new DistributionBook(new DistributionRepository(orm));
  const priceHistory = new PriceHistoryService(duelRepo, new PriceSnapshotRepository(orm), access, clock);
  const packs = createPacks({
    orm,
    parents,
    duels,
    history: priceHistory,
    decisions: {
      resolveAsAdmin: (duelId, outcome, write) => settlement.resolution.resolveAsAdmin(duelId, outcome, write),
      discard: (ctx, admin, duelIds, reason) => settlement.admin.discard(ctx, admin, duelIds, reason),
    },
    book: distributions,
    vault: prizeVault,
    funds: chain,
    signers,
    clock,
    logger,
    settings: {
      feeBps: config.packs.feeBps,
      treasury: config.packs.treasury ?? chain.operator,
      platformAddress: chain.operator,
      tickMs: config.packs.tickMs,
    },
  });
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const indexerLease = new Lease(orm, 'indexer:markets', owner, 30_000);
  const indexer = new MarketIndexer(
    orm,
    chain,
    indexerLease,
    logger,
    2_000n,
    () => listCache.invalidate(),
    sinks,
    clock,
  );
  const tournaments = createTournaments({
    orm,
    vault: prizeVault,
    chain: { addresses: chain.addresses, collateralBalance: (stack, owner) => chain.collateralBalance(stack, owner) },
    signers,
    fixtures: overrides.fixtures ?? new SportmonksFixturesAdapter(sportsProvider, config.sports.timeoutMs),
    settings: config.tournaments,
    clock,
    logger,
    distributions,
    treasury: config.tournaments.treasury ?? chain.operator,
  });
  const parlayFixtures = new SportmonksFixturesAdapter(sportsProvider, config.sports.timeoutMs);
  const parlayRepository = new ParlayRepository(orm);
  // PARLAY_BOOK_ADDRESS names the book on a real chain; the embedded chain deploys its own at boot.
  const parlaySettings = { ...config.parlay, bookAddress: config.parlay.bookAddress ?? chain.addresses.parlayBook };
  const parlayCatalogue = new ParlayCatalogueService({ fixtures: parlayFixtures, clock, settings: parlaySettings });
  const parlayTickets = new ParlayTicketsRepository(orm);
  const parlayBook = parlaySettings.bookAddress ? chain.parlayBook(parlaySettings.bookAddress) : undefined;
  const parlay = {
    catalogue: parlayCatalogue,
    quotes: new ParlayQuoteService({
      catalogue: parlayCatalogue,
      store: parlayRepository,
      clock,
      settings: parlaySettings,
      chainId: config.chain.chainId,
    }),
    lp: new LpService({ store: parlayRepository, tickets: parlayTickets, clock, settings: parlaySettings }),
    tickets: new ParlayTicketsService({ store: parlayTickets, book: parlayBook, settings: parlaySettings }),
    indexer: parlayBook
      ? new ParlayIndexer(
          orm,
          parlayBook,
          chain,
          new Lease(orm, 'indexer:parlay', owner, 30_000),
          parlayTickets,
          logger,
        )
      : undefined,
    settlement: parlayBook
      ? new ParlaySettlementService({ book: parlayBook, fixtures: parlayFixtures, tickets: parlayTickets, logger })
      : undefined,
    repository: parlayRepository,
  };
  const tournamentAdminLink = new TournamentAdminLinkService(tournaments.cancellations);
  const localTournamentsAdmin = new InProcessTournamentsAdmin(tournamentAdminLink);
  const racing = createRacing({
    orm,
    motorsport:
      overrides.motorsport ??
      (config.sports.provider === 'sportmonks'
        ? new SportmonksMotorsportAdapter(sportsProvider, config.racing.sportmonksLeagueId, config.sports.timeoutMs)
        : new FakeMotorsportSeason(clock)),
    tournaments,
    vault: prizeVault,
    signers,
    distributions,
    settings: config.tournaments,
    treasury: config.tournaments.treasury ?? chain.operator,
    clock,
    logger,
    sweepEveryMs: config.racing.sweepIntervalMs,
  });
  const link = config.tournamentsLink;
  const tournamentsAdminLink: TournamentsAdminPort =
    link.mode === 'http'
      ? new HttpTournamentsAdmin(link.url, {
          serviceToken: link.serviceToken,
          timeoutMs: link.timeoutMs,
          // An outage window of another service: wall-clock time, whatever clock the rules run on.
          breaker: new CircuitBreaker({ threshold: 3, cooldownMs: link.breakerCooldownMs }, systemClock),
        })
      : localTournamentsAdmin;
  let localUploads: LocalUploadSigner | undefined;
  let uploadSigner: UploadSignerPort;
  if (config.storage.driver === 's3' && !overrides.storage) {
    const { S3UploadSigner } = await import('./adapters/storage/s3-upload-signer.adapter.js');
    const { bucket, region, endpoint, publicBaseUrl } = config.storage.s3;
    const base = publicBaseUrl ?? `https://${bucket}.s3.${region}.amazonaws.com`;
    uploadSigner = new S3UploadSigner(bucket as string, region, endpoint, base);
  } else {
    // Its own key, derived from the JWT secret so embedded mode needs no new secret.
    const key = createHash('sha256').update(`duelkit-local-uploads:${config.auth.jwtSecret}`).digest('hex');
    localUploads = new LocalUploadSigner(key, config.storage.publicBaseUrl, clock);
    uploadSigner = localUploads;
  }
  const uploadService = new UploadService(uploadSigner, storage, clock, config.money.uploads);
  const uploads = {
    service: uploadService,
    local: localUploads ? new LocalUploadService(localUploads, uploadService) : undefined,
  };
  const money = createMoney({
    orm,
    chain,
    duels,
    payouts: settlement.distribution,
    signers,
    // Production has no bridge provider adapter yet: usdc withdrawals are refused (docs/money.md).
    bridge:
      config.mode === 'embedded'
        ? new SimulatedBridgeAdapter(chain, clock, { ...config.money.bridgeSimulator, escrow: chain.operator })
        : undefined,
    clock,
    dailyLimit: config.money.dailyLimit,
    notifications: overrides.notifications ?? operations.push,
    bridgeWebhook: config.money.bridgeWebhook,
    logger,
  });
  const events = createEvents(orm, redis, box, clock, logger, config.mode === 'embedded');
  closers.unshift(() => events.close());
  const extmarket = await createExtMarket(config, clock, box, orm, closers, logger, () => listCache.invalidate());
  let jobs: JobEngine | undefined;
  if (config.markets.jobsEnabled) {
    events.relay.start(250);
    // Each worker (markets, settlement, pack claims, tournaments, operations, racing, the external-market
    // sync: seven) holds a connection to listen; the rest serve queue operations. A pool no larger than
    // the workers leaves none for adding and scheduling jobs, and start-up waits for ever.
    const backend = config.markets.jobsBackend;
    const engineOptions: JobEngineOptions =
      backend.kind === 'redis' && config.redisUrl
        ? { backend: 'redis', redisUrl: config.redisUrl, prefix: backend.prefix, logger }
        : { databaseUrl: url, poolMax: embedded ? 11 : 13, embedded: Boolean(embedded), logger };
    const tasks: ScheduledTask[] = [
      indexerTask(indexer, config.markets.indexerIntervalMs),
      {
        name: 'reconcile-duels',
        everyMs: 15_000,
        // Crash recovery, not a rule: a duel's created_at is the database's now(), so its age is wall-clock time.
        run: () => reconcilePendingDuels(duelRepo, chain, 120_000, new Date(systemClock.now())),
      },
      { name: 'reconcile-chain-txs', everyMs: config.chain.reconcileIntervalMs, run: () => reconciler.runOnce() },
      {
        name: 'price-snapshots',
        everyMs: config.markets.snapshotIntervalMs,
        run: (now) => priceHistory.snapshotOpenMarkets(now),
      },
      // The stored statistics row stays fresh without anyone calling protocol-stats/refresh.
      { name: 'protocol-stats', everyMs: 5 * 60_000, run: () => analytics.stats.refresh() },
      // Used wallet credentials matter only inside their 5-minute window.
      { name: 'wallet-credentials-prune', everyMs: 15 * 60_000, run: (now) => walletCredentials.prune(now) },
      { name: 'webhook-deliveries', everyMs: 1_000, run: () => events.dispatcher.runOnce() },
      ...parlayTasks(parlay, config.markets.indexerIntervalMs),
      ...settlementTasks({
        resolution,
        distribution,
        admin: marketAdmin,
        onChange: () => listCache.invalidate(),
      }),
      ...packs.tasks,
      ...money.tasks,
    ];
    /** Starts the engine, its workers and schedules, all or nothing. */
    const startJobs = async (): Promise<JobEngine> => {
      const engine = await JobEngine.start(engineOptions);
      try {
        distribution.attach(engine);
        packs.attach(engine);
        await scheduleMarketJobs(engine, tasks, logger, clock);
        await tournaments.attach(engine);
        await operations.attach(engine);
        await racing.attach(engine);
        await extmarket.sync.attach(engine, config.extMarket.syncIntervalMs);
      } catch (err) {
        await engine.close().catch(() => undefined);
        throw err;
      }
      logger.info({ backend: backend.kind }, 'background jobs started');
      return engine;
    };
    const waiting = await startJobs().then(
      (engine) => {
        jobs = engine;
        return undefined;
      },
      (err: unknown) => {
        // Redis is shared by every instance and its outage is not this one's (docs/kernel.md,
        // "Readiness and outages"): the instance serves requests meanwhile, as an API-only one does,
        // and its jobs start once Redis answers.
        if (!(err instanceof JobBackendUnavailableError)) throw err;
        logger.warn({ err: err.message }, 'background jobs wait for Redis; requests are served meanwhile');
        return retryUntilStarted(startJobs, (engine) => (jobs = engine), logger);
      },
    );
    closers.unshift(async () => {
      await waiting?.stop();
      await jobs?.close();
      await indexerLease.release().catch(() => undefined);
    });
  }
  const container: Container = {
    events,
    extmarket,
    config,
    logger,
    orm,
    redis,
    builderKeys: new BuilderKeyService(new BuilderKeyRepository(orm), config.builderKeys.cacheMs, clock),
    idempotency: new IdempotencyService(new IdempotencyRepository(orm), config.idempotency),
    limits: {
      team: factory.create('key:team', config.rateLimits.teamPerMin),
      selfserve: factory.create('key:selfserve', config.rateLimits.selfservePerMin),
      tournamentsIp: factory.create('ip:tournaments', config.rateLimits.tournamentsIpPerMin),
      sportsProxyIp: factory.create('ip:sports-proxy', config.sports.proxyIpPerMin),
      sportsHelpersIp: factory.create('ip:sports-helpers', config.sports.helpersIpPerMin),
      adminLoginPerEmail: factory.create('admin-login:email', 10, 15 * 60),
      adminLoginPerIp: factory.create('admin-login:ip', 30, 15 * 60),
      factory,
    },
    geo: new GeoGate(overrides.geoLookup ?? createGeoLookup(config), config.geo.blockedCountries),
    health,
    authentication: new AuthenticationService(tokens, admins, new WalletCredentialVerifier(walletCredentials)),
    sports: new SportsService(
      // The provider's cache windows and breaker periods are wall-clock time, whatever clock the
      // tournaments run on.
      new SwrCache(
        sportsCache,
        systemClock,
        logger,
        config.sports.limits,
        !overrides.sportsProvider && config.sports.provider === 'fake' ? 'fake' : 'provider',
      ),
      new SportsUpstreamClient(sportsProvider, logger, systemClock, upstreamLimits(config.sports.limits)),
    ),
    chain,
    chainTxs: { pipeline: chain.pipeline, reconciler },
    analytics,
    priceHistory,
    settlement,
    money,
    uploads,
    prizeVault,
    distributions,
    packs,
    responseCache,
    markets: {
      duels,
      bets,
      repo: duelRepo,
      access,
      eventVisibility: new UserEventVisibility(duelRepo, access),
      signers,
      listCache,
      indexer,
    },
    privateMarkets: {
      invitations,
      memberships: new MembershipService({
        repo: invitationRepo,
        invitations,
        directory,
        duels,
        membership: chain,
        reads: chain,
        signers,
        clock,
      }),
    },
    parentMarkets: {
      parents,
      invitations: new ParentInvitationService({
        repo: parentRepo,
        parents,
        memberships: invitationRepo,
        directory,
        membership: chain,
        clock,
      }),
    },
    /** Undefined until the jobs have started (later than the rest when Redis was away at start). */
    get jobs() {
      return jobs;
    },
    identity: { box, tokens, users, auth, admins },
    mediaRoot,
    tournaments,
    parlay,
    operations,
    racing,
    tournamentsAdmin: {
      local: tournamentAdminLink,
      // It measures the link's latency: wall-clock time.
      markets: new ParlayTournamentsAdminService(tournamentsAdminLink, systemClock),
    },
    clock,
    sportsScript:
      config.sports.provider === 'fake' && !overrides.sportsProvider && !overrides.fixtures && !overrides.motorsport
        ? fakeSportsScript
        : undefined,
    time,
    async close() {
      for (const close of closers) await close();
    },
  };
  return container;
}

/** The parlay indexer and settlement as scheduled tasks (none without a ticket contract). */
function parlayTasks(
  parlay: { indexer: ParlayIndexer | undefined; settlement: ParlaySettlementService | undefined },
  everyMs: number,
): ScheduledTask[] {
  const { indexer, settlement } = parlay;
  if (!indexer || !settlement) return [];
  return [
    {
      name: 'index-parlay',
      everyMs,
      async run() {
        for (let i = 0; i < 20; i++) if ((await indexer.runOnce()).caughtUp) return;
      },
    },
    { name: 'settle-parlays', everyMs: 15_000, run: () => settlement.runOnce() },
  ];
}
