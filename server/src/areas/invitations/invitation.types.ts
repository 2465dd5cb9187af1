import type { marketsContract } from '@duelkit/contract';
import type { ServerInferRequest, ServerInferResponseBody } from '@ts-rest/core';

type Routes = typeof marketsContract.invitations;

/** Wire shapes of §4.8, taken from the contract so the service cannot drift from it. */
export type InvitationDto = ServerInferResponseBody<Routes['create'], 200>;
export type MembershipDto = ServerInferResponseBody<Routes['userJoin'], 200>;
export type MembershipCheckDto = ServerInferResponseBody<Routes['membership'], 200>;
export type MembershipPageDto = ServerInferResponseBody<Routes['memberships'], 200>;
export type DuelInvitationsDto = ServerInferResponseBody<Routes['byDuel'], 200>;
export type ValidateInviteDto = ServerInferResponseBody<Routes['validateInvite'], 200>;
export type OnChainInvitationDto = ServerInferResponseBody<Routes['byCode'], 200>;
export type RevokeDto = ServerInferResponseBody<Routes['revoke'], 200>;
export type RemoveMemberDto = ServerInferResponseBody<Routes['removeMember'], 200>;

export type CreateInvitationInput = ServerInferRequest<Routes['create']>['body'];
export type JoinInput = ServerInferRequest<Routes['userJoin']>['body'];
export type MemberMutationInput = ServerInferRequest<Routes['addMember']>['body'];
export type SyncJoinInput = ServerInferRequest<Routes['syncJoinSuccess']>['body'];
export type RevokeInput = ServerInferRequest<Routes['revoke']>['body'];

/** The caller of a §4.8 write. */
export interface Caller {
  readonly userId: string;
  /** Managed wallet address. */
  readonly address: string;
  /** The EOA that signed in (a frontend may join with it). */
  readonly eoaAddress?: string | undefined;
}
