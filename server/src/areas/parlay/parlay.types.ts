import type { Hex } from 'viem';

/** Catalogue, pricing, quote and risk settings of parlays and the pool (docs/parlays.md). */
export interface ParlaySettings {
  readonly leagues: readonly number[];
  readonly windowHours: number;
  /** Conditions close this long before their game kicks off. */
  readonly minLeadSeconds: number;
  readonly marginBps: number;
  readonly feeBps: number;
  readonly quoteTtlSeconds: number;
  readonly maxDriftBps: number;
  readonly signerKey: Hex;
  readonly bookAddress: Hex | undefined;
  readonly minStake: bigint;
  readonly minLegs: number;
  readonly maxLegs: number;
  readonly maxSameGameLegs: number;
  readonly maxOddsX100: number;
  readonly maxPayout: bigint;
  readonly capPerOutcome: bigint;
  readonly capPerGame: bigint;
  readonly poolPayoutShareBps: number;
  readonly lpLockupSeconds: number;
}

/** A leg as a bettor names it. */
export interface LegInput {
  readonly conditionId: string;
  readonly outcomeId: number;
}
