import { z } from 'zod';

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

/** The environment the server reads, once, at start-up. Nothing else reads process.env. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
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
  /** Where the embedded database keeps its files. Unset: in memory (lost on exit). */
  DUELKIT_DATA_DIR: z.string().min(1).optional(),
  /** Redis connection string. Unset: in-memory rate limits and caches (single instance only). */
  REDIS_URL: z.string().url().optional(),
  /** Express `trust proxy` setting: false, true, a hop count, or a comma list of subnets. */
  TRUST_PROXY: z.string().default('false'),
  CORS_ORIGINS: z.string().default('*'),
  JSON_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'like 1mb or 512kb')
    .default('1mb'),
  /** Requests per minute per builder key, by tier. */
  RATE_LIMIT_TEAM_PER_MIN: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_SELFSERVE_PER_MIN: z.coerce.number().int().min(1).default(300),
  /** Requests per minute per client IP on the tournaments host (all routes). */
  TOURNAMENTS_IP_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(300),
  /** Value of the development builder key created on first start when no key exists. */
  DUELKIT_DEV_BUILDER_KEY: z.string().min(16).optional(),
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
  SPORTS_PROXY_IP_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(60),
  SPORTS_HELPERS_IP_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(120),
  /** HMAC key for user and admin JWTs (≥ 32 characters). Development default outside production. */
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
  SIWE_URI: z.string().url().default('http://localhost:3000'),
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
  /** Public URL of the markets host, used in links the server hands out. */
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:3000'),
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
  /** Background jobs (indexer, snapshots, reconciliation) in this process: off for API-only replicas. */
  JOBS_ENABLED: bool.default('true'),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  readonly env: 'development' | 'test' | 'production';
  readonly http: {
    readonly host: string;
    readonly marketsPort: number;
    readonly tournamentsPort: number;
    readonly serve: 'both' | 'markets' | 'tournaments';
    readonly trustProxy: boolean | number | string[];
    readonly corsOrigins: '*' | string[];
    readonly jsonBodyLimit: string;
    readonly shutdownGraceMs: number;
  };
  readonly logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  readonly database: {
    readonly url: string | undefined;
    readonly poolSize: number;
    readonly dataDir: string | undefined;
    readonly runMigrations: boolean;
  };
  readonly redisUrl: string | undefined;
  readonly rateLimits: {
    readonly teamPerMin: number;
    readonly selfservePerMin: number;
    readonly tournamentsIpPerMin: number;
  };
  readonly builderKeys: { readonly devKey: string | undefined; readonly cacheMs: number };
  readonly geo: {
    readonly countryHeader: string | undefined;
    readonly csvPath: string | undefined;
    readonly blockedCountries: readonly string[];
  };
  readonly idempotency: { readonly ttlMs: number; readonly waitMs: number; readonly lockTimeoutMs: number };
  readonly auth: {
    readonly jwtSecret: string;
    readonly previousJwtSecrets: readonly string[];
    readonly userTokenTtlSeconds: number;
    readonly adminTokenTtlSeconds: number;
    readonly siweDomain: string;
    readonly siweUri: string;
    readonly nonceTtlSeconds: number;
    readonly chainId: number;
    readonly walletMasterKey: Buffer;
    readonly idpIssuers: readonly { issuer: string; jwksUri: string; audience: string }[];
  };
  readonly chain: {
    readonly rpcUrl: string | undefined;
    readonly chainId: number;
    readonly operatorKey: `0x${string}`;
    readonly addresses: { credits: `0x${string}`; usdc: `0x${string}`; markets: `0x${string}` } | undefined;
    readonly confirmations: number;
    readonly embeddedRpcPort: number | null;
    readonly broadcastTimeoutMs: number;
    readonly reconcileIntervalMs: number;
    readonly rebroadcastAfterMs: number;
    readonly gasFloor: bigint;
    readonly gasTopUp: bigint;
  };
  readonly storage: {
    readonly driver: 'local' | 's3';
    readonly localDir: string | undefined;
    readonly publicBaseUrl: string;
    readonly s3: {
      bucket: string | undefined;
      region: string;
      endpoint: string | undefined;
      publicBaseUrl: string | undefined;
    };
  };
  readonly markets: {
    readonly feeBps: number;
    readonly initialLiquidity: bigint;
    readonly publicLeadSeconds: number;
    readonly privateLeadSeconds: number;
    readonly contestPeriodSeconds: number;
    readonly bootstrapMinParticipants: number;
    readonly bootstrapMinVolume: bigint;
    readonly resolutionGraceSeconds: number;
    readonly quoteTtlSeconds: number;
    readonly userBetLimit: bigint;
    readonly indexerIntervalMs: number;
    readonly listCacheMs: number;
    readonly snapshotIntervalMs: number;
    readonly jobsEnabled: boolean;
    readonly publicBaseUrl: string;
  };
  readonly sports: {
    readonly provider: 'fake' | 'sportmonks';
    readonly token: string | undefined;
    readonly v3BaseUrl: string;
    readonly cricketV2BaseUrl: string;
    readonly timeoutMs: number;
    readonly cacheMaxBytes: number;
    readonly proxyIpPerMin: number;
    readonly helpersIpPerMin: number;
  };
}

