import { z } from 'zod';
import { ClaimProofSchema } from '../common/claim-proof.js';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { commonResponses } from '../common/responses.js';
import { EligibilitySchema, EnterResponseSchema } from './tournaments-io.schemas.js';
import {
  CreateRacingRequestSchema,
  CreateRacingResponseSchema,
  DeletePredictionResponseSchema,
  DriversResponseSchema,
  EloLeaderboardSchema,
  EventHeatmapSchema,
  EventResultsSchema,
  ExternalDashboardFullSchema,
  ExternalDashboardQuerySchema,
  ExternalDashboardSchema,
  LockPredictionsResponseSchema,
  MatchupsResponseSchema,
  MyPicksSchema,
  PlaceSideBetsRequestSchema,
  PlaceSideBetsResponseSchema,
  PredictionSchema,
  PredictRequestSchema,
  RaceAnalyticsSchema,
  RaceRoundSchema,
  RacingAddressParamsSchema,
  RacingDashboardSchema,
  RacingEnterRequestSchema,
  RacingEventParamsSchema,
  RacingMyPayoutSchema,
  RacingPageQuerySchema,
  RacingParamsSchema,
  RacingPayoutsSchema,
  RacingPredictionParamsSchema,
  RacingRoundParamsSchema,
  RacingTournamentSchema,
  RacingUserEventParamsSchema,
  RacingUserStatsSchema,
  RacingWalletQuerySchema,
  ReenterRequestSchema,
  ReenterResponseSchema,
  RoundsResponseSchema,
  ScoredPredictionSchema,
  SeasonLeaderboardSchema,
  SideBetHeatmapSchema,
  SideBetsResponseSchema,
  WeekendLeaderboardSchema,
} from './racing.schemas.js';

const tag = 'Racing tournaments';
const root = '/api/tournaments/f1';
const base = `${root}/:tournamentId`;
const read = meta(tag, '4.17', 'optional-bearer');
const write = meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true });
const money = meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true, geo: { collateralFrom: 'market' } });

/**
 * §4.17 racing tournaments (F1 grid predictor): tournaments of `gameType` F1_GRID_PREDICTOR over a
 * motorsport season. Entrants predict the top of every session, lock early for a bonus, bet on
 * weekend props and climb season, weekend and Elo leaderboards; prizes are Merkle claims on the
 * tournament's PrizeVault pool. The rules are in docs/racing.md.
 */
