import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { commonResponses } from '../common/responses.js';
import {
  DepositRequestSchema,
  DepositResponseSchema,
  EligibilitySchema,
  EnterRequestSchema,
  EnterResponseSchema,
  EstimatePayoutRequestSchema,
  EstimatePayoutResponseSchema,
  MyStatusSchema,
  PageQuerySchema,
  PickParamsSchema,
  PrizePoolSchema,
  StageParamsSchema,
  TournamentDetailSchema,
  TournamentParamsSchema,
  WalletQuerySchema,
  WithdrawResponseSchema,
} from './tournaments-io.schemas.js';
import {
  BracketSchema,
  BracketStatusSchema,
  CreatePickRequestSchema,
  CreatePickResponseSchema,
  DeletePickResponseSchema,
  FixturesResponseSchema,
  FormatInfoSchema,
  GroupsResponseSchema,
  LeaderboardResponseSchema,
  PicksQuerySchema,
  PicksResponseSchema,
  StageOddsSchema,
  StandingsResponseSchema,
} from './tournaments-play.schemas.js';
import { z } from 'zod';

const tag = 'Tournaments';
const base = '/api/tournaments/:tournamentId';
const read = meta(tag, '4.17', 'optional-bearer');
const write = meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true });
const stage = `${base}/stages/:stageId`;

