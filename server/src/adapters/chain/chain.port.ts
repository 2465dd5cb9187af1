import type { ChainReadsPort } from './chain-reads.port.js';
import type { CollateralPort } from './collateral.port.js';
import type { MarketLifecyclePort } from './market-lifecycle.port.js';
import type { MarketMembershipPort } from './market-membership.port.js';
import type { MarketTradingPort } from './market-trading.port.js';

export type {
  Bytes32,
  ChainAddresses,
  ChainInvite,
  ChainMarketStatus,
  CollateralKind,
  CreateMarketInput,
  MarketEvent,
  Signer,
  WriteOptions,
} from './chain.types.js';

/**
 * The EVM chain in domain terms: every port a service may need, as the one viem adapter
 * implements them (the embedded EVM and any RPC) and the container holds them. Services depend on
 * the narrow ports they use (`MarketTradingPort`, `MarketLifecyclePort`, `MarketMembershipPort`,
 * `CollateralPort`, `ChainReadsPort`), each with an in-memory fake in `server/test/fakes/`.
 *
 * Every write is simulated first (a revert becomes a 4xx DomainError), recorded with its signed
 * bytes, then broadcast; it returns the transaction hash once recorded: acceptance, not finality
 * (a slow or unreachable node leaves it pending and the reconciler sends it again). The indexer
 * reads the outcome.
 */
export interface ChainPort
  extends ChainReadsPort, CollateralPort, MarketTradingPort, MarketLifecyclePort, MarketMembershipPort {
  close(): Promise<void>;
}
