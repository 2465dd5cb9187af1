import { EntitySchema } from '@mikro-orm/core';

/** One executed buy or sell, exactly once per (txHash, logIndex). */
export interface TradeRow {
  id: string;
  duelId: string;
  txHash: string;
  logIndex: number;
  blockNumber: string;
  trader: string;
  side: 'buy' | 'sell';
  optionIndex: number;
  /** Collateral in (buy: the investment) or out (sell: the return), base units. */
  collateral: string;
  fee: string;
  shares: string;
  createdAt: Date;
}

export const TradeEntity = new EntitySchema<TradeRow>({
  name: 'Trade',
  tableName: 'trades',
  uniques: [{ name: 'trades_tx_log_unique', properties: ['txHash', 'logIndex'] }],
  indexes: [
    { name: 'trades_duel_created_idx', properties: ['duelId', 'createdAt'] },
    { name: 'trades_trader_idx', properties: ['trader'] },
    { name: 'trades_created_at_idx', properties: ['createdAt'] }, // analytics charts (Migration20261123100000Analytics)
    { name: 'trades_created_id_idx', properties: ['createdAt', 'id'] }, // the bets report's keyset order
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    duelId: { type: 'string', length: 66 },
    txHash: { type: 'string', length: 66 },
    logIndex: { type: 'integer' },
    blockNumber: { type: 'bigint' },
    trader: { type: 'string', length: 42 },
    side: { type: 'string', length: 4 },
    optionIndex: { type: 'smallint' },
    collateral: { type: 'decimal', columnType: 'numeric(78,0)' },
    fee: { type: 'decimal', columnType: 'numeric(78,0)' },
    shares: { type: 'decimal', columnType: 'numeric(78,0)' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Shares a holder has of one option, and what they paid net of sales. */
export interface PositionRow {
  duelId: string;
  holder: string;
  optionIndex: number;
  shares: string;
  costBasis: string;
}

export const PositionEntity = new EntitySchema<PositionRow>({
  name: 'Position',
  tableName: 'positions',
  properties: {
    duelId: { type: 'string', length: 66, primary: true },
    holder: { type: 'string', length: 42, primary: true },
    optionIndex: { type: 'smallint', primary: true },
    shares: { type: 'decimal', columnType: 'numeric(78,0)' },
    costBasis: { type: 'decimal', columnType: 'numeric(78,0)' },
  },
});

/** How far an indexer has read a chain. */
export interface ChainCursorRow {
  name: string;
  lastBlock: string;
}

export const ChainCursorEntity = new EntitySchema<ChainCursorRow>({
  name: 'ChainCursor',
  tableName: 'chain_cursors',
  properties: {
    name: { type: 'string', length: 100, primary: true },
    lastBlock: { type: 'bigint' },
  },
});
