import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('starts on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.database.url).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.http.marketsPort).toBe(3000);
    expect(config.http.tournamentsPort).toBe(3001);
    expect(config.rateLimits).toEqual({ teamPerMin: 120, selfservePerMin: 300, tournamentsIpPerMin: 300 });
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
