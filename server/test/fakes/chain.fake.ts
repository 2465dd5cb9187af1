import type { Clock } from '../../src/platform/clock.js';
import { addressOnlyAccount, type ChainHarness } from './chain-harness.js';
import { FakeChainReads } from './chain-reads.fake.js';
import { FakeCollateral } from './collateral.fake.js';
import { InMemoryChain } from './in-memory-chain.js';
import { FakeMarketLifecycle } from './market-lifecycle.fake.js';
import { FakeMarketMembership } from './market-membership.fake.js';
import { FakeMarketTrading } from './market-trading.fake.js';

/** Every chain port's fake over one in-memory chain whose time is `clock`. */
export interface FakeChain extends ChainHarness {
  readonly state: InMemoryChain;
}

/**
 * The chain fakes together, sharing one state: a market the lifecycle fake opens trades on the
 * trading fake, a join on the membership fake lets its member trade.
 *
 * @example
 * const clock = new ManualClock();
 * const chain = fakeChain(clock);
 * const bets = new BetsService({ trading: chain.trading, collateral: chain.collateral, ... });
 */
export function fakeChain(clock: Clock): FakeChain {
  const state = new InMemoryChain(clock);
  return {
    state,
    reads: new FakeChainReads(state),
    collateral: new FakeCollateral(state),
    trading: new FakeMarketTrading(state),
    lifecycle: new FakeMarketLifecycle(state),
    membership: new FakeMarketMembership(state),
    chainTime: () => state.timestamp,
    newAccount: addressOnlyAccount,
  };
}
