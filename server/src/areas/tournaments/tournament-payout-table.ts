import type { Address } from 'viem';
import { payoutTiers } from './tournament-format.js';
import type { TournamentRow } from './tournament.types.js';

const BPS = 10_000n;

export interface PayoutLine {
  readonly wallet: Address;
  readonly placement: number | null;
  readonly tier: string;
  readonly amount: bigint;
}

export interface PayoutTable {
  readonly prizePool: bigint;
  readonly fee: bigint;
  readonly distributable: bigint;
  readonly lines: readonly PayoutLine[];
}

/**
 * The payout table of a finished tournament: the prize pool (every deposit not refunded) minus
 * the platform fee (`feeBps`), split by `payoutBps` over the knockout tiers — the champion, the
 * final's loser, the semi-finals' losers, … — each player of a tier taking the tier's share.
 * Shares a tier cannot fill (fewer players than seats, no champion) and the rounding dust go to
 * the first placed player. Pure: the same standings always give the same table.
 */
export function payoutTable(
  t: Pick<TournamentRow, 'format' | 'totalStages' | 'groupSize' | 'advancePerGroup' | 'feeBps' | 'payoutBps'>,
  prizePool: bigint,
  players: readonly { wallet: Address; placement: number | null; champion: boolean; lastStage: number }[],
): PayoutTable {
  const fee = (prizePool * BigInt(t.feeBps)) / BPS;
  const distributable = prizePool - fee;
  const tiers = payoutTiers(
    { format: t.format, totalStages: t.totalStages, groupSize: t.groupSize, advancePerGroup: t.advancePerGroup },
    t.payoutBps,
  );
  const firstKnockout = t.format === 'KNOCKOUT' ? 1 : 2;
  const tierOf = (p: (typeof players)[number]): number | null => {
    if (p.champion) return 0;
    if (p.lastStage < firstKnockout) return null;
    const tier = t.totalStages - p.lastStage + 1;
    return tier < tiers.length ? tier : null;
  };
  const bpsOf = new Map<Address, { bps: number; tier: string }>();
  let unfilled = 0;
  tiers.forEach((tier, i) => {
    const members = players.filter((p) => tierOf(p) === i);
    const tierBps = tier.shareBpsEach * tier.players;
    if (members.length === 0) {
      unfilled += tierBps;
      return;
    }
    // More players than seats (a final without a winner): they share the tier.
    const each = members.length > tier.players ? Math.floor(tierBps / members.length) : tier.shareBpsEach;
    unfilled += tierBps - each * members.length;
    for (const m of members) bpsOf.set(m.wallet, { bps: each, tier: tier.label });
  });
  const ranked = [...players].sort((a, b) => (a.placement ?? Infinity) - (b.placement ?? Infinity));
  const first = ranked[0];
  if (!first) return { prizePool, fee, distributable, lines: [] };
  if (unfilled > 0) {
    const own = bpsOf.get(first.wallet);
    bpsOf.set(first.wallet, { bps: (own?.bps ?? 0) + unfilled, tier: own?.tier ?? 'First placed' });
  }
  const lines: PayoutLine[] = ranked
    .filter((p) => bpsOf.has(p.wallet))
    .map((p) => {
      const share = bpsOf.get(p.wallet) as { bps: number; tier: string };
      return {
        wallet: p.wallet,
        placement: p.placement,
        tier: share.tier,
        amount: (distributable * BigInt(share.bps)) / BPS,
      };
    });
  const dust = distributable - lines.reduce((sum, l) => sum + l.amount, 0n);
  const head = lines[0];
  if (head && dust > 0n) lines[0] = { ...head, amount: head.amount + dust };
  return { prizePool, fee, distributable, lines: lines.filter((l) => l.amount > 0n) };
}
