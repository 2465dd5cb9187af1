import { PackClaimRunEntity, PackEntity, PackEntryEntity, PackMarketEntity, PackPickEntity } from './pack.entities.js';

/** The packs area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const packsEntities = [
  PackEntity,
  PackMarketEntity,
  PackEntryEntity,
  PackPickEntity,
  PackClaimRunEntity,
] as const;
