import type { DuelDto } from '@duelkit/contract';
import { getAddress } from 'viem';
import { percentage, prices } from './fpmm.math.js';
import type { Duel } from './duel.entity.js';

/** Marginal prices of a duel's pool (1e18-scaled), or an even split before the chain confirmed it. */
export function duelPrices(duel: Pick<Duel, 'poolBalances' | 'options'>): bigint[] {
  const balances = duel.poolBalances.map((b) => BigInt(b));
  if (balances.length >= 2 && balances.every((b) => b > 0n)) return prices(balances);
  const n = BigInt(duel.options.length);
  return duel.options.map(() => 10n ** 18n / n);
}

const iso = (d: Date | string): string => new Date(d).toISOString();

/** The wire shape of a duel row; amounts stay decimal strings, times become ISO-8601. */
export function toDuelDto(duel: Duel, userParticipated?: boolean): DuelDto {
  const p = duelPrices(duel);
  return {
    id: duel.id,
    duelId: duel.duelId,
    question: duel.question,
    description: duel.description,
    category: duel.category,
    tags: duel.tags,
    options: duel.options,
    duelType: duel.duelType,
    collateralStack: duel.collateralStack,
    isPrivate: duel.isPrivate,
    leagueId: duel.leagueId,
    parentMarketId: duel.parentMarketId,
    coverImageUrl: duel.coverImageUrl,
    creatorAddress: getAddress(duel.creatorAddress),
    startTime: iso(duel.startTime),
    endTime: iso(duel.endTime),
    createdAt: iso(duel.createdAt),
    status: duel.status,
    chainState: duel.chainState,
    txHash: duel.txHash,
    chainError: duel.chainError,
    winningOptionIndex: duel.winningOptionIndex,
    poolBalances: duel.poolBalances,
    prices: p.map(String),
    yesPercentage: percentage(p[0] ?? 0n),
    totalVolume: String(duel.totalVolume),
    uniqueParticipants: duel.uniqueParticipants,
    extMarketId: duel.extMarketId,
    extMarketVolume24h: duel.extVolume24h === null ? null : String(duel.extVolume24h),
    extLive: duel.extLive,
    isCanonical: duel.isCanonical,
    ...(userParticipated === undefined ? {} : { userParticipated }),
  };
}
