import { ProtocolStatsEntity } from './protocol-stats.entity.js';

/** The analytics area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const analyticsEntities = [ProtocolStatsEntity] as const;
