import { toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPORTS_LIMITS } from './areas/sports/sports-limits.js';
import { ConfigError, loadConfig, withListeningPort } from './config.js';

describe('loadConfig', () => {
  it('starts on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.database.url).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.http.marketsPort).toBe(3000);
    expect(config.http.tournamentsPort).toBe(3001);
    expect(config.rateLimits).toEqual({ teamPerMin: 120, selfservePerMin: 300, tournamentsIpPerMin: 300 });
  });

  it('gives the sports proxies their documented limits, each one settable', () => {
    expect(loadConfig({}).sports.limits).toEqual(DEFAULT_SPORTS_LIMITS);
    const set = loadConfig({ SPORTS_PER_KEY_CONCURRENCY: '3', SPORTS_BREAKER_OPEN_MS: '5000' }).sports.limits;
    expect(set).toEqual({ ...DEFAULT_SPORTS_LIMITS, perKeyConcurrency: 3, breakerOpenMs: 5000 });
    expect(() => loadConfig({ SPORTS_UPSTREAM_CONCURRENCY: '0' })).toThrow(/SPORTS_UPSTREAM_CONCURRENCY/);
  });

  it('batches chain reads by 100 calls unless CHAIN_RPC_BATCH_SIZE says otherwise (0: off, at most 1,000)', () => {
    expect(loadConfig({}).chain.rpcBatchSize).toBe(100);
    expect(loadConfig({ CHAIN_RPC_BATCH_SIZE: '0' }).chain.rpcBatchSize).toBe(0);
    expect(() => loadConfig({ CHAIN_RPC_BATCH_SIZE: '1001' })).toThrow(/CHAIN_RPC_BATCH_SIZE/);
    expect(() => loadConfig({ CHAIN_RPC_BATCH_SIZE: '-1' })).toThrow(/CHAIN_RPC_BATCH_SIZE/);
  });

  it('lists every bad key in one message', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'not a url', LOG_LEVEL: 'loud', GEO_BLOCKED_COUNTRIES: 'US' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT/);
    expect(problems).toMatch(/DATABASE_URL/);
    expect(problems).toMatch(/LOG_LEVEL/);
  });

  it('treats empty strings as unset and parses lists', () => {
    const config = loadConfig({ DATABASE_URL: '', GEO_BLOCKED_COUNTRIES: 'us, fr', TRUST_PROXY: '1' });
    expect(config.database.url).toBeUndefined();
    expect(config.geo.blockedCountries).toEqual(['US', 'FR']);
    expect(config.http.trustProxy).toBe(1);
  });

  it('refuses one port for both hosts and non-ISO country codes', () => {
    expect(() => loadConfig({ PORT: '4000', TOURNAMENTS_PORT: '4000' })).toThrow(/TOURNAMENTS_PORT/);
    expect(() => loadConfig({ GEO_BLOCKED_COUNTRIES: 'USA' })).toThrow(/GEO_BLOCKED_COUNTRIES/);
  });
});

