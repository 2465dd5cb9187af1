import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  CreateInvitationRequestSchema,
  DuelInvitationsResponseSchema,
  InvitationSchema,
  InviteCodeParamsSchema,
  JoinRequestSchema,
  MemberMutationRequestSchema,
  MembershipCheckSchema,
  MembershipParamsSchema,
  MembershipSchema,
  MembershipsQuerySchema,
  MembershipsResponseSchema,
  OnChainInvitationSchema,
  RemoveMemberResponseSchema,
  RevokeRequestSchema,
  RevokeResponseSchema,
  SyncJoinRequestSchema,
  UserAddressParamsSchema,
  ValidateInviteRequestSchema,
  ValidateInviteResponseSchema,
} from './invitations.schemas.js';
import { DuelIdParamsSchema } from './duels.schemas.js';

const tag = 'Duel invitations';
const base = '/svc/user/duel-invitations';

/** §4.8 private markets: invitations (on chain and in the database), joins and memberships. */
export const invitationsContract = c.router({
  create: {
    method: 'POST',
    path: `${base}/create`,
    body: CreateInvitationRequestSchema,
    responses: { 200: InvitationSchema },
    summary: 'Create an invitation code for your private duel, on chain (signed by your managed wallet) and recorded',
    description:
      'Creator only (403 FORBIDDEN otherwise); private duels only (409 INVALID_STATE). INVITE_CODE_TAKEN when a chosen code exists.',
    metadata: meta(tag, '4.8', 'bearer', { idempotent: true }),
  },
  join: {
    method: 'POST',
    path: `${base}/join`,
    body: JoinRequestSchema,
    responses: { 200: MembershipSchema },
    summary: 'Legacy server-signer join: the platform account joins the caller with the code (joinFor)',
    description:
      'Joins the caller only. Fails with INVITE_NOT_FOUND, INVITE_EXPIRED, INVITE_EXHAUSTED, INVITE_REVOKED or ALREADY_MEMBER. Accepted, not final.',
    metadata: meta(tag, '4.8', 'bearer', { idempotent: true }),
  },
  userJoin: {
    method: 'POST',
    path: `${base}/user-join`,
    body: JoinRequestSchema,
    responses: { 200: MembershipSchema },
    summary: 'Join with the caller’s managed wallet signing join(duelId, codeHash), recorded in the same call',
    description:
      'A use of the code is reserved atomically before the transaction is sent and given back when the chain refuses, so maxUses holds under concurrency. ' +
      'Fails with INVITE_NOT_FOUND, INVITE_EXPIRED, INVITE_EXHAUSTED, INVITE_REVOKED or ALREADY_MEMBER.',
    metadata: meta(tag, '4.8', 'bearer', { idempotent: true }),
  },
  addMember: {
    method: 'POST',
    path: `${base}/add-member`,
    body: MemberMutationRequestSchema,
    responses: { 200: MembershipSchema },
    summary: 'Add a member to your private duel (creator only)',
    metadata: meta(tag, '4.8', 'bearer', { idempotent: true }),
  },
  removeMember: {
    method: 'POST',
    path: `${base}/remove-member`,
    body: MemberMutationRequestSchema,
    responses: { 200: RemoveMemberResponseSchema },
    summary: 'Remove a member from your private duel (creator only; the creator cannot be removed)',
    description: 'NOT_MEMBER when the address is not a member. Positions stay; the member can no longer trade.',
    metadata: meta(tag, '4.8', 'bearer', { repeatable: true }),
  },
  membership: {
    method: 'GET',
    path: `${base}/membership/:duelId/:userAddress`,
    pathParams: MembershipParamsSchema,
    responses: { 200: MembershipCheckSchema },
    summary: 'Is this address a member? Database first, then the chain',
    metadata: meta(tag, '4.8', 'public'),
  },
  memberships: {
    method: 'GET',
    path: `${base}/memberships/:userAddress`,
    pathParams: UserAddressParamsSchema,
    query: MembershipsQuerySchema,
    responses: { 200: MembershipsResponseSchema },
    summary: 'Private duels this address is a member of, newest first',
    metadata: meta(tag, '4.8', 'public'),
  },
  byDuel: {
    method: 'GET',
    path: `${base}/duel/:duelId`,
    pathParams: DuelIdParamsSchema,
    responses: { 200: DuelInvitationsResponseSchema },
    summary: 'Active invitations of a duel: the codes for its creator (bearer token), only the count for anyone else',
    metadata: meta(tag, '4.8', 'public', { personalised: true }),
  },
  validateInvite: {
    method: 'POST',
    path: `${base}/validate-invite`,
    body: ValidateInviteRequestSchema,
    responses: { 200: ValidateInviteResponseSchema },
    summary: 'Check a code before joining: valid with its duel, or the reason it is not',
    metadata: meta(tag, '4.8', 'public', { repeatable: true }),
  },
  syncJoinSuccess: {
    method: 'POST',
    path: `${base}/sync-join-success`,
    body: SyncJoinRequestSchema,
    responses: { 200: MembershipSchema },
    summary: 'Record a join a frontend sent on chain itself, after verifying the transaction',
    description:
      'The receipt must be successful and carry MemberAdded for this duel and the caller (managed wallet or signing EOA). ' +
      'JOIN_TX_PENDING (409) while not mined; JOIN_NOT_VERIFIED (400) otherwise. Repeating it is harmless.',
    metadata: meta(tag, '4.8', 'bearer', { repeatable: true }),
  },
  revoke: {
    method: 'POST',
    path: `${base}/revoke`,
    body: RevokeRequestSchema,
    responses: { 200: RevokeResponseSchema },
    summary: 'Revoke a code of your private duel, in the database at once and on chain',
    metadata: meta(tag, '4.8', 'bearer', { repeatable: true }),
  },
  byCode: {
    method: 'GET',
    path: `${base}/:inviteCode`,
    pathParams: InviteCodeParamsSchema,
    responses: { 200: OnChainInvitationSchema },
    summary: 'On-chain data of an invitation, with its duel id',
    metadata: meta(tag, '4.8', 'public'),
  },
});
