import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  AdminAddPackMarketRequestSchema,
  AdminCreatePackRequestSchema,
  CancelPackRequestSchema,
  ClaimRunSchema,
  ClaimStatusSchema,
  ResolvePackMarketRequestSchema,
  ResolvePackMarketResponseSchema,
  SettlementSchema,
  SubmitRootResponseSchema,
  TickResponseSchema,
  VoidPackMarketRequestSchema,
  VoidPackMarketResponseSchema,
} from './packs-admin.schemas.js';
import {
  AddPackMarketResponseSchema,
  EmptyBodySchema,
  PackIdParamsSchema,
  PackMarketParamsSchema,
  PackSchema,
} from './packs.schemas.js';

const tag = 'Packs admin';
const base = '/svc/packs/admin/packs';

const submitRoot = (kind: 'payout' | 'refund') =>
  `Sets the ${kind} table’s Merkle root on the prize vault (PrizeVault.setRoot, kind ${kind === 'payout' ? 0 : 1}), ` +
  'which sets its total aside from the pool. Once per pack: a repeat answers the same transaction. ' +
  `INVALID_STATE ${kind === 'payout' ? 'before the pack is settled or when nobody is paid' : 'unless the pack is cancelled with confirmed entries, or while an entry deposit is unconfirmed'}.`;

const autoClaim = (kind: 'payout' | 'refund') =>
  `Queues a durable job that submits the claim of every unclaimed ${kind} leaf, one transaction per leaf; ` +
  `resumable, and a leaf is never paid twice. Progress in ${kind}-claim-status. INVALID_STATE before the root is published.`;