/** §4.17 one tournament: detail, entry, play (stages, fixtures, picks), standings, bracket, prizes. */
export const tournamentsPlayContract = c.router(
  {
    get: {
      method: 'GET',
      path: base,
      pathParams: TournamentParamsSchema,
      responses: { 200: TournamentDetailSchema },
      summary: 'A tournament with its stages and their fixtures',
      metadata: read,
    },
    formatInfo: {
      method: 'GET',
      path: `${base}/format-info`,
      pathParams: TournamentParamsSchema,
      responses: { 200: FormatInfoSchema },
      summary: 'How this tournament is played: format, stages, chips, advancement, tie-breakers and payout table',
      metadata: read,
    },
    eligibility: {
      method: 'GET',
      path: `${base}/eligibility`,
      pathParams: TournamentParamsSchema,
      query: WalletQuerySchema,
      responses: { 200: EligibilitySchema },
      summary: 'Whether a wallet can enter now, with every reason it cannot',
      description:
        'The wallet is the bearer token’s managed wallet, or `wallet`. Reasons: WALLET_REQUIRED, NOT_LIVE, ENTRIES_CLOSED, ALREADY_ENTERED, TOURNAMENT_FULL, INSUFFICIENT_BALANCE, GEO_BLOCKED (usdc only).',
      metadata: meta(tag, '4.17', 'optional-bearer', { geo: { collateralFrom: 'market' } }),
    },
    deposit: {
      method: 'POST',
      path: `${base}/deposit`,
      pathParams: TournamentParamsSchema,
      body: DepositRequestSchema,
      responses: { 200: DepositResponseSchema },
      summary: 'What to deposit where for a stage buy-in; with execute: true, the deposit itself',
      description:
        'Answers the vault, token, pool, stage, amount and the approve + deposit calldata. For a paid create the tournament does not exist yet: name `stakeAsset` and `amount` (stage 1). ' +
        '`execute: true` sends the deposit from the bearer token’s managed wallet and answers its txHash (wallet credentials deposit themselves). ' +
        'Then POST /enter (or create) with the txHash. 404 for an unknown id without stakeAsset and amount; INVALID_STATE when nothing is due; GEO_BLOCKED for usdc.',
      metadata: meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true, geo: { collateralFrom: 'market' } }),
    },
    enter: {
      method: 'POST',
      path: `${base}/enter`,
      pathParams: TournamentParamsSchema,
      body: EnterRequestSchema,
      responses: { 200: EnterResponseSchema },
      summary: 'Enter with a verified vault deposit (or pay a later paid stage); idempotent per deposit',
      description:
        'The deposit is verified on chain: mined and successful, a Deposited event of this tournament’s vault, pool and stage, of the buy-in, from the caller’s wallet. Sending the same deposit again answers the same entry. ' +
        'DEPOSIT_MISMATCH, DEPOSIT_ALREADY_USED (400); DEPOSIT_PENDING (409, retry); ALREADY_ENTERED, TOURNAMENT_FULL, ENTRIES_CLOSED (409); NOT_ENTERED, FORBIDDEN (403); GEO_BLOCKED for usdc.',
      metadata: meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true, geo: { collateralFrom: 'market' } }),
    },
    withdraw: {
      method: 'POST',
      path: `${base}/withdraw`,
      pathParams: TournamentParamsSchema,
      body: z.object({}).strict().optional(),
      responses: { 200: WithdrawResponseSchema },
      summary: 'Leave before the first lock: the stage-1 buy-in is released back to your wallet',
      description: 'ENTRY_LOCKED (409) after the first lock and for the creator’s own entry; NOT_ENTERED (403).',
      metadata: write,
    },
    myStatus: {
      method: 'GET',
      path: `${base}/my-status`,
      pathParams: TournamentParamsSchema,
      query: WalletQuerySchema,
      responses: { 200: MyStatusSchema },
      summary: 'Your entry, stage, chips and elimination (`hasEntry` to poll after entering)',
      description:
        'The bearer token’s managed wallet, or `wallet` (a builder key alone may read any wallet’s status); ' +
        'VALIDATION_FAILED (400, `query.wallet`) with neither.',
      metadata: read,
    },
    estimatePayout: {
      method: 'POST',
      path: `${base}/estimate-payout`,
      pathParams: TournamentParamsSchema,
      body: EstimatePayoutRequestSchema,
      responses: { 200: EstimatePayoutResponseSchema },
      summary: 'Projected prize pool, payout table and the caller’s best and guaranteed amounts',
      metadata: meta(tag, '4.17', 'jwt-or-wallet', { repeatable: true }),
    },
    prizePool: {
      method: 'GET',
      path: `${base}/prize-pool`,
      pathParams: TournamentParamsSchema,
      responses: { 200: PrizePoolSchema },
      summary: 'The pool: deposits by stage, fee, distributable amount, payout table and the vault balance',
      metadata: read,
    },
    leaderboard: {
      method: 'GET',
      path: `${base}/leaderboard`,
      pathParams: TournamentParamsSchema,
      query: PageQuerySchema,
      responses: { 200: LeaderboardResponseSchema },
      summary: 'Every entrant by finishing place: champion, stage reached, stack there, seed',
      metadata: read,
    },
    bracket: {
      method: 'GET',
      path: `${base}/bracket`,
      pathParams: TournamentParamsSchema,
      responses: { 200: BracketSchema },
      summary: 'The knockout bracket, round by round (sides unknown until the stage before completes)',
      metadata: read,
    },
    bracketStatus: {
      method: 'GET',
      path: `${base}/bracket/status`,
      pathParams: TournamentParamsSchema,
      responses: { 200: BracketStatusSchema },
      summary: 'Progress through the bracket: rounds completed, current round, players remaining, champion',
      metadata: read,
    },
    deletePick: {
      method: 'DELETE',
      path: `${base}/picks/:pickId`,
      pathParams: PickParamsSchema,
      body: null,
      responses: { 200: DeletePickResponseSchema },
      summary: 'Take back your pick before its fixture locks; its chips return',
      description:
        'PICK_LOCKED (409, `details.status`, `details.lockTime`) once locked; FORBIDDEN for someone else’s pick.',
      metadata: write,
    },
    picks: {
      method: 'GET',
      path: `${stage}/picks`,
      pathParams: StageParamsSchema,
      query: PicksQuerySchema,
      responses: { 200: PicksResponseSchema },
      summary: 'Picks of a stage: everyone’s on locked fixtures, your own always',
      metadata: read,
    },
    createPick: {
      method: 'POST',
      path: `${stage}/picks`,
      pathParams: StageParamsSchema,
      body: CreatePickRequestSchema,
      responses: { 201: CreatePickResponseSchema },
      summary: 'Stake stage chips on a fixture’s outcome at the stage’s odds',
      description:
        'One pick per fixture; before the fixture’s lock. NOT_ENTERED (403); STAGE_NOT_OPEN, ELIMINATED, STAGE_DEPOSIT_REQUIRED, PICK_LOCKED, ALREADY_PICKED (409); INSUFFICIENT_CHIPS (400).',
      metadata: write,
    },
    fixtures: {
      method: 'GET',
      path: `${stage}/fixtures`,
      pathParams: StageParamsSchema,
      responses: { 200: FixturesResponseSchema },
      summary: 'A stage’s fixtures with lock times, odds and results',
      metadata: read,
    },
    odds: {
      method: 'GET',
      path: `${stage}/odds`,
      pathParams: StageParamsSchema,
      responses: { 200: StageOddsSchema },
      summary: 'The odds picks of a stage are taken at, per fixture',
      metadata: read,
    },
    standings: {
      method: 'GET',
      path: `${stage}/standings`,
      pathParams: StageParamsSchema,
      query: PageQuerySchema,
      responses: { 200: StandingsResponseSchema },
      summary: 'A stage’s standings by chip stack (final once every result is in)',
      metadata: read,
    },
    groups: {
      method: 'GET',
      path: `${stage}/groups`,
      pathParams: StageParamsSchema,
      responses: { 200: GroupsResponseSchema },
      summary: 'Group tables of the group stage, with the qualifying places (empty on knockout stages)',
      metadata: read,
    },
  },
  // Applied here too, so the server can implement this part on its own with the same types.
  { commonResponses, strictStatusCodes: true },
);
