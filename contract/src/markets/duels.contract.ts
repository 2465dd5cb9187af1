import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  CanonicalQuerySchema,
  CanonicalResponseSchema,
  CreateDuelRequestSchema,
  CreateDuelResponseSchema,
  DuelDetailQuerySchema,
  DuelIdParamsSchema,
  DuelListQuerySchema,
  DuelLookupParamsSchema,
  DuelListResponseSchema,
  DuelSchema,
  LeagueParamsSchema,
  OgMetadataSchema,
  ParticipantsResponseSchema,
} from './duels.schemas.js';

const tag = 'Duels';

/** §4.7 markets ("duels"): creation on chain, lists, detail, participants, share cards. */
export const duelsContract = c.router({
  create: {
    method: 'POST',
    path: '/svc/user/duels/create',
    body: CreateDuelRequestSchema,
    responses: { 201: CreateDuelResponseSchema },
    summary: 'Create a market on chain, seeded by the creator’s managed wallet; accepted, not final',
    description:
      'Returns the on-chain duelId and the transaction hash at once; poll get-duel-by-id until `chainState` is `confirmed`. ' +
      'START_TIME_TOO_SOON carries the minimum start in `details.minStartTime`; INSUFFICIENT_CREDITS when the wallet cannot fund the liquidity.',
    metadata: meta(tag, '4.7', 'bearer', { idempotent: true, geo: { collateralFrom: 'body.collateralStack' } }),
  },
  canonical: {
    method: 'GET',
    path: '/svc/user/duels/canonical',
    query: CanonicalQuerySchema,
    responses: { 200: CanonicalResponseSchema },
    summary: 'Credits duels mirroring an external market, ranked by the paired 24 h volume',
    metadata: meta(tag, '4.7', 'public', { cacheable: true }),
  },
  byLeague: {
    method: 'GET',
    path: '/svc/user/duels/by-league/:leagueId',
    pathParams: LeagueParamsSchema,
    query: DuelListQuerySchema,
    responses: { 200: DuelListResponseSchema },
    summary: 'Duels of one league (`default`: every league). Legacy route kept for older clients',
    deprecated: true,
    metadata: meta(tag, '4.7', 'public', { cacheable: true, personalised: true }),
  },
  getAll: {
    method: 'GET',
    path: '/svc/user/duels/get-all-duels',
    query: DuelListQuerySchema,
    responses: { 200: DuelListResponseSchema },
    summary: 'Every public duel. Legacy route kept for older clients; prefer /svc/public/duels/all',
    deprecated: true,
    metadata: meta(tag, '4.7', 'public', { cacheable: true, personalised: true }),
  },
  getById: {
    method: 'GET',
    path: '/svc/user/duels/get-duel-by-id/:duelId',
    pathParams: DuelLookupParamsSchema,
    query: DuelDetailQuerySchema,
    responses: { 200: DuelSchema },
    summary: 'One duel by its on-chain duelId (the database id gives a 404 that says so)',
    metadata: meta(tag, '4.7', 'public', { personalised: true }),
  },
  participants: {
    method: 'GET',
    path: '/svc/user/duels/participants/:duelId',
    pathParams: DuelIdParamsSchema,
    responses: { 200: ParticipantsResponseSchema },
    summary: 'Positions and profit and loss of every participant',
    metadata: meta(tag, '4.7', 'bearer'),
  },
  publicAll: {
    method: 'GET',
    path: '/svc/public/duels/all',
    query: DuelListQuerySchema,
    responses: { 200: DuelListResponseSchema },
    summary: 'Public duel list (rate-limited)',
    metadata: meta(tag, '4.7', 'public', { cacheable: true, personalised: true }),
  },
  publicGetById: {
    method: 'GET',
    path: '/svc/public/duels/get-duel-by-id/:duelId',
    pathParams: DuelLookupParamsSchema,
    query: DuelDetailQuerySchema,
    responses: { 200: DuelSchema },
    summary: 'One duel by its on-chain duelId (rate-limited)',
    metadata: meta(tag, '4.7', 'public', { personalised: true }),
  },
  ogMetadata: {
    method: 'GET',
    path: '/svc/duels/og-metadata/:duelId',
    pathParams: DuelIdParamsSchema,
    responses: { 200: OgMetadataSchema },
    summary: 'Open Graph metadata for a share card of the market',
    metadata: meta(tag, '4.7', 'public'),
  },
});
