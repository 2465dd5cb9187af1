import { DuelEntity } from './duel.entity.js';
import { PriceSnapshotEntity } from './price-snapshot.entity.js';
import { ChainCursorEntity, PositionEntity, TradeEntity } from './trade.entities.js';

/** The markets area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const marketsEntities = [
  DuelEntity,
  TradeEntity,
  PositionEntity,
  ChainCursorEntity,
  PriceSnapshotEntity,
] as const;
