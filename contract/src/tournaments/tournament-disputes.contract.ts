import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { commonResponses } from '../common/responses.js';
import { PageQuerySchema, StageParamsSchema, TournamentParamsSchema } from './tournaments-io.schemas.js';
import {
  DisputeListSchema,
  DisputeWindowsSchema,
  DisputeableMarketsSchema,
  FileDisputeRequestSchema,
  FileDisputeResponseSchema,
  MarketDisputeWindowSchema,
  MarketParamsSchema,
  StageDisputeWindowSchema,
  StageMarketParamsSchema,
} from './tournaments-close.schemas.js';

const tag = 'Tournaments';
const base = '/api/tournaments/:tournamentId';
const read = meta(tag, '4.17', 'optional-bearer');
const write = meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true });

const fileRefusals =
  'Only an entrant (NOT_ENTERED, 403), only on a market with a result (MARKET_NOT_DISPUTEABLE, 409), only while its window is open ' +
  '(DISPUTE_WINDOW_CLOSED, 409, `details.closesAt`), once per entrant and market (ALREADY_DISPUTED, 409, `details.disputeId`). ' +
  '404 for a market that is not the tournament’s (or the stage’s).';

/** §4.17 disputes of market results and their windows (docs/tournaments.md, "Disputes"). */
export const tournamentDisputesContract = c.router(
  {
    disputeWindows: {
      method: 'GET',
      path: `${base}/dispute-windows`,
      pathParams: TournamentParamsSchema,
      responses: { 200: DisputeWindowsSchema },
      summary: 'Every stage’s and market’s dispute window, and the final window before payouts',
      description:
        'Public. Each window is PENDING (no result yet), OPEN or CLOSED (its end passed or its stage settled), with the defaults from the configuration. 404 for an unknown tournament.',
      metadata: read,
    },
    disputes: {
      method: 'GET',
      path: `${base}/disputes`,
      pathParams: TournamentParamsSchema,
      query: PageQuerySchema,
      responses: { 200: DisputeListSchema },
      summary: 'Disputes filed in the tournament, oldest first',
      description: 'Public, paged. 404 for an unknown tournament.',
      metadata: read,
    },
    marketDisputes: {
      method: 'GET',
      path: `${base}/markets/:marketId/disputes`,
      pathParams: MarketParamsSchema,
      query: PageQuerySchema,
      responses: { 200: DisputeListSchema },
      summary: 'Disputes of one market (fixture)',
      description: 'Public, paged. 404 for a market that is not the tournament’s.',
      metadata: read,
    },
    marketDisputeWindow: {
      method: 'GET',
      path: `${base}/markets/:marketId/dispute-window`,
      pathParams: MarketParamsSchema,
      responses: { 200: MarketDisputeWindowSchema },
      summary: 'One market’s dispute window and whether it can be disputed now',
      description:
        'Public. `disputeable` is true exactly when a dispute would be accepted now (a result in, the window open, the tournament not cancelled). 404 for a market that is not the tournament’s.',
      metadata: read,
    },
    fileMarketDispute: {
      method: 'POST',
      path: `${base}/markets/:marketId/dispute`,
      pathParams: MarketParamsSchema,
      body: FileDisputeRequestSchema,
      responses: { 201: FileDisputeResponseSchema },
      summary: 'Dispute a market’s recorded result (entrants, inside its window)',
      description: fileRefusals,
      metadata: write,
    },
    stageDisputes: {
      method: 'GET',
      path: `${base}/stages/:stageId/disputes`,
      pathParams: StageParamsSchema,
      query: PageQuerySchema,
      responses: { 200: DisputeListSchema },
      summary: 'Disputes of the markets of one stage',
      description: 'Public, paged. 404 for an unknown stage.',
      metadata: read,
    },
    disputeableMarkets: {
      method: 'GET',
      path: `${base}/stages/:stageId/disputeable-markets`,
      pathParams: StageParamsSchema,
      responses: { 200: DisputeableMarketsSchema },
      summary: 'The markets of a stage that can be disputed now (a result in, the window open)',
      description: 'Public: the markets an entrant may dispute right now. 404 for an unknown stage.',
      metadata: read,
    },
    stageDisputeWindow: {
      method: 'GET',
      path: `${base}/stages/:stageId/dispute-window`,
      pathParams: StageParamsSchema,
      responses: { 200: StageDisputeWindowSchema },
      summary: 'A stage’s dispute window: from its first result until its markets’ windows close',
      description: 'Public. An admin may have set its end (`overridden`). 404 for an unknown stage.',
      metadata: read,
    },
    fileStageMarketDispute: {
      method: 'POST',
      path: `${base}/stages/:stageId/markets/:marketId/dispute`,
      pathParams: StageMarketParamsSchema,
      body: FileDisputeRequestSchema,
      responses: { 201: FileDisputeResponseSchema },
      summary: 'Dispute a market’s recorded result, naming its stage',
      description: fileRefusals,
      metadata: write,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
