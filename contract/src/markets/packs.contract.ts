import { ClaimProofSchema } from '../common/claim-proof.js';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  AddPackMarketResponseSchema,
  CreatePackRequestSchema,
  CreatorAddPackMarketRequestSchema,
  DistributionSummarySchema,
  EmptyBodySchema,
  LeaderboardResponseSchema,
  MyPackSchema,
  PackEntrySchema,
  PackIdParamsSchema,
  PackListQuerySchema,
  PackListResponseSchema,
  PackPriceHistoryQuerySchema,
  PackPriceHistorySchema,
  PackSchema,
  PicksEstimateResponseSchema,
  PicksRequestSchema,
  PicksResponseSchema,
  ProofQuerySchema,
} from './packs.schemas.js';
import { PaginationQuerySchema } from '../common/pagination.js';

const tag = 'Packs';
const base = '/svc/packs';

const proofDescription = (kind: 'payout' | 'refund') =>
  `The ${kind} leaf of \`account\` (default: the bearer's managed wallet) with everything PrizeVault.claim needs: ` +
  `poolId, kindIndex (${kind === 'payout' ? 0 : 1}), account, amount, proof, and the vault address. Anyone may submit ` +
  'the claim; the vault always pays the account in the leaf, once. VALIDATION_FAILED without an account or a bearer; ' +
  `INVALID_STATE before the ${kind} table exists; NOT_FOUND when the account has no leaf.`;

const summaryDescription = (kind: 'payout' | 'refund') =>
  `Totals of the ${kind} table (built, published on the vault, claimed so far) and the leaf of \`account\` ` +
  '(default: the bearer’s managed wallet) with whether the vault has paid it.';

