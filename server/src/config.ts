import { resolve } from 'node:path';
import { z } from 'zod';
import type { ChainAddresses } from './adapters/chain/chain.port.js';
import { EnvSchema, type ParsedEnv } from './env.schema.js';
import { loadEmbeddedSecrets } from './platform/secrets/embedded-secrets.js';
import { productionProblems, runtimeDir } from './run-mode.js';
import type { SportsLimits } from './areas/sports/sports-limits.js';
import type { ParlaySettings } from './areas/parlay/parlay.types.js';
import { keccak256, toBytes, type Hex } from 'viem';

export type RunMode = 'embedded' | 'production';

export interface Config {
  /** DUELKIT_ENV (or NODE_ENV=production): see docs/deployment.md. */
  readonly mode: RunMode;
  /** Embedded mode: the secrets this instance generated instead of reading them (names of the variables). */
  readonly generatedSecrets: readonly string[];
  readonly http: {
    readonly host: string;
    readonly marketsPort: number;
    readonly tournamentsPort: number;
    readonly serve: 'both' | 'markets' | 'tournaments';
    readonly trustProxy: boolean | number | string[];
    readonly corsOrigins: '*' | string[];
    readonly jsonBodyLimit: string;
    readonly shutdownGraceMs: number;
    /** DUELKIT_ROUTE_LEDGER: where test runs record the contract routes served (unset: nothing recorded). */
    readonly routeLedgerDir: string | undefined;
    /** RESPONSE_VALIDATION: every answer checked against its schema, or only where the schema shapes it. */
    readonly responseValidation: 'all' | 'shaping';
  };
  readonly logLevel: ParsedEnv['LOG_LEVEL'];
  readonly database: {
    readonly url: string | undefined;
    readonly poolSize: number;
    readonly dataDir: string | undefined;
    readonly runMigrations: boolean;
  };
  readonly redisUrl: string | undefined;
  /** Prefix of the rate limits' and caches' Redis keys: one namespace per deployment. */
  readonly redisPrefix: string;
  readonly rateLimits: {
    readonly teamPerMin: number;
    readonly selfservePerMin: number;
    readonly tournamentsIpPerMin: number;
  };
  readonly builderKeys: { readonly devKey: string | undefined; readonly cacheMs: number };
  readonly operator: {
    /** Loopback port of the operator surface (0: any free port; null: none). */
    readonly port: number | null;
    /** Where its credential file goes: the data directory, or a per-user runtime directory. */
    readonly credentialDir: string;
  };
  /** Which URLs were derived from the listening port rather than set (see withListeningPort). */
  readonly derivedUrls: { readonly publicBaseUrl: boolean; readonly siweUri: boolean };
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
    readonly addresses: ChainAddresses | undefined;
    readonly confirmations: number;
    readonly embeddedRpcPort: number | null;
    /** Reads batched into one JSON-RPC request to `rpcUrl`, at most this many (0: no batching). */
    readonly rpcBatchSize: number;
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
    /** Where BullMQ keeps the jobs: the database, or Redis under `prefix`. */
    readonly jobsBackend: { readonly kind: 'postgres' } | { readonly kind: 'redis'; readonly prefix: string };
    readonly publicBaseUrl: string;
  };
  /** Money movement (docs/money.md). */
  readonly money: {
    /** Rolling 24 h withdrawal limit per user and collateral, base units. */
    readonly dailyLimit: { readonly credits: bigint; readonly usdc: bigint };
    /** The embedded bridge simulator (production has no bridge adapter: usdc withdrawals are refused). */
    readonly bridgeSimulator: { readonly delayMs: number; readonly failTo: readonly string[] };
    /** Secrets that verify the bridge deposit webhook (empty: the webhook is refused), and its replay window. */
    readonly bridgeWebhook: { readonly secrets: readonly string[]; readonly toleranceSeconds: number };
    /** Presigned uploads: size limit (bytes) and URL lifetime (seconds). */
    readonly uploads: { readonly maxBytes: number; readonly ttlSeconds: number };
  };
  /** Operations (docs/operations.md): invites, push, the pre-match cycle, stream migration. */
  readonly operations: {
    readonly inviteOnly: boolean;
    readonly push: {
      readonly providers: readonly ('expo' | 'webpush')[];
      readonly expo: { readonly url: string; readonly accessToken: string | undefined };
      readonly webpush: {
        readonly publicKey: string | undefined;
        readonly privateKey: string | undefined;
        readonly subject: string;
      };
    };
    readonly prematch: { readonly windowMinutes: number; readonly intervalMs: number };
    readonly migrationDir: string | undefined;
  };
  /** The external prediction market (docs/external-markets.md); `upstream` undefined = the local exchange. */
  readonly extMarket: {
    readonly upstream:
      | {
          readonly clobUrl: string;
          readonly gammaUrl: string;
          readonly dataUrl: string;
          readonly relayerUrl: string;
          readonly bridgeUrl: string;
          readonly rpcUrl: string;
          readonly sportsWsUrl: string;
          readonly builder: { readonly key: string; readonly secret: string; readonly passphrase: string };
        }
      | undefined;
    readonly timeoutMs: number;
    readonly breakerThreshold: number;
    readonly breakerCooldownMs: number;
    /** How often the canonical sync job runs (docs/external-markets.md, "Canonical sync"). */
    readonly syncIntervalMs: number;
  };
  readonly packs: {
    readonly feeBps: number;
    readonly treasury: `0x${string}` | undefined;
    readonly tickMs: number;
  };
  readonly tournaments: {
    readonly bondAmount: bigint;
    readonly bondAsset: 'credits' | 'usdc';
    readonly chipsPerStage: number;
    readonly maxEntrants: number;
    readonly groupSize: number;
    readonly advancePerGroup: number;
    readonly fixturesPerStage: number;
    readonly leagueId: number;
    readonly feeBps: number;
    readonly payoutBps: readonly number[];
    readonly stageHours: number;
    readonly startLeadMinutes: number;
    readonly fixtureExpiryHours: number;
    readonly resultsIntervalMs: number;
    readonly disputeWindowHours: number;
    readonly finalDisputeWindowHours: number;
    readonly disputeResolveHours: number;
    readonly automationIntervalMs: number;
    readonly treasury: `0x${string}` | undefined;
    readonly timeoutsIntervalMs: number;
  };
  /** Parlays and the liquidity pool: catalogue, pricing, quotes and risk limits (docs/parlays.md). */
  readonly parlay: ParlaySettings;
  /** How the markets host reaches the tournaments host for the parlay-tournaments admin. */
  readonly tournamentsLink: {
    /** in-process when this process serves the tournaments host too; http otherwise. */
    readonly mode: 'in-process' | 'http';
    readonly url: string;
    readonly serviceToken: string;
    readonly timeoutMs: number;
    readonly breakerCooldownMs: number;
  };
  readonly sports: {
    readonly provider: 'fake' | 'sportmonks';
    readonly token: string | undefined;
    readonly v3BaseUrl: string;
    readonly cricketV2BaseUrl: string;
    readonly timeoutMs: number;
    readonly cacheMaxBytes: number;
    readonly limits: SportsLimits;
    readonly proxyIpPerMin: number;
    readonly helpersIpPerMin: number;
  };
  readonly racing: {
    readonly sportmonksLeagueId: number;
    readonly sweepIntervalMs: number;
  };
}