export const racingContract = c.router(
  {
    create: {
      method: 'POST',
      path: `${root}/create`,
      body: CreateRacingRequestSchema,
      responses: { 201: CreateRacingResponseSchema },
      summary: 'Create a racing tournament over a season, deposit first (like every paid tournament)',
      description:
        'Deposit the buy-in into the vault pool of a client-chosen 24-hex id (POST /api/tournaments/{id}/deposit with stakeAsset and amount), then create with clientTournamentId and creatorDepositTxHash; the creator is entered. Needs the creator bond. ' +
        'BUYIN_BELOW_MINIMUM, PAID_TOURNAMENT_REQUIRES_DEPOSIT, SEASON_UNAVAILABLE, DEPOSIT_MISMATCH, DEPOSIT_ALREADY_USED (400); BOND_REQUIRED, TOURNAMENT_ID_TAKEN (409); the same create again answers the tournament with created: false.',
      metadata: money,
    },
    externalDashboard: {
      method: 'GET',
      path: `${root}/dashboard/external`,
      query: ExternalDashboardQuerySchema,
      responses: { 200: ExternalDashboardSchema },
      summary: 'Embeddable summary feed across racing tournaments (short cache, stable field names)',
      description:
        'Racing tournaments newest first (`limit` 1–50): summary, next lock and leader per tournament. Public; `Cache-Control: public, max-age=15`, reused for 15 s. VALIDATION_FAILED (400) for a bad limit.',
      metadata: read,
    },
    externalDashboardFull: {
      method: 'GET',
      path: `${root}/dashboard/external/full`,
      query: ExternalDashboardQuerySchema,
      responses: { 200: ExternalDashboardFullSchema },
      summary: 'The embeddable feed with each tournament’s top 10 and its rounds',
      description:
        'The external feed plus each tournament’s top 10 and its rounds with their status. Public; cached like the feed. VALIDATION_FAILED (400) for a bad limit.',
      metadata: read,
    },
    get: {
      method: 'GET',
      path: base,
      pathParams: RacingParamsSchema,
      responses: { 200: RacingTournamentSchema },
      summary: 'A racing tournament: season, buy-in, pool, next lock and the scoring table',
      description: '404 for an unknown id or a tournament that is not a racing one.',
      metadata: read,
    },
    dashboard: {
      method: 'GET',
      path: `${base}/dashboard`,
      pathParams: RacingParamsSchema,
      query: RacingWalletQuerySchema,
      responses: { 200: RacingDashboardSchema },
      summary: 'The tournament at a glance: current round, leaders, and your standing with a bearer token or ?wallet',
      description:
        'Public. The summary, the current (or next) weekend, the top five and, with a bearer token or `?wallet=`, the viewer’s stats. 404 for an unknown racing tournament.',
      metadata: read,
    },
    drivers: {
      method: 'GET',
      path: `${base}/drivers`,
      pathParams: RacingParamsSchema,
      responses: { 200: DriversResponseSchema },
      summary: 'The season’s grid: drivers and teams',
      description: 'Public, from the season data source. 404 for an unknown racing tournament.',
      metadata: read,
    },
    eligibility: {
      method: 'GET',
      path: `${base}/eligibility/:address`,
      pathParams: RacingAddressParamsSchema,
      responses: { 200: EligibilitySchema },
      summary: 'Whether a wallet can enter now, with every reason it cannot',
      description:
        'Reasons: NOT_LIVE, ENTRIES_CLOSED (the first session locked), ALREADY_ENTERED, TOURNAMENT_FULL, INSUFFICIENT_BALANCE, GEO_BLOCKED (usdc).',
      metadata: meta(tag, '4.17', 'optional-bearer', { geo: { collateralFrom: 'market' } }),
    },
    rounds: {
      method: 'GET',
      path: `${base}/rounds`,
      pathParams: RacingParamsSchema,
      responses: { 200: RoundsResponseSchema },
      summary: 'The season’s Grand Prix weekends with their sessions, lock times and status',
      description:
        'Public. Each weekend’s sessions with lock times, the number of places predicted and their status. 404 for an unknown racing tournament.',
      metadata: read,
    },
    round: {
      method: 'GET',
      path: `${base}/rounds/:roundId`,
      pathParams: RacingRoundParamsSchema,
      responses: { 200: RaceRoundSchema },
      summary: 'One weekend with its sessions',
      description: 'Public. 404 for a round not in the tournament’s season.',
      metadata: read,
    },
    matchups: {
      method: 'GET',
      path: `${base}/rounds/:roundId/matchups`,
      pathParams: RacingRoundParamsSchema,
      responses: { 200: MatchupsResponseSchema },
      summary: 'Head-to-head teammate pairs of a weekend, decided by the race',
      description:
        'Public. Derived: the two drivers of each team; `winnerDriverId` once the race is settled. 404 for an unknown round.',
      metadata: read,
    },
    sideBets: {
      method: 'GET',
      path: `${base}/rounds/:roundId/side-bets`,
      pathParams: RacingRoundParamsSchema,
      query: RacingWalletQuerySchema,
      responses: { 200: SideBetsResponseSchema },
      summary: 'A weekend’s side-bet props, their points and lock, and your bets',
      description:
        'Public; a bearer token or `?wallet=` fills `mine`. The props settle on the weekend’s race and lock at its start. 404 for an unknown round.',
      metadata: read,
    },
    placeSideBets: {
      method: 'POST',
      path: `${base}/rounds/:roundId/side-bets`,
      pathParams: RacingRoundParamsSchema,
      body: PlaceSideBetsRequestSchema,
      responses: { 201: PlaceSideBetsResponseSchema },
      summary: 'Place or replace your side bets of a weekend (until its race locks)',
      description:
        'Entrants only (NOT_ENTERED, 403). One bet per prop; FASTEST_LAP takes driverId, SAFETY_CAR value, DNF_COUNT count (VALIDATION_FAILED). PREDICTION_UNKNOWN_DRIVER (400); PREDICTION_LOCKED (409, details.lockTime) once the race started.',
      metadata: write,
    },
    sideBetHeatmap: {
      method: 'GET',
      path: `${base}/rounds/:roundId/side-bet-heatmap`,
      pathParams: RacingRoundParamsSchema,
      responses: { 200: SideBetHeatmapSchema },
      summary: 'The crowd’s side-bet picks of a weekend (counted in SQL, cached briefly)',
      description:
        'Public. Count and share of each answer per prop, computed in SQL and reused for 15 s. 404 for an unknown round.',
      metadata: read,
    },
    heatmap: {
      method: 'GET',
      path: `${base}/heatmap/:eventId`,
      pathParams: RacingEventParamsSchema,
      responses: { 200: EventHeatmapSchema },
      summary: 'The crowd’s drivers × positions for a session (counted in SQL, cached briefly)',
      description:
        'Public. Count and share of each driver at each predicted position, computed in SQL and reused for 15 s. 404 for an unknown event.',
      metadata: read,
    },
    results: {
      method: 'GET',
      path: `${base}/results/:eventId`,
      pathParams: RacingEventParamsSchema,
      responses: { 200: EventResultsSchema },
      summary: 'A session’s official classification and every entrant’s points (empty until settled)',
      description:
        'Public. `status` tells whether the session is settled; the classification and scores are empty before. 404 for an unknown event.',
      metadata: read,
    },
    raceAnalytics: {
      method: 'GET',
      path: `${base}/race-analytics/:eventId`,
      pathParams: RacingEventParamsSchema,
      responses: { 200: RaceAnalyticsSchema },
      summary: 'How the crowd predicted a session and how it scored',
      description:
        'Public. Predictions, early locks, the most picked winner, average and best points and per-position accuracy. 404 for an unknown event.',
      metadata: read,
    },
    seasonLeaderboard: {
      method: 'GET',
      path: `${base}/leaderboard/season`,
      pathParams: RacingParamsSchema,
      query: RacingPageQuerySchema,
      responses: { 200: SeasonLeaderboardSchema },
      summary: 'Season points (current period of each entrant), ties to the earlier entry',
      description:
        'Public, paged (`limit`, `offset`). Rows: rank, wallet, username, seasonPoints, eloRating, racesParticipated. 404 for an unknown racing tournament.',
      metadata: read,
    },
    weekendLeaderboard: {
      method: 'GET',
      path: `${base}/leaderboard/weekend/:roundId`,
      pathParams: RacingRoundParamsSchema,
      responses: { 200: WeekendLeaderboardSchema },
      summary: 'A weekend’s points: its sessions plus its side bets',
      description: 'Public. Every entrant’s session and side-bet points of one weekend. 404 for an unknown round.',
      metadata: read,
    },
    eloLeaderboard: {
      method: 'GET',
      path: `${base}/leaderboard/elo`,
      pathParams: RacingParamsSchema,
      responses: { 200: EloLeaderboardSchema },
      summary: 'Elo ratings from pairwise comparison of entrants’ session scores',
      description:
        'Public. Start 1500, K = 32, zero-sum per session (docs/racing.md). 404 for an unknown racing tournament.',
      metadata: read,
    },
    myPicks: {
      method: 'GET',
      path: `${base}/user/:address/my-picks`,
      pathParams: RacingAddressParamsSchema,
      responses: { 200: MyPicksSchema },
      summary: 'A wallet’s predictions and side bets in this tournament',
      description:
        'Public by address. VALIDATION_FAILED (400) for a malformed address; 404 for an unknown racing tournament.',
      metadata: read,
    },
    userPrediction: {
      method: 'GET',
      path: `${base}/user/:address/predictions/:eventId`,
      pathParams: RacingUserEventParamsSchema,
      responses: { 200: ScoredPredictionSchema },
      summary: 'A wallet’s prediction for one session, with its points once settled (404 without one)',
      description: 'Public by address. 404 when the wallet has no prediction for the event, or for an unknown event.',
      metadata: read,
    },
    userStats: {
      method: 'GET',
      path: `${base}/user/:address/stats`,
      pathParams: RacingAddressParamsSchema,
      responses: { 200: RacingUserStatsSchema },
      summary: 'A wallet’s rank, points, Elo and hit counts in this tournament',
      description: 'Public by address; zeros for a wallet that has not entered. 404 for an unknown racing tournament.',
      metadata: read,
    },
    payouts: {
      method: 'GET',
      path: `${base}/payouts`,
      pathParams: RacingParamsSchema,
      responses: { 200: RacingPayoutsSchema },
      summary: 'The payout table: projected from the standings, then the published Merkle table with claims',
      description:
        'Public. `projected` before the season closes, then the Merkle table (`built`, `published`) with each leaf’s claim. 404 for an unknown racing tournament.',
      metadata: read,
    },
    myPayout: {
      method: 'GET',
      path: `${base}/my-payout`,
      pathParams: RacingParamsSchema,
      query: RacingWalletQuerySchema,
      responses: { 200: RacingMyPayoutSchema },
      summary: 'Your line of the payout table (bearer token or ?wallet)',
      description: 'UNAUTHENTICATED (401) with neither a bearer token nor ?wallet.',
      metadata: read,
    },
    claimProof: {
      method: 'GET',
      path: `${base}/claim-proof`,
      pathParams: RacingParamsSchema,
      query: RacingWalletQuerySchema,
      responses: { 200: ClaimProofSchema },
      summary: 'Your payout leaf: amount, Merkle proof and the PrizeVault.claim call',
      description:
        'The bearer token’s managed wallet, or `wallet`. PAYOUT_NOT_READY (409) before the season closes; 404 for a wallet without a payout. Confirm a claim with POST /api/tournaments/{id}/confirm-claim.',
      metadata: read,
    },
    enter: {
      method: 'POST',
      path: `${base}/enter`,
      pathParams: RacingParamsSchema,
      body: RacingEnterRequestSchema,
      responses: { 200: EnterResponseSchema },
      summary: 'Enter with a verified vault deposit of the buy-in (the tournaments entry); idempotent per deposit',
      description:
        'Deposit first with POST /api/tournaments/{id}/deposit. DEPOSIT_MISMATCH, DEPOSIT_ALREADY_USED (400); DEPOSIT_PENDING (409, retry); ALREADY_ENTERED, TOURNAMENT_FULL, ENTRIES_CLOSED (409); GEO_BLOCKED for usdc.',
      metadata: money,
    },
    reenter: {
      method: 'POST',
      path: `${base}/reenter`,
      pathParams: RacingParamsSchema,
      body: ReenterRequestSchema,
      responses: { 200: ReenterResponseSchema },
      summary: 'Buy a fresh card: pay the buy-in again and restart your season score from the next session',
      description:
        'Entrants only (NOT_ENTERED, 403). REENTRY_NOT_ALLOWED (409) unless a weekend finished since your current entry and another is still to start; DEPOSIT_* as for enter.',
      metadata: money,
    },
    predict: {
      method: 'POST',
      path: `${base}/events/:eventId/predict`,
      pathParams: RacingEventParamsSchema,
      body: PredictRequestSchema,
      responses: { 201: PredictionSchema },
      summary: 'Predict a session’s top N (5 qualifying, 5 sprint qualifying, 8 sprint, 10 race)',
      description:
        'Entrants only (NOT_ENTERED, 403). PREDICTION_WRONG_LENGTH, PREDICTION_DUPLICATE_DRIVER, PREDICTION_UNKNOWN_DRIVER (400); PREDICTION_LOCKED (409, details.lockTime) from the lock time; ALREADY_PICKED (409) when you have one (PUT it).',
      metadata: write,
    },
    lockMyPredictions: {
      method: 'POST',
      path: `${base}/events/:eventId/lock-my-predictions`,
      pathParams: RacingEventParamsSchema,
      body: z.object({}).strict().optional(),
      responses: { 200: LockPredictionsResponseSchema },
      summary: 'Commit your prediction before the lock for the early-lock bonus (+20%); it can no longer change',
      description: '404 without a prediction; PREDICTION_LOCKED (409) after the lock time.',
      metadata: write,
    },
    updatePrediction: {
      method: 'PUT',
      path: `${base}/predictions/:predictionId`,
      pathParams: RacingPredictionParamsSchema,
      body: PredictRequestSchema,
      responses: { 200: PredictionSchema },
      summary: 'Change your prediction until the lock',
      description:
        'FORBIDDEN (403) for someone else’s prediction; PREDICTION_LOCKED (409, details.lockTime) after the lock or an early lock; the 400 codes of predict.',
      metadata: write,
    },
    deletePrediction: {
      method: 'DELETE',
      path: `${base}/predictions/:predictionId`,
      pathParams: RacingPredictionParamsSchema,
      body: null,
      responses: { 200: DeletePredictionResponseSchema },
      summary: 'Withdraw your prediction until the lock',
      description:
        'FORBIDDEN (403) for someone else’s prediction; PREDICTION_LOCKED (409, details.lockTime) after the lock.',
      metadata: write,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