/** §4.13 packs: pick bundles over markets, with Merkle payouts and refunds (docs/packs.md). */
export const packsContract = c.router({
  list: {
    method: 'GET',
    path: base,
    query: PackListQuerySchema,
    responses: { 200: PackListResponseSchema },
    summary: 'Published packs, newest first',
    description: 'Drafts are never listed. Filter by status and collateral.',
    metadata: meta(tag, '4.13', 'public'),
  },
  create: {
    method: 'POST',
    path: `${base}/creator/packs`,
    body: CreatePackRequestSchema,
    responses: { 201: PackSchema },
    summary: 'Create a draft pack (you are its creator)',
    description:
      'A pack is a parent market of kind `pack`. Add markets, then publish. VALIDATION_FAILED when lockAt is not in the ' +
      'future; GEO_BLOCKED for a usdc pack in a blocked region.',
    metadata: meta(tag, '4.13', 'bearer', { idempotent: true, geo: { collateralFrom: 'body.collateralStack' } }),
  },
  addMarket: {
    method: 'POST',
    path: `${base}/creator/packs/:packId/markets`,
    pathParams: PackIdParamsSchema,
    body: CreatorAddPackMarketRequestSchema,
    responses: { 201: AddPackMarketResponseSchema },
    summary: 'Add a market to your draft pack: a new one, or one of your own open markets',
    description:
      'A new market is created on chain like duels/create (accepted, not final) and funded by your managed wallet. ' +
      'FORBIDDEN when the pack or the existing market is not yours; INVALID_STATE once the pack is published or when ' +
      'the market ends before lockAt, is private, not open or already in a parent market; VALIDATION_FAILED past 20 markets.',
    metadata: meta(tag, '4.13', 'bearer', {
      idempotent: true,
      geo: { collateralFrom: 'body.market.collateralStack' },
    }),
  },
  publish: {
    method: 'POST',
    path: `${base}/creator/packs/:packId/publish`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 200: PackSchema },
    summary: 'Publish your draft pack: entries and picks open until lockAt',
    description:
      'INVALID_STATE when the pack is not a draft, has no market, a market is not confirmed on chain yet, ' +
      'or lockAt has passed; FORBIDDEN when it is not yours.',
    metadata: meta(tag, '4.13', 'bearer', { idempotent: true }),
  },
  get: {
    method: 'GET',
    path: `${base}/:packId`,
    pathParams: PackIdParamsSchema,
    responses: { 200: PackSchema },
    summary: 'A pack with its markets',
    description: 'A draft is shown to its creator only (bearer token); NOT_FOUND for anyone else.',
    metadata: meta(tag, '4.13', 'public', { personalised: true }),
  },
  leaderboard: {
    method: 'GET',
    path: `${base}/:packId/leaderboard`,
    pathParams: PackIdParamsSchema,
    query: PaginationQuerySchema.strict(),
    responses: { 200: LeaderboardResponseSchema },
    summary: 'Standings of a pack: provisional until settled, then final with payouts',
    description: 'Ranked by points; ties share a rank. Entrants whose deposit is not confirmed are not listed.',
    metadata: meta(tag, '4.13', 'public'),
  },
  priceHistory: {
    method: 'GET',
    path: `${base}/:packId/price-history-snapshots`,
    pathParams: PackIdParamsSchema,
    query: PackPriceHistoryQuerySchema,
    responses: { 200: PackPriceHistorySchema },
    summary: 'Price series of every market of the pack: the prices picks are scored at',
    description:
      'The same snapshots as the parent-market price history: a pick locks its option’s price at pick time, which is the ' +
      'latest point of its market’s series then. NOT_FOUND for a draft.',
    metadata: meta(tag, '4.13', 'public'),
  },
  payoutProof: {
    method: 'GET',
    path: `${base}/:packId/payout-proof`,
    pathParams: PackIdParamsSchema,
    query: ProofQuerySchema,
    responses: { 200: ClaimProofSchema },
    summary: 'A winner’s payout leaf and Merkle proof, ready for PrizeVault.claim',
    description: proofDescription('payout'),
    metadata: meta(tag, '4.13', 'optional-bearer'),
  },
  payoutSummary: {
    method: 'GET',
    path: `${base}/:packId/payout-summary`,
    pathParams: PackIdParamsSchema,
    query: ProofQuerySchema,
    responses: { 200: DistributionSummarySchema },
    summary: 'Payout totals, and your share and whether it was claimed',
    description: summaryDescription('payout'),
    metadata: meta(tag, '4.13', 'optional-bearer'),
  },
  refundProof: {
    method: 'GET',
    path: `${base}/:packId/refund-proof`,
    pathParams: PackIdParamsSchema,
    query: ProofQuerySchema,
    responses: { 200: ClaimProofSchema },
    summary: 'An entrant’s refund leaf of a cancelled pack and its Merkle proof',
    description: proofDescription('refund'),
    metadata: meta(tag, '4.13', 'optional-bearer'),
  },
  refundSummary: {
    method: 'GET',
    path: `${base}/:packId/refund-summary`,
    pathParams: PackIdParamsSchema,
    query: ProofQuerySchema,
    responses: { 200: DistributionSummarySchema },
    summary: 'Refund totals of a cancelled pack, and your share and whether it was claimed',
    description: summaryDescription('refund'),
    metadata: meta(tag, '4.13', 'optional-bearer'),
  },
  enter: {
    method: 'POST',
    path: `${base}/:packId/enter`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 201: PackEntrySchema },
    summary: 'Enter a pack: your managed wallet deposits the entry fee into the pack’s vault pool',
    description:
      'Accepted, not final: the entry is `pending` until the deposit is mined and verified (poll /me). One entry per ' +
      'user: ALREADY_ENTERED once you have one (a failed one may be retried). PACK_NOT_OPEN unless published, ' +
      'PACK_LOCKED after lockAt, INSUFFICIENT_CREDITS when the wallet cannot pay, GEO_BLOCKED for usdc in a blocked region.',
    metadata: meta(tag, '4.13', 'bearer', { idempotent: true, geo: { collateralFrom: 'market' } }),
  },
  estimatePicks: {
    method: 'POST',
    path: `${base}/:packId/picks/estimate`,
    pathParams: PackIdParamsSchema,
    body: PicksRequestSchema,
    responses: { 200: PicksEstimateResponseSchema },
    summary: 'What picks made now would score if correct',
    description:
      'A correct pick scores 10000 × (1 − its price at pick time); a wrong one 0; a voided market 0 for everyone. ' +
      'VALIDATION_FAILED for a market outside the pack or an option it does not have.',
    metadata: meta(tag, '4.13', 'bearer', { repeatable: true }),
  },
  picks: {
    method: 'POST',
    path: `${base}/:packId/picks`,
    pathParams: PackIdParamsSchema,
    body: PicksRequestSchema,
    responses: { 201: PicksResponseSchema },
    summary: 'Make or change picks: each locks its option’s current price',
    description:
      'Accepted, not final: picks may change until lockAt and are final at lock. NOT_ENTERED without an entry, ' +
      'ENTRY_PENDING while its deposit is unconfirmed, PACK_LOCKED after lockAt, PACK_NOT_OPEN unless published, ' +
      'INVALID_STATE for a voided market.',
    metadata: meta(tag, '4.13', 'bearer', { idempotent: true }),
  },
  me: {
    method: 'GET',
    path: `${base}/:packId/me`,
    pathParams: PackIdParamsSchema,
    responses: { 200: MyPackSchema },
    summary: 'Your entry, picks, points, rank and payout or refund in a pack',
    metadata: meta(tag, '4.13', 'bearer'),
  },
});
