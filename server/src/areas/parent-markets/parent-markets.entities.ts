import { ParentMarketEntity, ParentMarketInvitationEntity, ParentMarketMemberEntity } from './parent-market.entity.js';

/** The parent-markets area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const parentMarketsEntities = [
  ParentMarketEntity,
  ParentMarketInvitationEntity,
  ParentMarketMemberEntity,
] as const;
