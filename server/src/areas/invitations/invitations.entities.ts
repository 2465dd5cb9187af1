import { DuelInvitationEntity, DuelMembershipEntity } from './invitation.entity.js';

/** The private-markets area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const invitationsEntities = [DuelInvitationEntity, DuelMembershipEntity] as const;
