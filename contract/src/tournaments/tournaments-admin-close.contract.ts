import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { commonResponses } from '../common/responses.js';
import { TournamentParamsSchema } from './tournaments-io.schemas.js';
import {
  AdminDisputeListQuerySchema,
  AdminDisputesQuerySchema,
  AdminStageParamsSchema,
  AutomationRunSchema,
  AutomationStatusSchema,
  CanProceedSchema,
  CloseEmptyBodySchema,
  DisputeListSchema,
  DisputeParamsSchema,
  DisputeStatsSchema,
  FinalWindowSchema,
  ForceSettleRequestSchema,
  PayoutRootSchema,
  ProcessExpiredResponseSchema,
  PublishRootResponseSchema,
  ResolveDisputeRequestSchema,
  ResolveDisputeResponseSchema,
  SetRootResponseSchema,
  SetWindowRequestSchema,
  SettleReadyResponseSchema,
  SettlementSchema,
  StageDisputeWindowSchema,
} from './tournaments-close.schemas.js';

const tag = 'Tournaments admin';
const admin = '/api/tournaments/admin';
const read = meta(tag, '4.17', 'admin');
const write = meta(tag, '4.17', 'admin', { idempotent: true });

/**
 * §4.17 tournaments-host administration of disputes, settlement, payouts and automation (admin
 * token). Declared before the `/:tournamentId` routes, so `admin` is never read as an id.
 */
