import { BuilderAppEntity, BuilderKeyEntity } from '../builders/builder-key.entity.js';
import { IdempotencyRecordEntity } from '../idempotency/idempotency.entity.js';
import { LeaseEntity } from '../jobs/lease.js';
import { DuelEntity } from '../markets/duel.entity.js';

/** Every entity the ORM knows. Areas add theirs here. */
export const entities = [BuilderAppEntity, BuilderKeyEntity, IdempotencyRecordEntity, LeaseEntity, DuelEntity];
