import { z } from 'zod';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { ApiErrorSchema } from '../common/errors.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function isJsonValue(value: unknown): value is Json {
  const t = typeof value;
  return value === null || t === 'string' || t === 'number' || t === 'boolean' || t === 'object';
}

/**
 * Any JSON value. The provider's payloads are passed through untouched, so their shape is the
 * provider's (see docs/sports-proxy.md); everything around them is typed. A shallow check: the
 * value always comes from JSON.parse, and a recursive schema would cost milliseconds per answer.
 */
export const JsonValueSchema = z
  .custom<Json>(isJsonValue, { message: 'must be a JSON value' })
  .describe('Upstream JSON, passed through unchanged (usually an object with `data`)');

/** Cache windows a caller can ask for (§4.18). */
export const SportsTtlSchema = z
  .enum(['live', 'ended', 'news', 'logo', 'default'])
  .describe(
    'Cache window: live 30 s/5 min, ended 60 s/24 h, news 5 min/1 h, logo 24 h/7 d, default 60 s/30 min (fresh/stale)',
  );
export type SportsTtl = z.infer<typeof SportsTtlSchema>;

const ParamValueSchema = z.union([z.string().max(2000), z.number(), z.boolean()]);

/** Most query parameters one proxy call may forward; upstream URLs have a length limit of their own. */
export const MAX_PROXY_PARAMS = 50;

/** Body of both proxy routes. */
export const SportsProxyRequestSchema = z
  .object({
    path: z
      .string()
      .min(1)
      .max(300)
      .describe('Upstream path, e.g. `football/fixtures/18535517`; word characters, `-` and `/` only'),
    params: z
      .record(z.string().min(1).max(100), ParamValueSchema)
      .refine((params) => Object.keys(params).length <= MAX_PROXY_PARAMS, {
        message: `at most ${MAX_PROXY_PARAMS} parameters`,
      })
      .optional()
      .describe(
        `Upstream query parameters (include, filters, page, …), at most ${MAX_PROXY_PARAMS} and 4,000 characters encoded; any token or auth-like key is removed`,
      ),
    ttl: SportsTtlSchema.optional(),
    method: z.string().max(10).optional().describe('Only GET (the default) is allowed'),
  })
  .strict();
export type SportsProxyRequest = z.infer<typeof SportsProxyRequestSchema>;

/** Where an answer came from. */
export const SportsMetaSchema = z
  .object({
    fromCache: z.boolean(),
    isStale: z.boolean().describe('True when served from cache past its fresh window while a refresh runs'),
    fetchedAt: z.number().int().describe('When the upstream answered, in milliseconds since the epoch'),
    cacheKey: z.string().describe('The normalised upstream request; never contains a token'),
    source: z
      .enum(['provider', 'fake'])
      .describe(
        '`provider`: the real sports-data provider; `fake`: the local simulator of an embedded instance (made-up data)',
      ),
  })
  .strict();

/** Every sports answer: the upstream JSON and cache metadata. */
export const SportsResponseSchema = z.object({ data: JsonValueSchema, _meta: SportsMetaSchema }).strict();
export type SportsResponse = z.infer<typeof SportsResponseSchema>;

const IdParam = z.string().regex(/^[1-9][0-9]{0,17}$/, 'must be a positive integer id');

/** §4.18 sports-data proxies (builder key only, no user token). */
export const sportsContract = c.router({
  proxy: {
    method: 'POST',
    path: '/svc/sports/proxy',
    body: SportsProxyRequestSchema,
    responses: { 200: SportsResponseSchema, 502: ApiErrorSchema, 504: ApiErrorSchema },
    summary: 'Proxy a GET to the v3 provider API (football, cricket, motorsport)',
    description:
      'Paths must start with football/, cricket/ or motorsport/. Answers are cached by ttl with stale-while-revalidate; identical in-flight requests are collapsed. 60 requests/min per client IP.',
    metadata: meta('Sports', '4.18', 'builder-only', { repeatable: true }),
  },
  cricketV2Proxy: {
    method: 'POST',
    path: '/svc/sports/cricket-v2/proxy',
    body: SportsProxyRequestSchema,
    responses: { 200: SportsResponseSchema, 502: ApiErrorSchema, 504: ApiErrorSchema },
    summary: 'Proxy a GET to the older cricket v2 provider API',
    description: 'Allowed path roots are listed in docs/sports-proxy.md. 60 requests/min per client IP.',
    metadata: meta('Sports', '4.18', 'builder-only', { repeatable: true }),
  },
  fixtureSnapshot: {
    method: 'GET',
    path: '/svc/sports/football/fixture/:fixtureId/snapshot',
    pathParams: z.object({ fixtureId: IdParam }),
    responses: { 200: SportsResponseSchema, 502: ApiErrorSchema, 504: ApiErrorSchema },
    summary: 'Cached aggregate of one football fixture: details, participants, scores, events, lineups and odds',
    metadata: meta('Sports', '4.18', 'builder-only'),
  },
  teamSquad: {
    method: 'GET',
    path: '/svc/sports/football/team/:teamId/squad',
    pathParams: z.object({ teamId: IdParam }),
    responses: { 200: SportsResponseSchema, 502: ApiErrorSchema, 504: ApiErrorSchema },
    summary: "A football team's current squad with players (cached)",
    metadata: meta('Sports', '4.18', 'builder-only'),
  },
  teamSeasonStats: {
    method: 'GET',
    path: '/svc/sports/football/team/:teamId/season-stats',
    pathParams: z.object({ teamId: IdParam }),
    query: z.object({ seasonId: IdParam.optional() }).strict(),
    responses: { 200: SportsResponseSchema, 502: ApiErrorSchema, 504: ApiErrorSchema },
    summary: "A football team's season statistics (cached)",
    metadata: meta('Sports', '4.18', 'builder-only'),
  },
});
