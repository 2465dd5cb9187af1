import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import {
  cacheKeyOf,
  effectiveTtl,
  isSecretParam,
  MAX_PROXY_QUERY_CHARS,
  sanitiseParams,
  validateMethod,
  validatePath,
} from './sports-request.js';

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof DomainError ? err.code : 'other';
  }
}

describe('validatePath', () => {
  it.each([
    ['football/fixtures/123', 'v3'],
    ['motorsport/drivers/standings', 'v3'],
    ['cricket/fixtures', 'v3'],
    ['fixtures/123', 'cricket-v2'],
    ['teams/5/squad/7', 'cricket-v2'],
  ] as const)('accepts %s on %s', (path, api) => {
    expect(validatePath(api, path)).toBe(path);
  });

  it.each([
    ['football/../admin', 'traversal'],
    ['football/%2e%2e/x', 'percent-encoding'],
    ['/football/fixtures', 'leading slash'],
    ['football//fixtures', 'empty segment'],
    ['football/fixtures/', 'trailing empty segment'],
    ['basketball/games', 'wrong root'],
    ['football', 'root alone'],
    ['football/fix tures', 'space'],
    ['football/fixtures?x=1', 'query in path'],
    ['football/fixtures.json', 'dot'],
    ['football/./fixtures', 'dot segment'],
    ['football/fixtures%2F1', 'encoded slash'],
    ['football\\..\\admin', 'backslashes'],
    ['football/fïxtures', 'non-ASCII letter'],
    ['football/fixtures\u0000', 'NUL'],
    ['FOOTBALL/fixtures', 'root in another case'],
    ['motorsport/', 'root with an empty segment'],
    ['', 'empty'],
    ['https://evil.example/football/x', 'absolute URL'],
  ])('refuses %s (%s) with INVALID_PROXY_PATH', (path) => {
    expect(codeOf(() => validatePath('v3', path))).toBe('INVALID_PROXY_PATH');
  });

  it('refuses v3 roots and unknown roots on the cricket v2 proxy', () => {
    expect(codeOf(() => validatePath('cricket-v2', 'football/fixtures'))).toBe('INVALID_PROXY_PATH');
    expect(codeOf(() => validatePath('cricket-v2', 'news/latest'))).toBe('INVALID_PROXY_PATH');
  });
});

describe('validateMethod', () => {
  it('allows GET (any case) and absence, refuses POST and others with METHOD_NOT_ALLOWED', () => {
    expect(codeOf(() => validateMethod(undefined))).toBeNull();
    expect(codeOf(() => validateMethod('get'))).toBeNull();
    expect(codeOf(() => validateMethod('POST'))).toBe('METHOD_NOT_ALLOWED');
    expect(codeOf(() => validateMethod('DELETE'))).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('sanitiseParams', () => {
  it('strips the provider token in any case and every auth-like key, and sorts the rest', () => {
    expect(
      sanitiseParams({
        API_TOKEN: 'x',
        Api_Token: 'y',
        include: 'participants',
        apikey: 'z',
        Authorization: 'b',
        page: 2,
        access_token: 't',
      }),
    ).toEqual([
      ['include', 'participants'],
      ['page', '2'],
    ]);
  });

  it('refuses more parameters, or a longer query string, than an upstream URL carries', () => {
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`p${i}`, i]));
    expect(codeOf(() => sanitiseParams(many))).toBe('VALIDATION_FAILED');
    const long = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`f${i}`, 'x'.repeat(1_500)]));
    expect(codeOf(() => sanitiseParams(long))).toBe('VALIDATION_FAILED');
    const fits = { filters: 'x'.repeat(MAX_PROXY_QUERY_CHARS - 20) };
    expect(sanitiseParams(fits)).toHaveLength(1);
  });
});

describe('isSecretParam', () => {
  it.each([
    'api_token',
    'API_TOKEN',
    'apiToken',
    'token',
    'access_token',
    'authToken',
    'Authorization',
    'auth',
    'apikey',
    'api_key',
    'X-Api-Key',
    'key',
    'secret',
    'clientSecret',
    'password',
    'bearer',
    'signature',
    'filter[api_token]',
  ])('treats %s as auth-like', (name) => {
    expect(isSecretParam(name)).toBe(true);
  });

  it.each(['include', 'filters', 'filter[starts_between]', 'fields[fixtures]', 'sort', 'page', 'per_page', 'cursor'])(
    'forwards %s',
    (name) => {
      expect(isSecretParam(name)).toBe(false);
    },
  );
});

describe('effectiveTtl', () => {
  it('honours live only on live paths', () => {
    expect(effectiveTtl('v3', 'football/livescores/inplay', 'live')).toBe('live');
    expect(effectiveTtl('v3', 'football/fixtures/latest', 'live')).toBe('live');
    expect(effectiveTtl('v3', 'motorsport/live/timing', 'live')).toBe('live');
    expect(effectiveTtl('v3', 'football/teams/deliverance', 'live')).toBe('default');
    expect(effectiveTtl('v3', 'motorsport/x/live/timing', 'live')).toBe('live');
    expect(effectiveTtl('v3', 'football/fixtures/1', 'live')).toBe('default');
    expect(effectiveTtl('cricket-v2', 'livescores', 'live')).toBe('live');
  });

  it('honours news only on v3 and defaults to default', () => {
    expect(effectiveTtl('v3', 'football/news/pre-match', 'news')).toBe('news');
    expect(effectiveTtl('cricket-v2', 'fixtures', 'news')).toBe('default');
    expect(effectiveTtl('v3', 'football/teams/1', undefined)).toBe('default');
  });
});

describe('cacheKeyOf', () => {
  it('is independent of parameter order and never contains a token', () => {
    const a = cacheKeyOf({
      api: 'v3',
      path: 'football/fixtures',
      params: sanitiseParams({ b: '2', a: '1', api_token: 's' }),
    });
    const b = cacheKeyOf({ api: 'v3', path: 'football/fixtures', params: sanitiseParams({ a: '1', b: '2' }) });
    expect(a).toBe(b);
    expect(a).not.toContain('api_token');
  });
});
