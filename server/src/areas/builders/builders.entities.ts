import { BuilderAppEntity, BuilderKeyEntity } from './builder-key.entity.js';

/** The builders area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const buildersEntities = [BuilderAppEntity, BuilderKeyEntity] as const;