const PRODUCTION = {
  DUELKIT_ENV: 'production',
  DATABASE_URL: 'postgres://duelkit@db.internal:5432/duelkit',
  REDIS_URL: 'redis://cache.internal:6379',
  CHAIN_RPC_URL: 'https://rpc.example.org',
  CHAIN_CONTRACTS: JSON.stringify({
    credits: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    usdc: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    markets: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    creditsVault: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
    usdcVault: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
  }),
  CHAIN_OPERATOR_KEY: `0x${'7'.repeat(64)}`,
  JWT_SECRET: 'a'.repeat(48),
  WALLET_MASTER_KEY: `0x${'5'.repeat(64)}`,
  SPORTS_PROVIDER: 'sportmonks',
  SPORTMONKS_API_TOKEN: 'provider-token',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('run modes', () => {
  it('starts embedded by default, with secrets generated for this instance and no constant among them', () => {
    const a = loadConfig({});
    const b = loadConfig({});
    expect(a.mode).toBe('embedded');
    expect(a.generatedSecrets).toEqual([
      'JWT_SECRET',
      'WALLET_MASTER_KEY',
      'CHAIN_OPERATOR_KEY',
      'TOURNAMENTS_SERVICE_TOKEN',
    ]);
    expect(a.tournamentsLink.serviceToken).not.toBe(b.tournamentsLink.serviceToken);
    expect(a.tournamentsLink.mode).toBe('in-process');
    expect(a.auth.jwtSecret).not.toBe(b.auth.jwtSecret);
    expect(a.auth.walletMasterKey.equals(b.auth.walletMasterKey)).toBe(false);
    expect(a.chain.operatorKey).not.toBe(b.chain.operatorKey);
    expect(a.auth.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses production with nothing configured, listing every missing piece at once', () => {
    const problems = problemsOf({ DUELKIT_ENV: 'production' }).join('\n');
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'CHAIN_RPC_URL',
      'CHAIN_OPERATOR_KEY',
      'JWT_SECRET',
      'WALLET_MASTER_KEY',
      'SPORTS_PROVIDER',
    ]) {
      expect(problems).toContain(`${name}:`);
    }
  });

  it.each(Object.keys(PRODUCTION).filter((k) => k !== 'DUELKIT_ENV' && k !== 'SPORTS_PROVIDER'))(
    'refuses production without %s',
    (name) => {
      const env: Record<string, string> = { ...PRODUCTION };
      delete env[name];
      expect(problemsOf(env).join('\n')).toContain(`${name}:`);
    },
  );

  it('lists in the same refusal what production needs once a chain node and sportmonks are required', () => {
    const problems = problemsOf({ DUELKIT_ENV: 'production' }).join('\n');
    expect(problems).toContain('CHAIN_CONTRACTS:');
    expect(problems).toContain('SPORTMONKS_API_TOKEN:');
  });

  it('lists format errors and the production checks together, each problem once', () => {
    const problems = problemsOf({ DUELKIT_ENV: 'production', JSON_BODY_LIMIT: 'huge', DATABASE_URL: 'not a url' });
    const text = problems.join('\n');
    expect(text).toContain('JSON_BODY_LIMIT:');
    for (const name of [
      'REDIS_URL',
      'CHAIN_RPC_URL',
      'CHAIN_CONTRACTS',
      'CHAIN_OPERATOR_KEY',
      'JWT_SECRET',
      'WALLET_MASTER_KEY',
      'SPORTS_PROVIDER',
      'SPORTMONKS_API_TOKEN',
    ]) {
      expect(text).toContain(`${name}:`);
    }
    // A value that does not parse is reported as such, not also as missing.
    expect(problems.filter((p) => p.startsWith('DATABASE_URL:'))).toHaveLength(1);
    expect(text).not.toContain('DATABASE_URL: required');
  });

  it('checks the run mode of a configuration with format errors without generating secrets for it', () => {
    const problems = problemsOf({ PORT: 'abc', CHAIN_RPC_URL: 'http://127.0.0.1:8545' }).join('\n');
    expect(problems).toContain('PORT:');
    expect(problems).toContain('CHAIN_OPERATOR_KEY:');
    expect(problems).toContain('CHAIN_CONTRACTS:');
  });

  it('refuses production on the fake sports provider, with a development key or a published operator key', () => {
    expect(problemsOf({ ...PRODUCTION, SPORTS_PROVIDER: 'fake' }).join('\n')).toContain('SPORTS_PROVIDER:');
    expect(problemsOf({ ...PRODUCTION, DUELKIT_DEV_BUILDER_KEY: 'dk_development_key' }).join('\n')).toContain(
      'DUELKIT_DEV_BUILDER_KEY:',
    );
    // Accounts of the default test mnemonic, published with every development chain.
    const hd = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 3 });
    const published = toHex(hd.getHdKey().privateKey as Uint8Array);
    expect(problemsOf({ ...PRODUCTION, CHAIN_OPERATOR_KEY: published }).join('\n')).toContain('CHAIN_OPERATOR_KEY:');
  });

  it('refuses production hosts run apart without the service credential, and a markets-only one without the tournaments URL', () => {
    expect(problemsOf(PRODUCTION)).toEqual([]);
    const tournamentsOnly = problemsOf({ ...PRODUCTION, SERVE_HOSTS: 'tournaments' }).join('\n');
    expect(tournamentsOnly).toContain('TOURNAMENTS_SERVICE_TOKEN:');
    expect(tournamentsOnly).not.toContain('TOURNAMENTS_INTERNAL_URL:');
    const marketsOnly = problemsOf({ ...PRODUCTION, SERVE_HOSTS: 'markets' }).join('\n');
    expect(marketsOnly).toContain('TOURNAMENTS_SERVICE_TOKEN:');
    expect(marketsOnly).toContain('TOURNAMENTS_INTERNAL_URL:');
    const link = loadConfig({
      ...PRODUCTION,
      SERVE_HOSTS: 'markets',
      TOURNAMENTS_SERVICE_TOKEN: 't'.repeat(40),
      TOURNAMENTS_INTERNAL_URL: 'http://tournaments.internal:3001',
    }).tournamentsLink;
    expect(link).toMatchObject({ mode: 'http', url: 'http://tournaments.internal:3001', serviceToken: 't'.repeat(40) });
  });

  it('starts production with everything configured, generating nothing', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.mode).toBe('production');
    expect(config.generatedSecrets).toEqual([]);
    expect(config.auth.jwtSecret).toBe(PRODUCTION.JWT_SECRET);
  });

  it('treats NODE_ENV=production as production, and refuses it combined with DUELKIT_ENV=embedded', () => {
    const { DUELKIT_ENV: _mode, ...rest } = PRODUCTION;
    expect(loadConfig({ ...rest, NODE_ENV: 'production' }).mode).toBe('production');
    expect(problemsOf({ NODE_ENV: 'production' }).join('\n')).toContain('DATABASE_URL:');
    expect(problemsOf({ ...rest, NODE_ENV: 'production', DUELKIT_ENV: 'embedded' }).join('\n')).toContain(
      'DUELKIT_ENV:',
    );
  });

  it('needs an operator key in embedded mode too once the chain is a real node', () => {
    const { CHAIN_RPC_URL, CHAIN_CONTRACTS } = PRODUCTION;
    expect(problemsOf({ CHAIN_RPC_URL, CHAIN_CONTRACTS }).join('\n')).toContain('CHAIN_OPERATOR_KEY:');
  });
});

