import type { marketsContract } from '@duelkit/contract';
import type { ServerInferRequest, ServerInferResponseBody } from '@ts-rest/core';

type Routes = typeof marketsContract.parentMarkets;

/** Wire shapes of §4.9, taken from the contract. */
export type CreateParentMarketInput = ServerInferRequest<Routes['create']>['body'];
export type ChildInput = ServerInferRequest<Routes['addDuel']>['body'];
export type CreateParentInvitationInput = ServerInferRequest<Routes['createInvitation']>['body'];
export type CreateParentMarketDto = ServerInferResponseBody<Routes['create'], 201>;
export type ChildResultDto = CreateParentMarketDto['results'][number];
export type ParentMarketDto = ServerInferResponseBody<Routes['get'], 200>;
export type ParentInvitationDto = ServerInferResponseBody<Routes['createInvitation'], 201>;
export type JoinParentDto = ServerInferResponseBody<Routes['join'], 200>;
export type AddChildDto = ServerInferResponseBody<Routes['addDuel'], 201>;
export type ParentMembersDto = ServerInferResponseBody<Routes['members'], 200>;
export type ValidateParentInviteDto = ServerInferResponseBody<Routes['validateInvite'], 200>;
export type AccessibleDto = ServerInferResponseBody<Routes['accessible'], 200>;
