import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { commonResponses } from '../common/responses.js';
import {
  AddressParamsSchema,
  CreateTournamentRequestSchema,
  CreateTournamentResponseSchema,
  ListTournamentsQuerySchema,
  TournamentListSchema,
  WalletQuerySchema,
} from './tournaments-io.schemas.js';
import {
  BondRequirementQuerySchema,
  BondRequirementSchema,
  ByWalletQuerySchema,
  ByWalletResponseSchema,
  CreateFlowEligibilitySchema,
  CreateFlowQuerySchema,
  CreatorEligibilitySchema,
  CreatorStatsSchema,
  DepositBondRequestSchema,
  DepositBondResponseSchema,
  GlobalLeaderboardQuerySchema,
  GlobalLeaderboardSchema,
  PlatformAggregateSchema,
  UserStatsSchema,
  WithdrawBondRequestSchema,
  WithdrawBondResponseSchema,
} from './tournaments-stats.schemas.js';

const tag = 'Tournaments';
const base = '/api/tournaments';
const read = meta(tag, '4.17', 'optional-bearer');
const write = meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true });

/** §4.17 tournaments: the catalogue, creation, creators' bonds and platform-wide aggregates. */
// Every literal path is declared before the `/:tournamentId` routes of tournaments-play.contract.ts.
export const tournamentsCatalogContract = c.router(
  {
    list: {
      method: 'GET',
      path: base,
      query: ListTournamentsQuerySchema,
      responses: { 200: TournamentListSchema },
      summary: 'Tournaments, newest first, filtered by status, game type, sport or owner',
      description:
        '`status=active` (or `live`) lists LIVE tournaments, `completed` and `canceled` the finished ones. Paged with limit/offset; `total` counts every match.',
      metadata: read,
    },
    create: {
      method: 'POST',
      path: base,
      body: CreateTournamentRequestSchema,
      responses: { 201: CreateTournamentResponseSchema },
      summary: 'Create a paid tournament from a verified stage-1 vault deposit (creator bond required)',
      description:
        'Deposit first: generate `clientTournamentId` (24 hex), deposit the stage-1 buy-in into the vault for that id and stage 1 (POST /{id}/deposit answers how, or does it for a managed wallet), then create with `creatorDepositTxHash`. ' +
        'The deposit is verified on chain (vault of the stake asset, pool, stage, amount, sender) before anything is stored; the tournament id is `clientTournamentId`, and the creator’s entry is registered with it. ' +
        'Replaying the same create answers the same tournament (`created: false`). Refusals: BUYIN_BELOW_MINIMUM and PAID_TOURNAMENT_REQUIRES_DEPOSIT (400), DEPOSIT_MISMATCH, DEPOSIT_ALREADY_USED, NO_FIXTURES (400), DEPOSIT_PENDING, BOND_REQUIRED, TOURNAMENT_ID_TAKEN (409), FORBIDDEN for another owner’s wallet, GEO_BLOCKED for usdc.',
      metadata: meta(tag, '4.17', 'jwt-or-wallet', { idempotent: true, geo: { collateralFrom: 'body.stakeAsset' } }),
    },
    globalLeaderboard: {
      method: 'GET',
      path: `${base}/global-leaderboard`,
      query: GlobalLeaderboardQuerySchema,
      responses: { 200: GlobalLeaderboardSchema },
      summary: 'Players across all tournaments by wins, then points',
      metadata: read,
    },
    platformLeaderboardAggregate: {
      method: 'GET',
      path: `${base}/platform-leaderboard-aggregate`,
      responses: { 200: PlatformAggregateSchema },
      summary: 'Platform totals: tournaments by status, entries, players, creators, picks, prize pools by asset',
      metadata: read,
    },
    bondRequirement: {
      method: 'GET',
      path: `${base}/creator/bond-requirement`,
      query: BondRequirementQuerySchema,
      responses: { 200: BondRequirementSchema },
      summary: 'The bond a creator must hold (amount, asset, vault), and a wallet’s bond',
      metadata: read,
    },
    createFlowEligibility: {
      method: 'GET',
      path: `${base}/creator/create-flow-eligibility`,
      query: CreateFlowQuerySchema,
      responses: { 200: CreateFlowEligibilitySchema },
      summary: 'Whether a paid create would go through, checked before the creator spends anything',
      description:
        'Every reason is listed: WALLET_REQUIRED, BOND_REQUIRED, BUYIN_BELOW_MINIMUM, INSUFFICIENT_BALANCE, GEO_BLOCKED, MIN_ENTRIES_INVALID.',
      // The region is a reason to list here, not a refusal.
      metadata: meta(tag, '4.17', 'optional-bearer', { geo: { collateralFrom: 'market' } }),
    },
    creatorEligibility: {
      method: 'GET',
      path: `${base}/creator/eligibility`,
      query: WalletQuerySchema,
      responses: { 200: CreatorEligibilitySchema },
      summary: 'Whether a wallet may create tournaments now (bond posted)',
      metadata: read,
    },
    depositBond: {
      method: 'POST',
      path: `${base}/creator/deposit-bond`,
      body: DepositBondRequestSchema,
      responses: { 200: DepositBondResponseSchema },
      summary: 'Deposit (or record a deposit of) the creator bond into the vault',
      description:
        'With `txHash`: verifies a bond deposit the caller sent itself and counts it. With `execute: true` (bearer token): deposits from the managed wallet. Otherwise answers the calls to send. DEPOSIT_MISMATCH, DEPOSIT_ALREADY_USED (400), DEPOSIT_PENDING (409).',
      metadata: write,
    },
    withdrawBond: {
      method: 'POST',
      path: `${base}/creator/withdraw-bond`,
      body: WithdrawBondRequestSchema,
      responses: { 200: WithdrawBondResponseSchema },
      summary: 'Withdraw the creator bond from the vault to the creator’s wallet',
      description:
        'BOND_LOCKED (409) while the creator has a LIVE tournament; INSUFFICIENT_BOND (400) past the balance.',
      metadata: write,
    },
    creatorStats: {
      method: 'GET',
      path: `${base}/creator/:address/stats`,
      pathParams: AddressParamsSchema,
      responses: { 200: CreatorStatsSchema },
      summary: 'A creator’s tournaments, entries, prize pools and bond',
      metadata: read,
    },
    userStats: {
      method: 'GET',
      path: `${base}/user/:address/stats`,
      pathParams: AddressParamsSchema,
      responses: { 200: UserStatsSchema },
      summary: 'A player’s tournaments, wins, stages, picks and deposits',
      metadata: read,
    },
    byWallet: {
      method: 'GET',
      path: '/svc/tournaments/by-wallet/:address',
      pathParams: AddressParamsSchema,
      query: ByWalletQuerySchema,
      responses: { 200: ByWalletResponseSchema },
      summary: 'Tournaments a wallet created or entered, newest first',
      metadata: read,
    },
  },
  // Applied here too, so the server can implement this part on its own with the same types.
  { commonResponses, strictStatusCodes: true },
);
