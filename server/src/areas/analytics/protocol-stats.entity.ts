import { EntitySchema } from '@mikro-orm/core';

/** One stored snapshot of the platform's confirmed public markets (§4.10); rows are only ever inserted. */
export interface ProtocolStatsRow {
  id: string;
  computedAt: Date;
  /** Base-unit amounts as decimal strings. */
  totalVolume: string;
  volume24h: string;
  previousVolume24h: string;
  totalFees: string;
  totalTrades: number;
  trades24h: number;
  totalUsers: number;
  activeUsers24h: number;
  totalCreators: number;
  totalDuels: number;
  activeDuels: number;
  settledDuels: number;
  cancelledDuels: number;
}

export const ProtocolStatsEntity = new EntitySchema<ProtocolStatsRow>({
  name: 'ProtocolStats',
  tableName: 'protocol_stats',
  indexes: [{ name: 'protocol_stats_computed_at_idx', properties: ['computedAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    computedAt: { type: 'Date', columnType: 'timestamptz' },
    totalVolume: { type: 'decimal', columnType: 'numeric(78,0)' },
    volume24h: { type: 'decimal', columnType: 'numeric(78,0)' },
    previousVolume24h: { type: 'decimal', columnType: 'numeric(78,0)' },
    totalFees: { type: 'decimal', columnType: 'numeric(78,0)' },
    totalTrades: { type: 'integer' },
    trades24h: { type: 'integer' },
    totalUsers: { type: 'integer' },
    activeUsers24h: { type: 'integer' },
    totalCreators: { type: 'integer' },
    totalDuels: { type: 'integer' },
    activeDuels: { type: 'integer' },
    settledDuels: { type: 'integer' },
    cancelledDuels: { type: 'integer' },
  },
});