/** One message listing every bad key, so a misconfigured deployment is fixed in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const AddressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const ContractsSchema = z
  .object({
    credits: AddressString,
    usdc: AddressString,
    markets: AddressString,
    creditsVault: AddressString,
    usdcVault: AddressString,
  })
  .strict();

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

/**
 * Parses the environment. A value that does not parse is reported and left out, so every other
 * check (the run mode's included) still runs on the rest: the start-up refusal lists every
 * problem at once instead of one round per kind.
 */
function parseEnv(cleaned: Record<string, string | undefined>): {
  env: ParsedEnv;
  formatErrors: string[];
  invalidKeys: ReadonlySet<string>;
} {
  const formatErrors: string[] = [];
  const invalidKeys = new Set<string>();
  const rest = { ...cleaned };
  for (;;) {
    const parsed = EnvSchema.safeParse(rest);
    if (parsed.success) return { env: parsed.data, formatErrors, invalidKeys };
    let removed = false;
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if (typeof key === 'string' && invalidKeys.has(key)) continue;
      formatErrors.push(`${issue.path.join('.') || '(env)'}: ${issue.message}`);
      if (typeof key === 'string' && key in rest) {
        invalidKeys.add(key);
        delete rest[key];
        removed = true;
      }
    }
    // An issue not tied to a key that can be left out: nothing more can be checked.
    if (!removed) throw new ConfigError(formatErrors);
  }
}

