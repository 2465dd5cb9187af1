import type { Address, Hash, Hex } from 'viem';
import type { WriteKey } from '../../platform/operation.context.js';

/** A leg as ParlayBook stores it: odds 1e18 fixed point. */
export interface BookLeg {
  readonly conditionId: Hex;
  readonly outcomeId: number;
  readonly odds: bigint;
}

interface BookEventBase {
  readonly txHash: Hash;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  /** Block time, seconds since the epoch. */
  readonly timestamp: number;
}

/** ParlayBook's events, as the parlay indexer applies them. */
export type ParlayBookEvent =
  | (BookEventBase & {
      readonly kind: 'placed';
      readonly ticketId: Hex;
      readonly bettor: Address;
      readonly nonce: bigint;
      readonly stake: bigint;
      readonly fee: bigint;
      readonly payout: bigint;
      readonly liability: bigint;
      readonly legs: readonly BookLeg[];
    })
  | (BookEventBase & {
      readonly kind: 'result';
      readonly conditionId: Hex;
      readonly isVoid: boolean;
      readonly winningOutcome: number;
    })
  | (BookEventBase & {
      readonly kind: 'settled';
      readonly ticketId: Hex;
      readonly status: 'won' | 'lost' | 'void';
      readonly owed: bigint;
      /** What the ticket did to LP cash over its life: net stake − payout (0 when refunded). */
      readonly poolResult: bigint;
    })
  | (BookEventBase & {
      readonly kind: 'claimed';
      readonly ticketId: Hex;
      readonly bettor: Address;
      readonly amount: bigint;
    })
  | (BookEventBase & {
      readonly kind: 'deposit' | 'withdraw';
      readonly owner: Address;
      readonly assets: bigint;
      readonly shares: bigint;
    });

/** The pool as the contract holds it. */
export interface BookPoolState {
  readonly cash: bigint;
  readonly reserved: bigint;
  readonly openLiability: bigint;
  readonly totalAssets: bigint;
  readonly totalSupply: bigint;
  readonly feesAccrued: bigint;
  readonly feesPending: bigint;
}

/** How an operator write of the book is keyed: one chain write per key, ever. */
export interface BookWriteKey {
  readonly key: string;
  readonly write?: WriteKey;
}

/**
 * ParlayBook (server/contracts/ParlayBook.sol): tickets placed by bettors from their own
 * accounts against signed quotes, results posted by the operator, settlement and claims (anyone
 * may submit them; the money goes to the ticket's bettor), and the ERC-4626 pool behind them.
 * Writes go through the chain-transaction pipeline and return once accepted.
 */
export interface ParlayBookPort {
  readonly address: Address;
  /** Events in blocks [from, to], in chain order. */
  events(from: bigint, to: bigint): Promise<ParlayBookEvent[]>;
  postResult(conditionId: Hex, isVoid: boolean, winningOutcome: number, write: BookWriteKey): Promise<Hash>;
  settle(ticketId: Hex, write: BookWriteKey): Promise<Hash>;
  claim(ticketId: Hex, write: BookWriteKey): Promise<Hash>;
  pool(): Promise<BookPoolState>;
}
