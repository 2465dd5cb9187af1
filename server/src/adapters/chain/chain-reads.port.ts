import type { Address, Hash } from 'viem';
import type { ChainAddresses, MarketEvent } from './chain.types.js';

/** What the chain is and what happened on it: identity, heads, market events, a write's outcome. */
export interface ChainReadsPort {
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  readonly operator: Address;
  blockNumber(): Promise<bigint>;
  /** The newest block deep enough to count as final (head minus the confirmation depth). */
  safeHead(): Promise<bigint>;
  /** Market events in blocks [from, to], in chain order. */
  marketEvents(from: bigint, to: bigint): Promise<MarketEvent[]>;
  /** Status of a sent transaction: pending (no receipt yet), success or reverted. */
  transactionStatus(hash: Hash): Promise<'pending' | 'success' | 'reverted'>;
  /** Market events emitted by one mined transaction (empty while it is pending). */
  transactionEvents(hash: Hash): Promise<MarketEvent[]>;
}