/** Reads and validates the environment. Empty strings count as unset. */
/** Where a server started by hand keeps its embedded data unless told otherwise: `.data` here. */
export const DEFAULT_DATA_DIR = '.data';

/**
 * The environment of a process started by hand (`pnpm start`, `pnpm dev`, the operator
 * commands): with no DATABASE_URL and no DUELKIT_DATA_DIR, the embedded data lives in `.data` in
 * the working directory, so builder keys, users and markets survive a restart. `:memory:` opts
 * out; a configured database needs no data directory.
 */
export function withDefaultDataDir(env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (env['DATABASE_URL'] || env['DUELKIT_DATA_DIR']) return env;
  return { ...env, DUELKIT_DATA_DIR: resolve(DEFAULT_DATA_DIR) };
}

/**
 * Redis once the deployment has one beside a database server (jobs then leave PostgreSQL's write
 * path); the embedded database keeps its jobs, and so does JOBS_BACKEND=postgres. The default
 * prefix names the database, so two deployments sharing one Redis never take each other's jobs;
 * its braces keep every key in one Redis Cluster slot, as BullMQ requires there.
 */
function jobsBackend(e: ParsedEnv): Config['markets']['jobsBackend'] {
  const redis = e.JOBS_BACKEND === 'redis' || (e.JOBS_BACKEND === 'auto' && Boolean(e.REDIS_URL && e.DATABASE_URL));
  if (!redis) return { kind: 'postgres' };
  return { kind: 'redis', prefix: e.JOBS_REDIS_PREFIX ?? `{duelkit:${databaseName(e)}}` };
}

