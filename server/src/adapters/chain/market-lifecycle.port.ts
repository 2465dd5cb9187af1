import type { Address, Hash, LocalAccount } from 'viem';
import type { Bytes32, ChainMarketStatus, CreateMarketInput, Signer, WriteOptions } from './chain.types.js';

/** A market from creation to settlement or cancellation, and what it pays out. */
export interface MarketLifecyclePort {
  /** Creates a market; keyed by its duelId (a market is created once). */
  createMarket(signer: LocalAccount, input: CreateMarketInput, opts?: WriteOptions): Promise<Hash>;
  /** Resolves a market; keyed by its duelId (a market is resolved once). */
  resolve(signer: Signer, duelId: Bytes32, outcome: number, opts?: WriteOptions): Promise<Hash>;
  /** Settles a resolved market; keyed by its duelId. */
  finalize(signer: Signer, duelId: Bytes32, outcome: number, opts?: WriteOptions): Promise<Hash>;
  /** Cancels a market as the platform; keyed by its duelId. */
  cancel(duelId: Bytes32, opts?: WriteOptions): Promise<Hash>;
  marketStatus(duelId: Bytes32): Promise<ChainMarketStatus>;
  /** Pays a holder their settlement payout or refund (sent by the platform); keyed by (duelId, holder). */
  payout(duelId: Bytes32, holder: Address, opts?: WriteOptions): Promise<Hash>;
  /** Pays a settled market's trading fees to its creator (sent by the platform); keyed by duelId. */
  claimFees(duelId: Bytes32, opts?: WriteOptions): Promise<Hash>;
  /** What `holder` is owed now (payout once settled, refund once cancelled), and whether already paid. */
  owed(duelId: Bytes32, holder: Address): Promise<{ amount: bigint; refund: boolean; paid: boolean }>;
  /** Fees a settled market owes its creator now (0 before settlement and once claimed), and whether claimed. */
  feesOwed(duelId: Bytes32): Promise<{ amount: bigint; claimed: boolean }>;
}
