import { z } from 'zod';
import { DEFAULT_SPORTS_LIMITS } from './areas/sports/sports-limits.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const port = z.coerce.number().int().min(0).max(65535);

const baseUnits = z.string().regex(/^(0|[1-9][0-9]{0,40})$/, 'base units as a decimal integer');

/** The environment the server reads, once, at start-up. Nothing else reads process.env. */
export const EnvSchema = z.object({
  /**
   * The run mode. `embedded` (default): a self-contained development instance — embedded
   * database, in-process chain, fake sports data, generated secrets. `production`: refuses to
   * start unless every real dependency and secret is configured. NODE_ENV=production means
   * production too.
   */
  DUELKIT_ENV: z.enum(['embedded', 'production']).optional(),
  NODE_ENV: z.string().optional(),
  /** Markets host port. */
  PORT: port.default(3000),
  /** Tournaments host port. */
  TOURNAMENTS_PORT: port.default(3001),
  /** Which hosts this process serves. */
  SERVE_HOSTS: z.enum(['both', 'markets', 'tournaments']).default('both'),
  /** Interface to bind. */
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PostgreSQL connection string. Unset: embedded PostgreSQL (PGlite) in this process. */
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * Where the embedded database keeps its files (with the chain's journal and the generated
   * secrets). `:memory:` keeps nothing. Unset: in memory for a configuration a program builds;
   * the server's and the operator commands' entry points default it to `.data` in the working
   * directory (see `withDefaultDataDir`).
   */
  DUELKIT_DATA_DIR: z
    .string()
    .min(1)
    .optional()
    .transform((dir) => (dir === ':memory:' ? undefined : dir)),
  /** Redis connection string. Unset: in-memory rate limits and caches (single instance only). */
  REDIS_URL: z.string().url().optional(),
  /**
   * The prefix of the rate limits' and caches' keys in Redis. Unset: `duelkit:<database name>`, so
   * deployments sharing one Redis (staging and production) neither count against each other's
   * limits nor serve each other's cached answers.
   */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'letters, digits and _ : . - (at most 64)')
    .optional(),
  /** Express `trust proxy` setting: false, true, a hop count, or a comma list of subnets. */
  TRUST_PROXY: z.string().default('false'),
  CORS_ORIGINS: z.string().default('*'),
  JSON_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'like 1mb or 512kb')
    .default('1mb'),
  /**
   * Which answers are checked against their response schemas: `all`, or `shaping` — only routes
   * whose schema changes a valid answer (drops unknown keys). Unset: `all` in embedded mode (and
   * so in tests), `shaping` in production. See docs/kernel.md, "Response validation".
   */
  RESPONSE_VALIDATION: z.enum(['all', 'shaping']).optional(),
  /** Requests per minute per builder key, by tier. */
  RATE_LIMIT_TEAM_PER_MIN: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_SELFSERVE_PER_MIN: z.coerce.number().int().min(1).default(300),
  /** Requests per minute per client IP on the tournaments host (all routes). */
  TOURNAMENTS_IP_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(300),
  /** Embedded mode: value of the development builder key created on first start when no key exists. */
  DUELKIT_DEV_BUILDER_KEY: z.string().min(16).optional(),
  /**
   * Test runs only: a directory where each process appends the contract routes it served over
   * HTTP (one `<host> <METHOD> <path>` line per route), read by `pnpm routes:check`.
   */
  DUELKIT_ROUTE_LEDGER: z.string().min(1).optional(),
  /** Loopback port of the operator surface the operator commands call (keys:create, …); `off`: none. */
  OPERATOR_PORT: z.union([z.literal('off'), port]).default(3002),
  /** Where the operator credential is written when there is no data directory. */
  DUELKIT_RUNTIME_DIR: z.string().min(1).optional(),
  XDG_RUNTIME_DIR: z.string().min(1).optional(),
  /** How long a builder-key lookup is cached in memory (revocation takes effect within it). */
  BUILDER_KEY_CACHE_MS: z.coerce.number().int().min(0).default(10_000),
  /** Trusted header carrying the caller's ISO country code (set by your CDN), e.g. cf-ipcountry. */
  GEO_COUNTRY_HEADER: z.string().toLowerCase().optional(),
  /** Offline GeoIP database: CSV of `start_ip,end_ip,country` rows (IPv4/IPv6). */
  GEOIP_CSV_PATH: z.string().optional(),
  /** ISO 3166-1 alpha-2 codes refused for usdc collateral. */
  GEO_BLOCKED_COUNTRIES: csv.default(''),
  IDEMPOTENCY_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 7)
    .default(24),
  /** How long a duplicate waits for the first request with the same key before 409. */
  IDEMPOTENCY_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
  /** An in-flight key older than this is considered abandoned (its process died) and may be retaken. */
  IDEMPOTENCY_LOCK_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** `fake`: a local stand-in provider on loopback (development, tests); `sportmonks`: the real API. */
  SPORTS_PROVIDER: z.enum(['fake', 'sportmonks']).default('fake'),
  SPORTMONKS_API_TOKEN: z.string().min(1).optional(),
  SPORTMONKS_V3_BASE_URL: z.string().url().default('https://api.sportmonks.com/v3'),
  SPORTMONKS_CRICKET_V2_BASE_URL: z.string().url().default('https://cricket.sportmonks.com/api/v2.0'),
  SPORTS_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(8_000),
  /** Bound of the in-memory sports cache (used when REDIS_URL is unset). */
  SPORTS_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1_000_000)
    .default(64 * 1024 * 1024),
  /** Sports proxies' protection (docs/sports-proxy.md): requests waiting on one cache key at once. */
  SPORTS_PER_KEY_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_SPORTS_LIMITS.perKeyConcurrency),
  /** Upstream calls in flight at once, and how many more may queue for a slot. */
  SPORTS_UPSTREAM_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_SPORTS_LIMITS.upstreamConcurrency),
  SPORTS_UPSTREAM_QUEUE: z.coerce.number().int().min(0).default(DEFAULT_SPORTS_LIMITS.upstreamQueue),
  /** Upstream 429s within the window that open a path's breaker, and how long it stays open. */
  SPORTS_BREAKER_THRESHOLD: z.coerce.number().int().min(1).default(DEFAULT_SPORTS_LIMITS.breakerThreshold),
  SPORTS_BREAKER_WINDOW_MS: z.coerce.number().int().min(1).default(DEFAULT_SPORTS_LIMITS.breakerWindowMs),
  SPORTS_BREAKER_OPEN_MS: z.coerce.number().int().min(1).default(DEFAULT_SPORTS_LIMITS.breakerOpenMs),
  /** Cross-instance collapse of one key's fetch: the lock's lifetime and how often waiters look. */
  SPORTS_LOCK_TTL_MS: z.coerce.number().int().min(100).default(DEFAULT_SPORTS_LIMITS.lockTtlMs),
  SPORTS_LOCK_POLL_MS: z.coerce.number().int().min(1).default(DEFAULT_SPORTS_LIMITS.lockPollMs),
  SPORTS_PROXY_IP_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(60),
  SPORTS_HELPERS_IP_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(120),
  /** HMAC key for user and admin JWTs (≥ 32 characters). Embedded mode: generated at first start. */
  JWT_SECRET: z.string().min(32).optional(),
  /** Earlier JWT secrets still accepted for verification while their tokens live (comma list). */
  JWT_PREVIOUS_SECRETS: csv.default(''),
  USER_TOKEN_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(168),
  ADMIN_TOKEN_TTL_HOURS: z.coerce.number().int().min(1).max(72).default(12),
  /** Domain and URI Sign-In with Ethereum messages are bound to. */
  SIWE_DOMAIN: z.string().min(1).default('localhost'),
  /** Default: PUBLIC_BASE_URL. */
  SIWE_URI: z.string().url().optional(),
  SIWE_NONCE_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  CHAIN_ID: z.coerce.number().int().min(1).default(31337),
  /** JSON-RPC URL of an EVM node. Unset: an in-process EVM with the contracts deployed at boot. */
  CHAIN_RPC_URL: z.string().url().optional(),
  /** Key of the platform operator account (deploys, mints credits, pays gas on test chains). */
  CHAIN_OPERATOR_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte private key')
    .optional(),
  /** Deployed contracts when CHAIN_RPC_URL is set: JSON {"credits","usdc","markets"}. */
  CHAIN_CONTRACTS: z.string().optional(),
  /** Blocks to wait before a write counts as final on a real chain (the embedded chain needs none). */
  CHAIN_CONFIRMATIONS: z.coerce.number().int().min(0).max(64).default(2),
  /** Loopback port serving the embedded EVM as JSON-RPC for operator commands (0: any; off: none). */
  CHAIN_EMBEDDED_RPC_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).default(8545),
  /**
   * Reads made in the same tick go to CHAIN_RPC_URL as one JSON-RPC batch of at most this many
   * calls (0: one HTTP request per call, for a node that refuses batches). Broadcasts are never batched.
   */
  CHAIN_RPC_BATCH_SIZE: z.coerce.number().int().min(0).max(1_000).default(100),
  /** How long a broadcast may take before the write is answered as pending (the reconciler sends it again). */
  CHAIN_BROADCAST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  /** How often recorded chain writes that are not final are checked, and sent again when due, ms. */
  CHAIN_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(2_000),
  /** A recorded write the node has not acknowledged for this long is sent again, ms. */
  CHAIN_REBROADCAST_AFTER_MS: z.coerce.number().int().min(100).default(5_000),
  /** Native balance (wei) below which a managed wallet gets gas from the operator, and how much. */
  CHAIN_GAS_FLOOR_WEI: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,40})$/, 'wei as a decimal integer')
    .default('10000000000000000'),
  CHAIN_GAS_TOP_UP_WEI: z
    .string()
    .regex(/^[1-9][0-9]{0,40}$/, 'wei as a decimal integer')
    .default('100000000000000000'),
  /** 32-byte AES-256-GCM key (base64 or 0x hex) encrypting managed wallet keys and TOTP secrets. */
  WALLET_MASTER_KEY: z.string().min(32).optional(),
  /** Identity providers: JSON list of {"issuer","jwksUri","audience"}. */
  IDP_ISSUERS: z.string().default('[]'),
  /** Where profile images go: `local` (disk, served at /media) or `s3`. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_LOCAL_DIR: z.string().min(1).optional(),
  /** Public URL of the markets host, used in links the server hands out. Default: http://localhost:<listening port>. */
  PUBLIC_BASE_URL: z.string().url().optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_PUBLIC_BASE_URL: z.string().url().optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  RUN_MIGRATIONS: bool.default('true'),
  /** Market-maker fee of new markets, basis points (at most 1000). */
  DUEL_FEE_BPS: z.coerce.number().int().min(0).max(1_000).default(100),
  /** Liquidity (base units) the creator's wallet seeds a new market with, unless the request names one. */
  DUEL_INITIAL_LIQUIDITY: z
    .string()
    .regex(/^[1-9][0-9]{0,40}$/, 'base units as a decimal integer')
    .default('100000000000000000000'),
  /** Minimum lead between now and startTime for public / private markets, seconds. */
  DUEL_PUBLIC_LEAD_SECONDS: z.coerce.number().int().min(0).default(1_860),
  DUEL_PRIVATE_LEAD_SECONDS: z.coerce.number().int().min(0).default(300),
  /** How long participants may contest a resolution, seconds (0: resolution settles at once). */
  DUEL_CONTEST_PERIOD_SECONDS: z.coerce.number().int().min(0).default(86_400),
  /** A public market needs this many traders and this much volume (base units) by its start, or cancel-expired cancels it. */
  DUEL_BOOTSTRAP_MIN_PARTICIPANTS: z.coerce.number().int().min(0).default(2),
  DUEL_BOOTSTRAP_MIN_VOLUME: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,40})$/, 'base units as a decimal integer')
    .default('0'),
  /** How long after its end a market may stay unresolved before cancel-expired cancels it, seconds. */
  DUEL_RESOLUTION_GRACE_SECONDS: z.coerce.number().int().min(0).default(604_800),
  /** How long a bet estimate (quote) can be placed, seconds. */
  BET_QUOTE_TTL_SECONDS: z.coerce.number().int().min(5).max(3_600).default(60),
  /** Per-user exposure limit across open markets (base units); 0 = none. */
  USER_BET_LIMIT: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,40})$/, 'base units as a decimal integer')
    .default('10000000000000000000000'),
  /** How often the chain indexer polls for new blocks, ms. */
  INDEXER_INTERVAL_MS: z.coerce.number().int().min(100).default(1_000),
  /** How long a public duel list page is cached per instance, ms (the indexer invalidates it). */
  DUEL_LIST_CACHE_MS: z.coerce.number().int().min(0).default(2_000),
  /** How often open markets get a scheduled price snapshot, ms. */
  PRICE_SNAPSHOT_INTERVAL_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** Most a user may withdraw per collateral in any rolling 24 h, base units (docs/money.md); larger amounts go through a withdrawal request. */
  WITHDRAW_DAILY_LIMIT_CREDITS: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,40})$/, 'base units as a decimal integer')
    .default('1000000000000000000000'),
  WITHDRAW_DAILY_LIMIT_USDC: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,40})$/, 'base units as a decimal integer')
    .default('1000000000000000000000'),
  /** Embedded bridge simulator (usdc withdrawals): delivery delay, ms, and comma-separated destinations it fails to deliver to. */
  /** External market (docs/external-markets.md): unset EXTMARKET_CLOB_URL means the local exchange on loopback. */
  EXTMARKET_CLOB_URL: z.string().url().optional(),
  EXTMARKET_GAMMA_URL: z.string().url().default('https://gamma-api.polymarket.com'),
  EXTMARKET_DATA_URL: z.string().url().default('https://data-api.polymarket.com'),
  EXTMARKET_RELAYER_URL: z.string().url().default('https://relayer-v2.polymarket.com'),
  EXTMARKET_BRIDGE_URL: z.string().url().default('https://bridge.polymarket.com'),
  EXTMARKET_POLYGON_RPC_URL: z.string().url().default('https://polygon-rpc.com'),
  EXTMARKET_SPORTS_WS_URL: z.string().url().default('wss://sports-api.polymarket.com/ws'),
  EXTMARKET_BUILDER_API_KEY: z.string().min(1).optional(),
  EXTMARKET_BUILDER_SECRET: z.string().min(1).optional(),
  EXTMARKET_BUILDER_PASSPHRASE: z.string().min(1).optional(),
  EXTMARKET_TIMEOUT_MS: z.coerce.number().int().min(100).default(8_000),
  EXTMARKET_BREAKER_THRESHOLD: z.coerce.number().int().min(1).default(5),
  EXTMARKET_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).default(30_000),
  EXTMARKET_SYNC_INTERVAL_MS: z.coerce.number().int().min(1_000).default(300_000),
  BRIDGE_SIM_DELAY_MS: z.coerce.number().int().min(0).default(5_000),
  BRIDGE_SIM_FAIL_ADDRESSES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'comma-separated 0x addresses'))),
  /**
   * Shared secret(s) of the bridge provider's deposit webhook (HMAC-SHA256), comma-separated: the
   * first signs nothing, all verify, so a rotation lists the new and the old. Unset: the webhook
   * answers 503 (docs/money.md).
   */
  BRIDGE_WEBHOOK_SECRET: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().min(16, 'each secret needs at least 16 characters'))),
  /** How old a webhook's timestamp may be (either way), seconds. */
  BRIDGE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3_600).default(300),
  /** Largest file a presigned upload URL is issued for, bytes (docs/money.md). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(100 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  /** How long a presigned upload URL stays valid, seconds. */
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(3_600).default(300),
  /** Platform fee on a pack's prize pool, basis points (docs/packs.md). */
  PACK_FEE_BPS: z.coerce.number().int().min(0).max(2_000).default(500),
  /** Receives the fee of settled packs; default the chain operator's address. */
  PACK_TREASURY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte address')
    .optional(),
  /** How often the packs' tick (lock at lockAt, verify entries, release fees) runs, ms. */
  PACK_TICK_INTERVAL_MS: z.coerce.number().int().min(500).default(5_000),
  /** Background jobs (indexer, snapshots, reconciliation) in this process: off for API-only replicas. */
  JOBS_ENABLED: bool.default('true'),
  /**
   * Where BullMQ keeps the jobs (docs/deployment.md, "Background jobs"): `auto` is Redis when
   * REDIS_URL and DATABASE_URL are both set, else PostgreSQL; `postgres` keeps them in the
   * database whatever else is set; `redis` requires REDIS_URL.
   */
  JOBS_BACKEND: z.enum(['auto', 'postgres', 'redis']).default('auto'),
  /** Redis backend: the prefix of every job key. Unset: `{duelkit:<database name>}`, one namespace per database. */
  JOBS_REDIS_PREFIX: z
    .string()
    .regex(/^[\w{}:.-]{1,64}$/, 'letters, digits and _ { } : . - (at most 64)')
    .optional(),
  /** Parlays: leagues of the catalogue (comma list), how far ahead it lists games, and the lead before kick-off at which a game's conditions close. */
  PARLAY_LEAGUES: csv.default('8'),
  PARLAY_WINDOW_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(24),
  PARLAY_MIN_LEAD_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** Parlay pricing: the house margin taken once from the product of the legs' odds, and the protocol fee on a stake (basis points). */
  PARLAY_MARGIN_BPS: z.coerce.number().int().min(0).max(3_000).default(500),
  PARLAY_FEE_BPS: z.coerce.number().int().min(0).max(1_000).default(100),
  /** How long a signed quote stays valid, and how far the odds may drift before a quote no longer validates (basis points). */
  PARLAY_QUOTE_TTL_SECONDS: z.coerce.number().int().min(5).max(3_600).default(120),
  PARLAY_MAX_DRIFT_BPS: z.coerce.number().int().min(0).max(10_000).default(300),
  /** Key that signs quotes (EIP-712). Unset: derived from JWT_SECRET, stable across restarts. */
  PARLAY_QUOTE_SIGNER_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte private key')
    .optional(),
  /** The ticket contract a quote is bound to (the EIP-712 verifying contract). Unset: quotes are refused with 503. */
  PARLAY_BOOK_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte address')
    .optional(),
  /** Risk limits of one ticket (base units, odds × 100) and of the pool (base units, basis points of free liquidity). */
  PARLAY_MIN_STAKE: baseUnits.default('5000000000000000000'),
  PARLAY_MAX_LEGS: z.coerce.number().int().min(2).max(20).default(8),
  PARLAY_MAX_SAME_GAME_LEGS: z.coerce.number().int().min(1).max(10).default(3),
  PARLAY_MAX_ODDS_X100: z.coerce.number().int().min(101).default(50_000),
  PARLAY_MAX_PAYOUT: baseUnits.default('10000000000000000000000'),
  PARLAY_CAP_PER_OUTCOME: baseUnits.default('2000000000000000000000'),
  PARLAY_CAP_PER_GAME: baseUnits.default('5000000000000000000000'),
  PARLAY_POOL_PAYOUT_SHARE_BPS: z.coerce.number().int().min(1).max(10_000).default(1_000),
  /** How long new liquidity stays locked before it can be removed, seconds. */
  LP_LOCKUP_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(90 * 86_400)
    .default(7 * 86_400),
  /** Bond a tournament creator holds in the vault (base units) and its asset. */
  TOURNAMENT_BOND_AMOUNT: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,40})$/, 'base units as a decimal integer')
    .default('50000000000000000000'),
  TOURNAMENT_BOND_ASSET: z.enum(['credits', 'usdc']).default('credits'),
  /** Defaults of a new tournament's rules (a create may set its own within the contract's bounds). */
  TOURNAMENT_CHIPS_PER_STAGE: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  TOURNAMENT_MAX_ENTRANTS: z.coerce.number().int().min(2).max(256).default(64),
  TOURNAMENT_GROUP_SIZE: z.coerce.number().int().min(2).max(16).default(4),
  TOURNAMENT_ADVANCE_PER_GROUP: z.coerce.number().int().min(1).max(15).default(2),
  TOURNAMENT_FIXTURES_PER_STAGE: z.coerce.number().int().min(1).max(20).default(4),
  TOURNAMENT_LEAGUE_ID: z.coerce.number().int().min(1).default(8),
  /** Platform fee on a prize pool (basis points) and the payout table (comma list of basis points, summing to 10000). */
  TOURNAMENT_FEE_BPS: z.coerce.number().int().min(0).max(5_000).default(0),
  TOURNAMENT_PAYOUT_BPS: csv.default('6000,2500,1500'),
  /** Default length of a stage's fixture window, and the lead before stage 1's window when a create names none. */
  TOURNAMENT_STAGE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(72),
  TOURNAMENT_START_LEAD_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(60 * 24 * 30)
    .default(60),
  /** A fixture without a result this long after its expected end is void. */
  TOURNAMENT_FIXTURE_EXPIRY_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(24),
  /** How often finished fixtures are looked up at the provider, ms. */
  TOURNAMENT_RESULTS_INTERVAL_MS: z.coerce.number().int().min(200).default(15_000),
  /** The Formula 1 league of the Sportmonks motorsport API (racing tournaments, with SPORTS_PROVIDER=sportmonks). */
  RACING_SPORTMONKS_LEAGUE_ID: z.coerce.number().int().min(1).default(1),
  /** How often racing tournaments ask the motorsport provider for results (docs/racing.md). */
  RACING_SWEEP_INTERVAL_MS: z.coerce.number().int().min(200).default(30_000),
  /** A market's dispute window: hours from its result (docs/tournaments.md, "Disputes"). */
  TOURNAMENT_DISPUTE_WINDOW_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
  /** The final window: hours from the final stage's settlement before the payout root may be built. */
  TOURNAMENT_FINAL_DISPUTE_WINDOW_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
  /** An open dispute not decided this many hours after its market's window closes expires (the result stands). */
  TOURNAMENT_DISPUTE_RESOLVE_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(48),
  /** How often the tournaments automation (timeouts, expired disputes, settle-ready) runs, ms. */
  TOURNAMENT_AUTOMATION_INTERVAL_MS: z.coerce.number().int().min(500).default(60_000),
  /** Receives tournament platform fees (TOURNAMENT_FEE_BPS); default the chain operator's address. */
  TOURNAMENT_TREASURY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte address')
    .optional(),
  /** How often the timeouts step runs (cancel below the minimum at the first lock, record stage locks), ms. */
  TOURNAMENT_TIMEOUTS_INTERVAL_MS: z.coerce.number().int().min(200).default(30_000),
  /**
   * Where a markets-only process (SERVE_HOSTS=markets) calls the tournaments host for the
   * parlay-tournaments admin. Default (embedded mode): http://127.0.0.1:<TOURNAMENTS_PORT>.
   */
  TOURNAMENTS_INTERNAL_URL: z.string().url().optional(),
  /**
   * Shared secret the markets host presents to the tournaments host's internal admin routes
   * (≥ 32 characters; the same value on both). Embedded mode: generated at first start.
   */
  TOURNAMENTS_SERVICE_TOKEN: z.string().min(32).optional(),
  /** Sign-up needs a usable platform invite code (docs/operations.md, "Invites"). */
  PLATFORM_INVITE_ONLY: bool.default('false'),
  /**
   * Push providers to deliver through, comma-separated: `expo`, `webpush`. Unset: the local outbox
   * (deliveries are recorded and kept, nothing leaves the machine) — docs/operations.md.
   */
  PUSH_PROVIDERS: csv.default('').pipe(z.array(z.enum(['expo', 'webpush']))),
  /** Expo's push API (its HTTP base); the Expo access token when the project requires one. */
  EXPO_PUSH_URL: z.string().url().default('https://exp.host'),
  EXPO_ACCESS_TOKEN: z.string().min(1).optional(),
  /** Web Push VAPID keys (URL-safe base64, as `web-push generate-vapid-keys` prints them) and subject. */
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z.string().min(1).default('mailto:operator@example.com'),
  /** The pre-match cycle: fixtures starting within this many minutes are reminded of; how often it runs, ms. */
  PREMATCH_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  PREMATCH_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(5 * 60_000),
  /** Where stream-migration archives are written and read. Default: `stream-migration` in the data directory. */
  STREAM_MIGRATION_DIR: z.string().min(1).optional(),
  /** Timeout of one call from the markets host to the tournaments host, ms. */
  TOURNAMENTS_ADMIN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** How long the circuit breaker stays open after repeated failures before one trial call, ms. */
  TOURNAMENTS_ADMIN_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).default(30_000),
});

export type Env = z.input<typeof EnvSchema>;

/** The environment after parsing: defaults applied, lists split. */
export type ParsedEnv = z.infer<typeof EnvSchema>;
