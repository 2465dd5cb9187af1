import { MAX_PROXY_PARAMS, type SportsProxyRequest, type SportsTtl } from '@duelkit/contract';
import { DomainError } from '../../errors.js';

/** Which upstream generation a request goes to. */
export type SportsApi = 'v3' | 'cricket-v2';

/** A validated, normalised upstream GET. */
export interface UpstreamRequest {
  readonly api: SportsApi;
  readonly path: string;
  /** Sorted, stringified, with every token-like key removed. */
  readonly params: ReadonlyArray<readonly [string, string]>;
}

/** Fresh and stale windows per ttl (§4.18), in milliseconds. */
export const TTL_WINDOWS: Record<SportsTtl, { freshMs: number; staleMs: number }> = {
  live: { freshMs: 30_000, staleMs: 5 * 60_000 },
  ended: { freshMs: 60_000, staleMs: 24 * 3_600_000 },
  news: { freshMs: 5 * 60_000, staleMs: 3_600_000 },
  logo: { freshMs: 24 * 3_600_000, staleMs: 7 * 24 * 3_600_000 },
  default: { freshMs: 60_000, staleMs: 30 * 60_000 },
};

const V3_ROOTS = ['football', 'cricket', 'motorsport'] as const;

/** Path roots of the cricket v2 API that the cricket-v2 proxy forwards. */
export const CRICKET_V2_ROOTS = [
  'fixtures',
  'livescores',
  'teams',
  'seasons',
  'squad',
  'leagues',
  'stages',
  'players',
  'venues',
  'standings',
  'team-rankings',
  'officials',
  'countries',
  'continents',
  'scores',
  'positions',
] as const;

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** Checks a proxy path: roots, characters, no traversal, encoding, leading slash or empty segment. */
export function validatePath(api: SportsApi, path: string): string {
  const fail = (reason: string): never => {
    throw new DomainError('INVALID_PROXY_PATH', `Invalid proxy path: ${reason}`, { details: { path, reason } });
  };
  if (path.startsWith('/')) fail('must not start with /');
  if (path.includes('%')) fail('percent-encoding is not allowed');
  if (path.includes('..')) fail('.. is not allowed');
  if (path.includes('//')) fail('empty path segments are not allowed');
  const segments = path.split('/');
  if (segments.some((s) => s === '')) fail('empty path segments are not allowed');
  if (!segments.every((s) => SEGMENT.test(s))) fail('only word characters, - and / are allowed');
  const root = segments[0] ?? '';
  if (api === 'v3') {
    if (!(V3_ROOTS as readonly string[]).includes(root) || segments.length < 2) {
      fail('must start with football/, cricket/ or motorsport/');
    }
  } else if (!(CRICKET_V2_ROOTS as readonly string[]).includes(root)) {
    fail(`cricket v2 paths must start with one of: ${CRICKET_V2_ROOTS.join(', ')}`);
  }
  return path;
}

/** Only GET is forwarded; anything else is refused with its own code (§7 "method rejected"). */
export function validateMethod(method: string | undefined): void {
  if (method !== undefined && method.toUpperCase() !== 'GET') {
    throw new DomainError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed: the proxy forwards GET only`, {
      details: { method, allowed: ['GET'] },
    });
  }
}

/**
 * Fragments that make a parameter name auth-like once lower-cased and stripped of separators
 * (`X-Api-Key`, `apiKey`, `filter[api_token]`, `clientSecret`, `authToken` all match).
 */
const SECRET_FRAGMENTS = [
  'token',
  'apikey',
  'secret',
  'password',
  'passwd',
  'authorization',
  'bearer',
  'credential',
  'signature',
];
const SECRET_ENDINGS = ['key', 'auth', 'sig'];

/** Whether a caller's parameter name could carry a credential; such parameters are never forwarded. */
export function isSecretParam(name: string): boolean {
  const flat = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_FRAGMENTS.some((f) => flat.includes(f)) || SECRET_ENDINGS.some((e) => flat.endsWith(e));
}

/**
 * Longest query string forwarded upstream, encoded. Providers (and the proxies in front of them)
 * refuse URLs of a few kilobytes; past this the caller gets a 400 instead of a 502.
 */
export const MAX_PROXY_QUERY_CHARS = 4_000;

function tooMany(message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', message, { fieldErrors: { 'body.params': [message] } });
}

/**
 * Drops the provider token and every auth-like key, and stringifies and sorts the rest; refuses
 * more parameters, or a longer query string, than an upstream URL can carry.
 */
export function sanitiseParams(params: SportsProxyRequest['params']): [string, string][] {
  if (!params) return [];
  const entries = Object.entries(params);
  if (entries.length > MAX_PROXY_PARAMS) throw tooMany(`at most ${MAX_PROXY_PARAMS} parameters`);
  const kept = entries
    .filter(([key]) => !isSecretParam(key))
    .map(([key, value]): [string, string] => [key, String(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const encoded = kept.reduce((n, [k, v]) => n + encodeURIComponent(k).length + encodeURIComponent(v).length + 2, 0);
  if (encoded > MAX_PROXY_QUERY_CHARS) throw tooMany(`at most ${MAX_PROXY_QUERY_CHARS} characters of query string`);
  return kept;
}

const LIVE_PATH = /(^|\/)(livescores|inplay)(\/|$)|(^|\/)fixtures\/latest(\/|$)|\/live\//;

/** The ttl actually used: `live` only on live paths, `news` only on v3; otherwise `default`. */
export function effectiveTtl(api: SportsApi, path: string, ttl: SportsTtl | undefined): SportsTtl {
  const asked = ttl ?? 'default';
  if (asked === 'live' && !LIVE_PATH.test(path)) return 'default';
  if (asked === 'news' && api !== 'v3') return 'default';
  return asked;
}

/** The cache key: the normalised upstream request, token never included. */
export function cacheKeyOf(req: UpstreamRequest): string {
  const query = req.params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `sports:${req.api}:${req.path}${query ? `?${query}` : ''}`;
}
