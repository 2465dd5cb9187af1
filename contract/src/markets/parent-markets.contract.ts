import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  AccessibleQuerySchema,
  AccessibleResponseSchema,
  AddChildRequestSchema,
  AddChildResponseSchema,
  CreateParentInvitationRequestSchema,
  CreateParentMarketRequestSchema,
  CreateParentMarketResponseSchema,
  JoinParentRequestSchema,
  JoinParentResponseSchema,
  ParentGetQuerySchema,
  ParentIdParamsSchema,
  ParentInvitationSchema,
  ParentInvitationsResponseSchema,
  ParentMarketSchema,
  ParentMembersResponseSchema,
  ValidateParentInviteRequestSchema,
  ValidateParentInviteResponseSchema,
} from './parent-markets.schemas.js';

const tag = 'Parent markets';
const base = '/svc/user/parent-markets';

/** §4.9 parent markets: a group of sub-markets (duels), with parent-level invitations. */
export const parentMarketsContract = c.router({
  create: {
    method: 'POST',
    path: `${base}/create`,
    body: CreateParentMarketRequestSchema,
    responses: { 201: CreateParentMarketResponseSchema },
    summary: 'Create a parent market and its sub-markets on chain; per-sub-market results',
    description:
      'Sub-markets are created in order, each like duels/create. 201 when at least one was created (failed ones are listed with their error code); ' +
      'ALL_CHILDREN_FAILED (400, `details.results`) when none was, and then no parent is kept.',
    metadata: meta(tag, '4.9', 'bearer', {
      idempotent: true,
      geo: { collateralFrom: 'body.markets[].collateralStack' },
    }),
  },
  createInvitation: {
    method: 'POST',
    path: `${base}/create-invitation`,
    body: CreateParentInvitationRequestSchema,
    responses: { 201: ParentInvitationSchema },
    summary: 'A parent-level code: joining with it grants membership in every private sub-market (creator only)',
    metadata: meta(tag, '4.9', 'bearer', { idempotent: true }),
  },
  join: {
    method: 'POST',
    path: `${base}/join`,
    body: JoinParentRequestSchema,
    responses: { 200: JoinParentResponseSchema },
    summary: 'Join a parent market with its code: the platform adds you to every private sub-market on chain',
    description: 'INVITE_* codes as for duel invitations; ALREADY_MEMBER when already a member of the parent.',
    metadata: meta(tag, '4.9', 'bearer', { idempotent: true }),
  },
  addDuel: {
    method: 'POST',
    path: `${base}/:id/add-duel`,
    pathParams: ParentIdParamsSchema,
    body: AddChildRequestSchema,
    responses: { 201: AddChildResponseSchema },
    summary: 'Add a sub-market to your parent market (creator only)',
    metadata: meta(tag, '4.9', 'bearer', { idempotent: true, geo: { collateralFrom: 'body.collateralStack' } }),
  },
  // Declared before `/:id` so the literal segment wins.
  accessible: {
    method: 'GET',
    path: `${base}/accessible`,
    query: AccessibleQuerySchema,
    responses: { 200: AccessibleResponseSchema },
    summary: 'Parent markets the caller can see (public ones, and private ones they created or joined), newest first',
    metadata: meta(tag, '4.9', 'bearer'),
  },
  get: {
    method: 'GET',
    path: `${base}/:id`,
    pathParams: ParentIdParamsSchema,
    query: ParentGetQuerySchema,
    responses: { 200: ParentMarketSchema },
    summary: 'A parent market with the sub-markets the caller may see',
    description:
      'Private sub-markets (and a private parent) are shown to their creator and members only, identified by a bearer token when sent; PRIVATE_MARKET for a private parent otherwise.',
    metadata: meta(tag, '4.9', 'public', { personalised: true }),
  },
  invitations: {
    method: 'GET',
    path: `${base}/:id/invitations`,
    pathParams: ParentIdParamsSchema,
    responses: { 200: ParentInvitationsResponseSchema },
    summary: 'Active parent-level codes (creator only)',
    metadata: meta(tag, '4.9', 'bearer'),
  },
  members: {
    method: 'GET',
    path: `${base}/:id/members`,
    pathParams: ParentIdParamsSchema,
    responses: { 200: ParentMembersResponseSchema },
    summary: 'Active members of a parent market (the creator first); a private parent’s only for those who see it',
    metadata: meta(tag, '4.9', 'public', { personalised: true }),
  },
  validateInvite: {
    method: 'POST',
    path: `${base}/validate-invite`,
    body: ValidateParentInviteRequestSchema,
    responses: { 200: ValidateParentInviteResponseSchema },
    summary: 'Check a parent-level code before joining',
    metadata: meta(tag, '4.9', 'public', { repeatable: true }),
  },
});
