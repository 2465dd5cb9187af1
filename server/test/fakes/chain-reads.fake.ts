import type { Hash } from 'viem';
import type { ChainReadsPort } from '../../src/adapters/chain/chain-reads.port.js';
import type { MarketEvent } from '../../src/adapters/chain/chain.types.js';
import type { InMemoryChain } from './in-memory-chain.js';

/** `ChainReadsPort` over an in-memory chain: every write is mined at once and final (no confirmation depth). */
export class FakeChainReads implements ChainReadsPort {
  constructor(private readonly chain: InMemoryChain) {}

  get chainId(): number {
    return this.chain.chainId;
  }

  get addresses() {
    return this.chain.addresses;
  }

  get operator() {
    return this.chain.operator;
  }

  blockNumber(): Promise<bigint> {
    return Promise.resolve(this.chain.head);
  }

  safeHead(): Promise<bigint> {
    return Promise.resolve(this.chain.head);
  }

  marketEvents(from: bigint, to: bigint): Promise<MarketEvent[]> {
    return Promise.resolve(this.chain.events(from, to));
  }

  transactionStatus(hash: Hash): Promise<'pending' | 'success' | 'reverted'> {
    return Promise.resolve(this.chain.transaction(hash) ? 'success' : 'pending');
  }

  transactionEvents(hash: Hash): Promise<MarketEvent[]> {
    return Promise.resolve(this.chain.transaction(hash)?.events ?? []);
  }
}