describe('derived URLs', () => {
  it('follow PORT unless set', () => {
    const config = loadConfig({ PORT: '4100', TOURNAMENTS_PORT: '4101' });
    expect(config.storage.publicBaseUrl).toBe('http://localhost:4100');
    expect(config.markets.publicBaseUrl).toBe('http://localhost:4100');
    expect(config.auth.siweUri).toBe('http://localhost:4100');
    const set = loadConfig({ PORT: '4100', TOURNAMENTS_PORT: '4101', PUBLIC_BASE_URL: 'https://api.example.org' });
    expect(set.auth.siweUri).toBe('https://api.example.org');
  });

  it('follow the port the system chose when PORT=0, and leave set ones alone', () => {
    const derived = withListeningPort(loadConfig({ PORT: '0', TOURNAMENTS_PORT: '0' }), 43_210);
    expect(derived.storage.publicBaseUrl).toBe('http://localhost:43210');
    expect(derived.auth.siweUri).toBe('http://localhost:43210');
    const set = withListeningPort(
      loadConfig({ PORT: '0', TOURNAMENTS_PORT: '0', SIWE_URI: 'https://app.example.org' }),
      43_210,
    );
    expect(set.auth.siweUri).toBe('https://app.example.org');
    expect(set.storage.publicBaseUrl).toBe('http://localhost:43210');
  });
});

describe('background jobs backend', () => {
  const DB = 'postgres://postgres@127.0.0.1:5432/duelkit_main';
  const REDIS = 'redis://127.0.0.1:6379';

  it('keeps jobs in PostgreSQL on the embedded database and without Redis, in Redis once both servers are set', () => {
    expect(loadConfig({}).markets.jobsBackend).toEqual({ kind: 'postgres' });
    expect(loadConfig({ REDIS_URL: REDIS }).markets.jobsBackend).toEqual({ kind: 'postgres' });
    expect(loadConfig({ DATABASE_URL: DB }).markets.jobsBackend).toEqual({ kind: 'postgres' });
    expect(loadConfig({ DATABASE_URL: DB, REDIS_URL: REDIS }).markets.jobsBackend).toEqual({
      kind: 'redis',
      prefix: '{duelkit:duelkit_main}',
    });
  });

  it('follows JOBS_BACKEND and JOBS_REDIS_PREFIX when set', () => {
    const both = { DATABASE_URL: DB, REDIS_URL: REDIS };
    expect(loadConfig({ ...both, JOBS_BACKEND: 'postgres' }).markets.jobsBackend).toEqual({ kind: 'postgres' });
    expect(loadConfig({ ...both, JOBS_REDIS_PREFIX: '{jobs}' }).markets.jobsBackend).toEqual({
      kind: 'redis',
      prefix: '{jobs}',
    });
  });

  it('names the rate limits’ and caches’ Redis keys after the database unless REDIS_PREFIX is set', () => {
    expect(loadConfig({ DATABASE_URL: DB, REDIS_URL: REDIS }).redisPrefix).toBe('duelkit:duelkit_main');
    expect(loadConfig({ REDIS_URL: REDIS }).redisPrefix).toBe('duelkit:postgres');
    expect(loadConfig({ DATABASE_URL: DB, REDIS_URL: REDIS, REDIS_PREFIX: 'dk-prod' }).redisPrefix).toBe('dk-prod');
    expect(problemsOf({ ...PRODUCTION, REDIS_PREFIX: 'has space' }).join('\n')).toMatch(/REDIS_PREFIX/);
  });

  it('refuses JOBS_BACKEND=redis without Redis or a database server, and an unknown backend', () => {
    expect(problemsOf({ DATABASE_URL: DB, JOBS_BACKEND: 'redis' })).toEqual(['JOBS_BACKEND: redis requires REDIS_URL']);
    expect(problemsOf({ REDIS_URL: REDIS, JOBS_BACKEND: 'redis' })).toEqual([
      'JOBS_BACKEND: redis requires DATABASE_URL (the embedded database keeps its jobs beside it)',
    ]);
    expect(problemsOf({ JOBS_BACKEND: 'kafka' }).join('\n')).toMatch(/JOBS_BACKEND/);
    expect(problemsOf({ ...PRODUCTION, JOBS_REDIS_PREFIX: 'has space' }).join('\n')).toMatch(/JOBS_REDIS_PREFIX/);
  });
});