/** §4.16 packs administration (admin token; docs/packs.md). */
export const packsAdminContract = c.router({
  // Declared before `/:packId/...` so the literal segment wins.
  scheduleTick: {
    method: 'POST',
    path: `${base}/schedule-tick`,
    body: EmptyBodySchema,
    responses: { 200: TickResponseSchema },
    summary: 'Advance every pack whose time has come (also runs as a repeating job)',
    description:
      'Verifies pending entry deposits, locks published packs past lockAt, marks locked packs with results as resolving, ' +
      'releases the fee of settled packs and marks fully claimed packs claimed. A second call changes nothing more.',
    metadata: meta(tag, '4.16', 'admin', { repeatable: true }),
  },
  create: {
    method: 'POST',
    path: base,
    body: AdminCreatePackRequestSchema,
    responses: { 201: PackSchema },
    summary: 'Create a draft pack owned by the platform',
    description: 'Like creator/packs, with an optional feeBps. Admin packs bundle existing markets.',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  addMarket: {
    method: 'POST',
    path: `${base}/:packId/markets`,
    pathParams: PackIdParamsSchema,
    body: AdminAddPackMarketRequestSchema,
    responses: { 201: AddPackMarketResponseSchema },
    summary: 'Add an existing open public market to a draft pack',
    description:
      'INVALID_STATE once the pack is published, or when the market ends before lockAt, is private, not open, not ' +
      'confirmed or already in a parent market; VALIDATION_FAILED past 20 markets.',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  publish: {
    method: 'POST',
    path: `${base}/:packId/publish`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 200: PackSchema },
    summary: 'Publish any draft pack',
    description: 'As creator publish, for any pack.',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  lock: {
    method: 'POST',
    path: `${base}/:packId/lock`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 200: PackSchema },
    summary: 'Close entries and picks now, before lockAt',
    description: 'INVALID_STATE unless the pack is published.',
    metadata: meta(tag, '4.16', 'admin', { repeatable: true }),
  },
  resolveMarket: {
    method: 'POST',
    path: `${base}/:packId/markets/:marketId/resolve`,
    pathParams: PackMarketParamsSchema,
    body: ResolvePackMarketRequestSchema,
    responses: { 200: ResolvePackMarketResponseSchema },
    summary: 'Resolve a market of a locked pack: its duel is resolved on chain by the platform',
    description:
      'The market’s outcome is its duel’s outcome (accepted, not final; with a contest period it becomes final after it). ' +
      'INVALID_STATE unless the pack is locked or resolving, or when the market has not ended or is already resolved; ' +
      'NOT_FOUND when the market is not in the pack.',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  voidMarket: {
    method: 'POST',
    path: `${base}/:packId/markets/:marketId/void`,
    pathParams: PackMarketParamsSchema,
    body: VoidPackMarketRequestSchema,
    responses: { 200: VoidPackMarketResponseSchema },
    summary: 'Void a market of a pack: it scores neutral for everyone',
    description:
      'The market itself is cancelled too when it still can be (its traders are refunded, as for a discard). Repeating ' +
      'a void answers the same. INVALID_STATE once the pack is settled or cancelled, or while it is a draft.',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  settlementPreview: {
    method: 'GET',
    path: `${base}/:packId/settlement-preview`,
    pathParams: PackIdParamsSchema,
    responses: { 200: SettlementSchema },
    summary: 'Exactly what settle would write now, and why it cannot yet',
    metadata: meta(tag, '4.16', 'admin'),
  },
  settle: {
    method: 'POST',
    path: `${base}/:packId/settle`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 200: SettlementSchema },
    summary: 'Rank the entrants, split the prize pool and build the payout table',
    description:
      'Needs every market resolved or voided and every entry deposit verified (INVALID_STATE with `details.blockers` ' +
      'otherwise). Releases the fee to the treasury. Settling a settled pack answers the stored settlement.',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  cancelRefund: {
    method: 'POST',
    path: `${base}/:packId/cancel-refund`,
    pathParams: PackIdParamsSchema,
    body: CancelPackRequestSchema,
    responses: { 200: PackSchema },
    summary: 'Cancel a pack before it is settled: every entrant is refunded their entry fee',
    description:
      'Then submit-refund-root publishes the refund table. INVALID_STATE once settled (or already cancelled).',
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  submitPayoutRoot: {
    method: 'POST',
    path: `${base}/:packId/onchain/submit-payout-root`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 200: SubmitRootResponseSchema },
    summary: 'Publish the payout root on the prize vault',
    description: submitRoot('payout'),
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  submitRefundRoot: {
    method: 'POST',
    path: `${base}/:packId/onchain/submit-refund-root`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 200: SubmitRootResponseSchema },
    summary: 'Build the refund table of a cancelled pack and publish its root on the prize vault',
    description: submitRoot('refund'),
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  autoClaimPayouts: {
    method: 'POST',
    path: `${base}/:packId/onchain/auto-claim-payouts`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 200: ClaimRunSchema },
    summary: 'Claim every unclaimed payout for its winner (server-pushed)',
    description: autoClaim('payout'),
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  autoClaimRefunds: {
    method: 'POST',
    path: `${base}/:packId/onchain/auto-claim-refunds`,
    pathParams: PackIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 200: ClaimRunSchema },
    summary: 'Claim every unclaimed refund for its entrant (server-pushed)',
    description: autoClaim('refund'),
    metadata: meta(tag, '4.16', 'admin', { idempotent: true }),
  },
  payoutClaimStatus: {
    method: 'GET',
    path: `${base}/:packId/payout-claim-status`,
    pathParams: PackIdParamsSchema,
    responses: { 200: ClaimStatusSchema },
    summary: 'Progress of the payout claims: on the vault and of the auto-claim job',
    metadata: meta(tag, '4.16', 'admin'),
  },
  refundClaimStatus: {
    method: 'GET',
    path: `${base}/:packId/refund-claim-status`,
    pathParams: PackIdParamsSchema,
    responses: { 200: ClaimStatusSchema },
    summary: 'Progress of the refund claims: on the vault and of the auto-claim job',
    metadata: meta(tag, '4.16', 'admin'),
  },
});