/** One message listing every bad key, so a misconfigured deployment is fixed in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Development-only secrets: refused in production (see loadConfig). */
const DEV_JWT_SECRET = 'duelkit-development-jwt-secret-not-for-production';
const DEV_MASTER_KEY = '0x' + '64756b'.repeat(10) + '6475';

/** Hardhat's first well-known development account: only ever used on the embedded chain. */
const DEV_OPERATOR_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const AddressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const ContractsSchema = z.object({ credits: AddressString, usdc: AddressString, markets: AddressString }).strict();

const IssuersSchema = z.array(
  z.object({ issuer: z.string().url(), jwksUri: z.string().url(), audience: z.string().min(1) }).strict(),
);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function parseKey(value: string): Buffer | null {
  const bytes = value.startsWith('0x') ? Buffer.from(value.slice(2), 'hex') : Buffer.from(value, 'base64');
  return bytes.length === 32 ? bytes : null;
}

function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((s) => s.trim());
}

/** Reads and validates the environment. Empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const badCountries = e.GEO_BLOCKED_COUNTRIES.filter((c) => !/^[A-Za-z]{2}$/.test(c));
  if (badCountries.length) problems.push(`GEO_BLOCKED_COUNTRIES: not ISO alpha-2: ${badCountries.join(', ')}`);
  if (e.SERVE_HOSTS === 'both' && e.PORT !== 0 && e.PORT === e.TOURNAMENTS_PORT) {
    problems.push('TOURNAMENTS_PORT: must differ from PORT when both hosts run in one process');
  }
  const production = e.NODE_ENV === 'production';
  if (production && !e.JWT_SECRET) problems.push('JWT_SECRET: required in production');
  if (production && !e.WALLET_MASTER_KEY) problems.push('WALLET_MASTER_KEY: required in production');
  const masterKey = parseKey(e.WALLET_MASTER_KEY ?? DEV_MASTER_KEY);
  if (!masterKey) problems.push('WALLET_MASTER_KEY: must be 32 bytes as base64 or 0x-prefixed hex');
  const issuers = IssuersSchema.safeParse(safeJson(e.IDP_ISSUERS));
  if (!issuers.success) problems.push('IDP_ISSUERS: must be a JSON list of {"issuer","jwksUri","audience"}');
  if (production && !e.CHAIN_OPERATOR_KEY) problems.push('CHAIN_OPERATOR_KEY: required in production');
  const contracts = e.CHAIN_CONTRACTS ? ContractsSchema.safeParse(safeJson(e.CHAIN_CONTRACTS)) : undefined;
  if (contracts && !contracts.success)
    problems.push('CHAIN_CONTRACTS: must be JSON {"credits","usdc","markets"} of addresses');
  if (e.CHAIN_RPC_URL && !e.CHAIN_CONTRACTS) problems.push('CHAIN_CONTRACTS: required when CHAIN_RPC_URL is set');
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE_DRIVER=s3');
  if (e.SPORTS_PROVIDER === 'sportmonks' && !e.SPORTMONKS_API_TOKEN) {
    problems.push('SPORTMONKS_API_TOKEN: required when SPORTS_PROVIDER=sportmonks');
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze({
    env: e.NODE_ENV,
    http: {
      host: e.HOST,
      marketsPort: e.PORT,
      tournamentsPort: e.TOURNAMENTS_PORT,
      serve: e.SERVE_HOSTS,
      trustProxy: parseTrustProxy(e.TRUST_PROXY),
      corsOrigins: e.CORS_ORIGINS === '*' ? ('*' as const) : e.CORS_ORIGINS.split(',').map((s) => s.trim()),
      jsonBodyLimit: e.JSON_BODY_LIMIT,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    },
    logLevel: e.LOG_LEVEL,
    database: {
      url: e.DATABASE_URL,
      poolSize: e.DATABASE_POOL_SIZE,
      dataDir: e.DUELKIT_DATA_DIR,
      runMigrations: e.RUN_MIGRATIONS,
    },
    redisUrl: e.REDIS_URL,
    rateLimits: {
      teamPerMin: e.RATE_LIMIT_TEAM_PER_MIN,
      selfservePerMin: e.RATE_LIMIT_SELFSERVE_PER_MIN,
      tournamentsIpPerMin: e.TOURNAMENTS_IP_LIMIT_PER_MIN,
    },
    builderKeys: { devKey: e.DUELKIT_DEV_BUILDER_KEY, cacheMs: e.BUILDER_KEY_CACHE_MS },
    geo: {
      countryHeader: e.GEO_COUNTRY_HEADER,
      csvPath: e.GEOIP_CSV_PATH,
      blockedCountries: e.GEO_BLOCKED_COUNTRIES.map((c) => c.toUpperCase()),
    },
    idempotency: {
      ttlMs: e.IDEMPOTENCY_TTL_HOURS * 3_600_000,
      waitMs: e.IDEMPOTENCY_WAIT_MS,
      lockTimeoutMs: e.IDEMPOTENCY_LOCK_TIMEOUT_MS,
    },
    auth: {
      jwtSecret: e.JWT_SECRET ?? DEV_JWT_SECRET,
      previousJwtSecrets: e.JWT_PREVIOUS_SECRETS,
      userTokenTtlSeconds: e.USER_TOKEN_TTL_HOURS * 3600,
      adminTokenTtlSeconds: e.ADMIN_TOKEN_TTL_HOURS * 3600,
      siweDomain: e.SIWE_DOMAIN,
      siweUri: e.SIWE_URI,
      nonceTtlSeconds: e.SIWE_NONCE_TTL_SECONDS,
      chainId: e.CHAIN_ID,
      walletMasterKey: masterKey as Buffer,
      idpIssuers: issuers.success ? issuers.data : [],
    },
    chain: {
      rpcUrl: e.CHAIN_RPC_URL,
      chainId: e.CHAIN_ID,
      operatorKey: (e.CHAIN_OPERATOR_KEY ?? DEV_OPERATOR_KEY) as `0x${string}`,
      addresses: contracts?.success
        ? (contracts.data as { credits: `0x${string}`; usdc: `0x${string}`; markets: `0x${string}` })
        : undefined,
      confirmations: e.CHAIN_CONFIRMATIONS,
      embeddedRpcPort: e.CHAIN_EMBEDDED_RPC_PORT === 'off' ? null : e.CHAIN_EMBEDDED_RPC_PORT,
      broadcastTimeoutMs: e.CHAIN_BROADCAST_TIMEOUT_MS,
      reconcileIntervalMs: e.CHAIN_RECONCILE_INTERVAL_MS,
      rebroadcastAfterMs: e.CHAIN_REBROADCAST_AFTER_MS,
      gasFloor: BigInt(e.CHAIN_GAS_FLOOR_WEI),
      gasTopUp: BigInt(e.CHAIN_GAS_TOP_UP_WEI),
    },
    storage: {
      driver: e.STORAGE_DRIVER,
      localDir: e.STORAGE_LOCAL_DIR,
      publicBaseUrl: e.PUBLIC_BASE_URL,
      s3: { bucket: e.S3_BUCKET, region: e.S3_REGION, endpoint: e.S3_ENDPOINT, publicBaseUrl: e.S3_PUBLIC_BASE_URL },
    },
    markets: {
      feeBps: e.DUEL_FEE_BPS,
      initialLiquidity: BigInt(e.DUEL_INITIAL_LIQUIDITY),
      publicLeadSeconds: e.DUEL_PUBLIC_LEAD_SECONDS,
      privateLeadSeconds: e.DUEL_PRIVATE_LEAD_SECONDS,
      contestPeriodSeconds: e.DUEL_CONTEST_PERIOD_SECONDS,
      bootstrapMinParticipants: e.DUEL_BOOTSTRAP_MIN_PARTICIPANTS,
      bootstrapMinVolume: BigInt(e.DUEL_BOOTSTRAP_MIN_VOLUME),
      resolutionGraceSeconds: e.DUEL_RESOLUTION_GRACE_SECONDS,
      quoteTtlSeconds: e.BET_QUOTE_TTL_SECONDS,
      userBetLimit: BigInt(e.USER_BET_LIMIT),
      indexerIntervalMs: e.INDEXER_INTERVAL_MS,
      listCacheMs: e.DUEL_LIST_CACHE_MS,
      snapshotIntervalMs: e.PRICE_SNAPSHOT_INTERVAL_MS,
      jobsEnabled: e.JOBS_ENABLED,
      publicBaseUrl: e.PUBLIC_BASE_URL,
    },
    sports: {
      provider: e.SPORTS_PROVIDER,
      token: e.SPORTMONKS_API_TOKEN,
      v3BaseUrl: e.SPORTMONKS_V3_BASE_URL,
      cricketV2BaseUrl: e.SPORTMONKS_CRICKET_V2_BASE_URL,
      timeoutMs: e.SPORTS_UPSTREAM_TIMEOUT_MS,
      cacheMaxBytes: e.SPORTS_CACHE_MAX_BYTES,
      proxyIpPerMin: e.SPORTS_PROXY_IP_LIMIT_PER_MIN,
      helpersIpPerMin: e.SPORTS_HELPERS_IP_LIMIT_PER_MIN,
    },
  });
}