export const tournamentsAdminCloseContract = c.router(
  {
    setRoot: {
      method: 'POST',
      path: `${admin}/tournaments/:tournamentId/set-root`,
      pathParams: TournamentParamsSchema,
      body: CloseEmptyBodySchema,
      responses: { 200: SetRootResponseSchema },
      summary: 'Build the payout table and its Merkle root from the final standings',
      description:
        'Leaves (pool, wallet, amount) through the shared Merkle module. Once: a repeat answers the same root. ' +
        'PAYOUT_NOT_READY (409, `details.reasons`) unless the tournament is COMPLETED, every stage settled, the final window closed and no dispute open.',
      metadata: write,
    },
    setFinalDisputeWindow: {
      method: 'POST',
      path: `${admin}/tournaments/:tournamentId/final-dispute-window/set`,
      pathParams: TournamentParamsSchema,
      body: SetWindowRequestSchema,
      responses: { 200: FinalWindowSchema },
      summary: 'Set when the final window (after the final stage, before payouts) closes',
      description: 'INVALID_STATE (409) once the payout root is built or for a cancelled tournament.',
      metadata: write,
    },
    setPayoutRootOnchain: {
      method: 'POST',
      path: `${admin}/tournaments/:tournamentId/set-payout-root-onchain`,
      pathParams: TournamentParamsSchema,
      body: CloseEmptyBodySchema,
      responses: { 200: PublishRootResponseSchema },
      summary: 'Publish the payout root on the prize vault (PrizeVault.setRoot) and release the fee',
      description:
        'One chain write per tournament, ever (stable keys): a repeat answers the same transactions. PAYOUT_NOT_READY (409) before set-root.',
      metadata: write,
    },
    payoutRoot: {
      method: 'GET',
      path: `${admin}/tournaments/:tournamentId/payout-root`,
      pathParams: TournamentParamsSchema,
      responses: { 200: PayoutRootSchema },
      summary: 'The payout root: whether it can be built, built, published, and the vault’s view of it',
      description:
        'Admin token. `ready` with the reasons it is not (NOT_COMPLETED, STAGES_UNSETTLED, FINAL_WINDOW_OPEN, DISPUTES_PENDING). 404 for an unknown tournament.',
      metadata: read,
    },
    forceSettle: {
      method: 'POST',
      path: `${admin}/stages/:stageId/force-settle`,
      pathParams: AdminStageParamsSchema,
      body: ForceSettleRequestSchema,
      responses: { 200: SettlementSchema },
      summary: 'Settle a stage whatever blocks it, with an audit entry; its open disputes are rejected',
      description: 'INVALID_STATE (409) for a settled stage or a cancelled tournament; 404 for an unknown stage.',
      metadata: write,
    },
    setStageDisputeWindow: {
      method: 'POST',
      path: `${admin}/stages/:stageId/dispute-window/set`,
      pathParams: AdminStageParamsSchema,
      body: SetWindowRequestSchema,
      responses: { 200: StageDisputeWindowSchema },
      summary: 'Set when a stage’s dispute window (and every one of its markets’) closes',
      description: 'INVALID_STATE (409) for a settled stage or a cancelled tournament.',
      metadata: write,
    },
    canProceed: {
      method: 'GET',
      path: `${admin}/stages/:stageId/can-proceed`,
      pathParams: AdminStageParamsSchema,
      responses: { 200: CanProceedSchema },
      summary: 'Whether a stage may settle, and every reason it may not',
      description:
        'Admin token. Reasons: TOURNAMENT_CANCELED, PREVIOUS_STAGE_UNSETTLED, MARKETS_UNRESOLVED (with their ids), DISPUTE_WINDOW_OPEN, DISPUTES_PENDING (with their ids). 404 for an unknown stage.',
      metadata: read,
    },
    processExpired: {
      method: 'POST',
      path: `${admin}/disputes/process-expired`,
      body: CloseEmptyBodySchema,
      responses: { 200: ProcessExpiredResponseSchema },
      summary: 'Close every open dispute past its deadline (the result stands)',
      description: 'Admin token. Also run by the automation; a second call changes nothing.',
      metadata: write,
    },
    disputeStats: {
      method: 'GET',
      path: `${admin}/disputes/stats`,
      responses: { 200: DisputeStatsSchema },
      summary: 'Disputes by status across tournaments',
      description: 'Admin token.',
      metadata: read,
    },
    disputesOfStage: {
      method: 'GET',
      path: `${admin}/disputes/stage/:stageId`,
      pathParams: AdminStageParamsSchema,
      query: AdminDisputeListQuerySchema,
      responses: { 200: DisputeListSchema },
      summary: 'Disputes of one stage',
      description: 'Admin token; paged, optionally by status. 404 for an unknown stage.',
      metadata: read,
    },
    disputesOfTournament: {
      method: 'GET',
      path: `${admin}/disputes/tournament/:tournamentId`,
      pathParams: TournamentParamsSchema,
      query: AdminDisputeListQuerySchema,
      responses: { 200: DisputeListSchema },
      summary: 'Disputes of one tournament',
      description: 'Admin token; paged, optionally by status. 404 for an unknown tournament.',
      metadata: read,
    },
    resolveDispute: {
      method: 'POST',
      path: `${admin}/disputes/:disputeId/resolve`,
      pathParams: DisputeParamsSchema,
      body: ResolveDisputeRequestSchema,
      responses: { 200: ResolveDisputeResponseSchema },
      summary: 'Uphold a dispute with the corrected result (standings recompute) or reject it',
      description:
        'DISPUTE_CLOSED (409) for a dispute that is no longer open; VALIDATION_FAILED when upholding without a result (none proposed either).',
      metadata: write,
    },
    disputes: {
      method: 'GET',
      path: `${admin}/disputes`,
      query: AdminDisputesQuerySchema,
      responses: { 200: DisputeListSchema },
      summary: 'Disputes across tournaments (`status=OPEN` for the queue), oldest first',
      description: 'Admin token; paged, optionally by status.',
      metadata: read,
    },
    automationRun: {
      method: 'POST',
      path: `${admin}/automation/run`,
      body: CloseEmptyBodySchema,
      responses: { 200: AutomationRunSchema },
      summary: 'Run every automation step: timeouts, expired disputes, settle-ready (also a repeating job)',
      description:
        'Each step is idempotent: a second run right after changes nothing. Safe from several instances at once.',
      metadata: write,
    },
    automationSettleReady: {
      method: 'POST',
      path: `${admin}/automation/settle-ready`,
      body: CloseEmptyBodySchema,
      responses: { 200: SettleReadyResponseSchema },
      summary: 'Settle every stage that can proceed',
      description:
        'Admin token. Settles, in order, each stage whose markets all have a settled result, whose window closed and without an open dispute; also run by the automation. A second call changes nothing.',
      metadata: write,
    },
    automationStatus: {
      method: 'GET',
      path: `${admin}/automation/status/:tournamentId`,
      pathParams: TournamentParamsSchema,
      responses: { 200: AutomationStatusSchema },
      summary: 'The automation’s last run, a tournament’s next deadlines and what blocks it',
      description: 'Admin token. 404 for an unknown tournament.',
      metadata: read,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