/** The database's name, which names the deployment's keys on a shared Redis (`postgres` when embedded). */
function databaseName(e: ParsedEnv): string {
  const database = e.DATABASE_URL ? decodeURIComponent(new URL(e.DATABASE_URL).pathname.slice(1)) : '';
  return database || 'postgres';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const { env: e, formatErrors, invalidKeys } = parseEnv(cleaned);
  const problems: string[] = [];
  const badCountries = e.GEO_BLOCKED_COUNTRIES.filter((c) => !/^[A-Za-z]{2}$/.test(c));
  if (badCountries.length) problems.push(`GEO_BLOCKED_COUNTRIES: not ISO alpha-2: ${badCountries.join(', ')}`);
  if (e.SERVE_HOSTS === 'both' && e.PORT !== 0 && e.PORT === e.TOURNAMENTS_PORT) {
    problems.push('TOURNAMENTS_PORT: must differ from PORT when both hosts run in one process');
  }
  const mode: RunMode = e.DUELKIT_ENV === 'production' || e.NODE_ENV === 'production' ? 'production' : 'embedded';
  if (e.DUELKIT_ENV === 'embedded' && e.NODE_ENV === 'production') {
    problems.push('DUELKIT_ENV: embedded contradicts NODE_ENV=production; unset one of them');
  }
  if (mode === 'production') problems.push(...productionProblems(e));
  if (mode === 'embedded' && e.CHAIN_RPC_URL && !e.CHAIN_OPERATOR_KEY) {
    problems.push('CHAIN_OPERATOR_KEY: required when CHAIN_RPC_URL is set (the operator pays for chain writes)');
  }
  // Embedded mode generates what is missing, never falls back to a constant (see embedded-secrets.ts).
  const missing = {
    JWT_SECRET: !e.JWT_SECRET,
    WALLET_MASTER_KEY: !e.WALLET_MASTER_KEY,
    CHAIN_OPERATOR_KEY: !e.CHAIN_OPERATOR_KEY,
    TOURNAMENTS_SERVICE_TOKEN: !e.TOURNAMENTS_SERVICE_TOKEN,
  };
  // Nothing is generated (or written to the data directory) for a configuration that is refused anyway.
  const generated =
    mode === 'embedded' && formatErrors.length === 0 && Object.values(missing).some(Boolean)
      ? loadEmbeddedSecrets(e.DUELKIT_DATA_DIR)
      : null;
  const jwtSecret = e.JWT_SECRET ?? generated?.jwtSecret ?? '';
  const masterKey = parseKey(e.WALLET_MASTER_KEY ?? generated?.walletMasterKey ?? '');
  if (e.WALLET_MASTER_KEY && !masterKey)
    problems.push('WALLET_MASTER_KEY: must be 32 bytes as base64 or 0x-prefixed hex');
  const operatorKey = (e.CHAIN_OPERATOR_KEY ?? generated?.operatorKey ?? '') as `0x${string}`;
  const issuers = IssuersSchema.safeParse(safeJson(e.IDP_ISSUERS));
  if (!issuers.success) problems.push('IDP_ISSUERS: must be a JSON list of {"issuer","jwksUri","audience"}');
  const contracts = e.CHAIN_CONTRACTS ? ContractsSchema.safeParse(safeJson(e.CHAIN_CONTRACTS)) : undefined;
  if (contracts && !contracts.success)
    problems.push('CHAIN_CONTRACTS: must be JSON {"credits","usdc","markets","creditsVault","usdcVault"} of addresses');
  // Production requires a chain node and sportmonks (productionProblems), and so what they need too.
  if (!e.CHAIN_CONTRACTS && (e.CHAIN_RPC_URL || mode === 'production')) {
    problems.push('CHAIN_CONTRACTS: required when CHAIN_RPC_URL is set (production requires both)');
  }
  if (e.JOBS_BACKEND === 'redis' && !e.REDIS_URL) problems.push('JOBS_BACKEND: redis requires REDIS_URL');
  if (e.JOBS_BACKEND === 'redis' && !e.DATABASE_URL) {
    problems.push('JOBS_BACKEND: redis requires DATABASE_URL (the embedded database keeps its jobs beside it)');
  }
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE_DRIVER=s3');
  if (!e.SPORTMONKS_API_TOKEN && (e.SPORTS_PROVIDER === 'sportmonks' || mode === 'production')) {
    problems.push('SPORTMONKS_API_TOKEN: required when SPORTS_PROVIDER=sportmonks (production requires sportmonks)');
  }
  const payoutBps = e.TOURNAMENT_PAYOUT_BPS.map(Number);
  if (payoutBps.some((n) => !Number.isInteger(n) || n < 0) || payoutBps.reduce((a, b) => a + b, 0) !== 10_000) {
    problems.push('TOURNAMENT_PAYOUT_BPS: whole basis points summing to 10000, e.g. 6000,2500,1500');
  }
  // A key with a format error was checked without its value: say only what is wrong with the value.
  const checks = problems.filter((p) => !invalidKeys.has(p.slice(0, p.indexOf(':'))));
  if (formatErrors.length || checks.length) throw new ConfigError([...formatErrors, ...checks]);
  const publicBaseUrl = e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`;
  return Object.freeze({
    mode,
    generatedSecrets: generated ? Object.entries(missing).flatMap(([name, was]) => (was ? [name] : [])) : [],
    http: {
      host: e.HOST,
      marketsPort: e.PORT,
      tournamentsPort: e.TOURNAMENTS_PORT,
      serve: e.SERVE_HOSTS,
      trustProxy: parseTrustProxy(e.TRUST_PROXY),
      corsOrigins: e.CORS_ORIGINS === '*' ? ('*' as const) : e.CORS_ORIGINS.split(',').map((s) => s.trim()),
      jsonBodyLimit: e.JSON_BODY_LIMIT,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
      routeLedgerDir: e.DUELKIT_ROUTE_LEDGER,
      responseValidation: e.RESPONSE_VALIDATION ?? (mode === 'production' ? 'shaping' : 'all'),
    },
    logLevel: e.LOG_LEVEL,
    database: {
      url: e.DATABASE_URL,
      poolSize: e.DATABASE_POOL_SIZE,
      dataDir: e.DUELKIT_DATA_DIR,
      runMigrations: e.RUN_MIGRATIONS,
    },
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX ?? `duelkit:${databaseName(e)}`,
    rateLimits: {
      teamPerMin: e.RATE_LIMIT_TEAM_PER_MIN,
      selfservePerMin: e.RATE_LIMIT_SELFSERVE_PER_MIN,
      tournamentsIpPerMin: e.TOURNAMENTS_IP_LIMIT_PER_MIN,
    },
    builderKeys: { devKey: e.DUELKIT_DEV_BUILDER_KEY, cacheMs: e.BUILDER_KEY_CACHE_MS },
    operator: {
      port: e.OPERATOR_PORT === 'off' ? null : e.OPERATOR_PORT,
      credentialDir: e.DUELKIT_DATA_DIR ?? runtimeDir(e),
    },
    derivedUrls: { publicBaseUrl: !e.PUBLIC_BASE_URL, siweUri: !e.SIWE_URI },
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
      jwtSecret,
      previousJwtSecrets: e.JWT_PREVIOUS_SECRETS,
      userTokenTtlSeconds: e.USER_TOKEN_TTL_HOURS * 3600,
      adminTokenTtlSeconds: e.ADMIN_TOKEN_TTL_HOURS * 3600,
      siweDomain: e.SIWE_DOMAIN,
      siweUri: e.SIWE_URI ?? publicBaseUrl,
      nonceTtlSeconds: e.SIWE_NONCE_TTL_SECONDS,
      chainId: e.CHAIN_ID,
      walletMasterKey: masterKey as Buffer,
      idpIssuers: issuers.success ? issuers.data : [],
    },
    chain: {
      rpcUrl: e.CHAIN_RPC_URL,
      chainId: e.CHAIN_ID,
      operatorKey,
      addresses: contracts?.success ? (contracts.data as ChainAddresses) : undefined,
      confirmations: e.CHAIN_CONFIRMATIONS,
      embeddedRpcPort: e.CHAIN_EMBEDDED_RPC_PORT === 'off' ? null : e.CHAIN_EMBEDDED_RPC_PORT,
      rpcBatchSize: e.CHAIN_RPC_BATCH_SIZE,
      broadcastTimeoutMs: e.CHAIN_BROADCAST_TIMEOUT_MS,
      reconcileIntervalMs: e.CHAIN_RECONCILE_INTERVAL_MS,
      rebroadcastAfterMs: e.CHAIN_REBROADCAST_AFTER_MS,
      gasFloor: BigInt(e.CHAIN_GAS_FLOOR_WEI),
      gasTopUp: BigInt(e.CHAIN_GAS_TOP_UP_WEI),
    },
    storage: {
      driver: e.STORAGE_DRIVER,
      localDir: e.STORAGE_LOCAL_DIR,
      publicBaseUrl,
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
      jobsBackend: jobsBackend(e),
      publicBaseUrl,
    },
    money: {
      dailyLimit: { credits: BigInt(e.WITHDRAW_DAILY_LIMIT_CREDITS), usdc: BigInt(e.WITHDRAW_DAILY_LIMIT_USDC) },
      bridgeSimulator: { delayMs: e.BRIDGE_SIM_DELAY_MS, failTo: e.BRIDGE_SIM_FAIL_ADDRESSES },
      bridgeWebhook: { secrets: e.BRIDGE_WEBHOOK_SECRET, toleranceSeconds: e.BRIDGE_WEBHOOK_TOLERANCE_SECONDS },
      uploads: { maxBytes: e.UPLOAD_MAX_BYTES, ttlSeconds: e.UPLOAD_URL_TTL_SECONDS },
    },
    operations: {
      inviteOnly: e.PLATFORM_INVITE_ONLY,
      push: {
        providers: e.PUSH_PROVIDERS,
        expo: { url: e.EXPO_PUSH_URL, accessToken: e.EXPO_ACCESS_TOKEN },
        webpush: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT },
      },
      prematch: { windowMinutes: e.PREMATCH_WINDOW_MINUTES, intervalMs: e.PREMATCH_INTERVAL_MS },
      migrationDir: e.STREAM_MIGRATION_DIR,
    },
    extMarket: {
      upstream: e.EXTMARKET_CLOB_URL
        ? {
            clobUrl: e.EXTMARKET_CLOB_URL,
            gammaUrl: e.EXTMARKET_GAMMA_URL,
            dataUrl: e.EXTMARKET_DATA_URL,
            relayerUrl: e.EXTMARKET_RELAYER_URL,
            bridgeUrl: e.EXTMARKET_BRIDGE_URL,
            rpcUrl: e.EXTMARKET_POLYGON_RPC_URL,
            sportsWsUrl: e.EXTMARKET_SPORTS_WS_URL,
            builder: {
              key: e.EXTMARKET_BUILDER_API_KEY ?? '',
              secret: e.EXTMARKET_BUILDER_SECRET ?? '',
              passphrase: e.EXTMARKET_BUILDER_PASSPHRASE ?? '',
            },
          }
        : undefined,
      timeoutMs: e.EXTMARKET_TIMEOUT_MS,
      breakerThreshold: e.EXTMARKET_BREAKER_THRESHOLD,
      breakerCooldownMs: e.EXTMARKET_BREAKER_COOLDOWN_MS,
      syncIntervalMs: e.EXTMARKET_SYNC_INTERVAL_MS,
    },
    packs: {
      feeBps: e.PACK_FEE_BPS,
      treasury: e.PACK_TREASURY_ADDRESS as `0x${string}` | undefined,
      tickMs: e.PACK_TICK_INTERVAL_MS,
    },
    tournaments: {
      bondAmount: BigInt(e.TOURNAMENT_BOND_AMOUNT),
      bondAsset: e.TOURNAMENT_BOND_ASSET,
      chipsPerStage: e.TOURNAMENT_CHIPS_PER_STAGE,
      maxEntrants: e.TOURNAMENT_MAX_ENTRANTS,
      groupSize: e.TOURNAMENT_GROUP_SIZE,
      advancePerGroup: e.TOURNAMENT_ADVANCE_PER_GROUP,
      fixturesPerStage: e.TOURNAMENT_FIXTURES_PER_STAGE,
      leagueId: e.TOURNAMENT_LEAGUE_ID,
      feeBps: e.TOURNAMENT_FEE_BPS,
      payoutBps,
      stageHours: e.TOURNAMENT_STAGE_HOURS,
      startLeadMinutes: e.TOURNAMENT_START_LEAD_MINUTES,
      fixtureExpiryHours: e.TOURNAMENT_FIXTURE_EXPIRY_HOURS,
      resultsIntervalMs: e.TOURNAMENT_RESULTS_INTERVAL_MS,
      disputeWindowHours: e.TOURNAMENT_DISPUTE_WINDOW_HOURS,
      finalDisputeWindowHours: e.TOURNAMENT_FINAL_DISPUTE_WINDOW_HOURS,
      disputeResolveHours: e.TOURNAMENT_DISPUTE_RESOLVE_HOURS,
      automationIntervalMs: e.TOURNAMENT_AUTOMATION_INTERVAL_MS,
      treasury: e.TOURNAMENT_TREASURY_ADDRESS as `0x${string}` | undefined,
      timeoutsIntervalMs: e.TOURNAMENT_TIMEOUTS_INTERVAL_MS,
    },
    parlay: {
      leagues: e.PARLAY_LEAGUES.map(Number),
      windowHours: e.PARLAY_WINDOW_HOURS,
      minLeadSeconds: e.PARLAY_MIN_LEAD_SECONDS,
      marginBps: e.PARLAY_MARGIN_BPS,
      feeBps: e.PARLAY_FEE_BPS,
      quoteTtlSeconds: e.PARLAY_QUOTE_TTL_SECONDS,
      maxDriftBps: e.PARLAY_MAX_DRIFT_BPS,
      signerKey: (e.PARLAY_QUOTE_SIGNER_KEY ?? keccak256(toBytes(`duelkit parlay quote signer:${jwtSecret}`))) as Hex,
      bookAddress: e.PARLAY_BOOK_ADDRESS as Hex | undefined,
      minStake: BigInt(e.PARLAY_MIN_STAKE),
      minLegs: 2,
      maxLegs: e.PARLAY_MAX_LEGS,
      maxSameGameLegs: e.PARLAY_MAX_SAME_GAME_LEGS,
      maxOddsX100: e.PARLAY_MAX_ODDS_X100,
      maxPayout: BigInt(e.PARLAY_MAX_PAYOUT),
      capPerOutcome: BigInt(e.PARLAY_CAP_PER_OUTCOME),
      capPerGame: BigInt(e.PARLAY_CAP_PER_GAME),
      poolPayoutShareBps: e.PARLAY_POOL_PAYOUT_SHARE_BPS,
      lpLockupSeconds: e.LP_LOCKUP_SECONDS,
    },
    tournamentsLink: {
      mode: e.SERVE_HOSTS === 'markets' ? ('http' as const) : ('in-process' as const),
      url: e.TOURNAMENTS_INTERNAL_URL ?? `http://127.0.0.1:${e.TOURNAMENTS_PORT}`,
      serviceToken: e.TOURNAMENTS_SERVICE_TOKEN ?? generated?.serviceToken ?? '',
      timeoutMs: e.TOURNAMENTS_ADMIN_TIMEOUT_MS,
      breakerCooldownMs: e.TOURNAMENTS_ADMIN_BREAKER_COOLDOWN_MS,
    },
    racing: {
      sportmonksLeagueId: e.RACING_SPORTMONKS_LEAGUE_ID,
      sweepIntervalMs: e.RACING_SWEEP_INTERVAL_MS,
    },
    sports: {
      provider: e.SPORTS_PROVIDER,
      token: e.SPORTMONKS_API_TOKEN,
      v3BaseUrl: e.SPORTMONKS_V3_BASE_URL,
      cricketV2BaseUrl: e.SPORTMONKS_CRICKET_V2_BASE_URL,
      timeoutMs: e.SPORTS_UPSTREAM_TIMEOUT_MS,
      cacheMaxBytes: e.SPORTS_CACHE_MAX_BYTES,
      limits: {
        perKeyConcurrency: e.SPORTS_PER_KEY_CONCURRENCY,
        upstreamConcurrency: e.SPORTS_UPSTREAM_CONCURRENCY,
        upstreamQueue: e.SPORTS_UPSTREAM_QUEUE,
        breakerThreshold: e.SPORTS_BREAKER_THRESHOLD,
        breakerWindowMs: e.SPORTS_BREAKER_WINDOW_MS,
        breakerOpenMs: e.SPORTS_BREAKER_OPEN_MS,
        lockTtlMs: e.SPORTS_LOCK_TTL_MS,
        lockPollMs: e.SPORTS_LOCK_POLL_MS,
      },
      proxyIpPerMin: e.SPORTS_PROXY_IP_LIMIT_PER_MIN,
      helpersIpPerMin: e.SPORTS_HELPERS_IP_LIMIT_PER_MIN,
    },
  });
}

/**
 * The configuration with the URLs that were not set following the port the markets host really
 * listens on (it differs from PORT when PORT=0 lets the system choose).
 */
export function withListeningPort(config: Config, marketsPort: number): Config {
  if (marketsPort === config.http.marketsPort || !(config.derivedUrls.publicBaseUrl || config.derivedUrls.siweUri)) {
    return config;
  }
  const base = config.derivedUrls.publicBaseUrl ? `http://localhost:${marketsPort}` : config.storage.publicBaseUrl;
  return Object.freeze({
    ...config,
    auth: { ...config.auth, siweUri: config.derivedUrls.siweUri ? base : config.auth.siweUri },
    storage: { ...config.storage, publicBaseUrl: base },
    markets: { ...config.markets, publicBaseUrl: base },
  });
}
