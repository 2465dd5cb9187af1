import { getAddress, type Address } from 'viem';
import type { Duel } from '../markets/duel.entity.js';
import { duelPrices } from '../markets/duel.mapper.js';
import { effectiveStatus } from '../markets/duel-state.js';
import type { PackEntryRow, PackMarketRow } from './pack.entities.js';
import type { PackView } from './pack.repository.js';
import type { MarketOutcome } from './pack-scoring.js';
import type { PackDto, PackEntryDto, PackMarketDto, PackSummaryDto } from './pack.types.js';

export const iso = (d: Date | string): string => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null): string | null => (d === null ? null : iso(d));

/** A market of a pack: the pack's row and its duel. */
export interface PackMarketState {
  readonly row: PackMarketRow;
  readonly duel: Duel;
}

/**
 * Where a market stands for the pack. The duel's outcome is the market's outcome; a void is the
 * pack's own (or the duel's cancellation).
 */
export function marketStatus(m: PackMarketState, now: number): PackMarketDto['status'] {
  if (m.row.voidedAt || m.duel.status === 'cancelled') return 'voided';
  if (m.duel.chainState !== 'confirmed') return 'pending';
  switch (effectiveStatus(m.duel, now)) {
    case 'open':
      return 'open';
    case 'pending':
      return 'closed';
    case 'pending_contest':
      return 'resolving';
    case 'settled':
      return 'resolved';
    case 'cancelled':
      return 'voided';
  }
}

/** What a market means for the picks on it. */
export function marketOutcome(m: PackMarketState, now: number): MarketOutcome {
  const status = marketStatus(m, now);
  if (status === 'voided') return { kind: 'voided' };
  if (status === 'resolved' && m.duel.winningOptionIndex !== null) {
    return { kind: 'resolved', winningOptionIndex: m.duel.winningOptionIndex };
  }
  return { kind: 'pending' };
}

export function toPackMarketDto(m: PackMarketState, now: number): PackMarketDto {
  const status = marketStatus(m, now);
  return {
    marketId: m.duel.duelId,
    question: m.duel.question,
    options: m.duel.options,
    status,
    winningOptionIndex: status === 'resolved' ? m.duel.winningOptionIndex : null,
    prices: duelPrices(m.duel).map(String),
    startTime: iso(m.duel.startTime),
    endTime: iso(m.duel.endTime),
    chainState: m.duel.chainState,
    voidReason: m.row.voidReason ?? (m.duel.status === 'cancelled' ? 'the market was cancelled' : null),
    voidedAt: isoOrNull(m.row.voidedAt),
  };
}

export function toPackSummaryDto(p: PackView, vaultAddress: Address): PackSummaryDto {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    category: p.category,
    coverImageUrl: p.coverImageUrl,
    status: p.status,
    collateralStack: p.collateral,
    entryFee: p.entryFee,
    feeBps: p.feeBps,
    lockAt: iso(p.lockAt),
    creatorAddress: getAddress(p.creatorAddress),
    createdBy: p.createdBy,
    poolId: p.poolId,
    vaultAddress,
    entrants: p.entrants,
    prizePool: p.prizePool,
    marketCount: p.marketCount,
    createdAt: iso(p.createdAt),
    publishedAt: isoOrNull(p.publishedAt),
    lockedAt: isoOrNull(p.lockedAt),
    settledAt: isoOrNull(p.settledAt),
    claimedAt: isoOrNull(p.claimedAt),
    cancelledAt: isoOrNull(p.cancelledAt),
    cancelReason: p.cancelReason,
  };
}

export function toPackDto(
  p: PackView,
  vaultAddress: Address,
  markets: readonly PackMarketState[],
  now: number,
): PackDto {
  return {
    ...toPackSummaryDto(p, vaultAddress),
    marketCount: markets.length,
    markets: markets.map((m) => toPackMarketDto(m, now)),
  };
}

export function toEntryDto(e: PackEntryRow): PackEntryDto {
  return {
    packId: e.packId,
    userAddress: getAddress(e.account),
    status: e.status,
    amount: e.amount,
    txHash: e.txHash ?? null,
    failureReason: e.failureReason,
    enteredAt: iso(e.createdAt),
    confirmedAt: isoOrNull(e.confirmedAt),
  };
}
