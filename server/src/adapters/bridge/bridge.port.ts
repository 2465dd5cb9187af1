import type { Address, Hash, LocalAccount } from 'viem';
import type { SqlExec } from '../../platform/db/sql.js';

/** Where a bridged withdrawal stands at the provider. */
export type BridgeTransferStatus = 'pending' | 'completed' | 'failed';

export interface BridgeWithdrawal {
  /** Our withdrawal id: the provider's idempotency key (one transfer per id, ever). */
  readonly withdrawalId: string;
  readonly from: LocalAccount;
  readonly to: Address;
  readonly amount: bigint;
}

/**
 * The bridge provider that takes usdc off the platform's chain to the user's external address.
 * `send` hands the collateral to the bridge (one chain write keyed by the withdrawal id, recorded
 * with `record` in the same transaction); `status` says how the provider's side went.
 */
export interface BridgePort {
  readonly name: string;
  send(
    w: BridgeWithdrawal,
    record: (sql: SqlExec, txHash: Hash) => Promise<void>,
  ): Promise<{ ref: string; txHash: Hash }>;
  /**
   * Puts a completed inbound deposit on chain in the user's managed wallet, once per `eventId`
   * (a provider that delivers on chain by itself answers its own transaction).
   */
  deliverDeposit(
    d: { eventId: string; to: Address; amount: bigint },
    record: (sql: SqlExec, txHash: Hash) => Promise<void>,
  ): Promise<Hash>;
  /** After a failed delivery: gives the collateral back to `from` (once per withdrawal). */
  returnFunds(w: { withdrawalId: string; from: Address; amount: bigint }): Promise<void>;
  status(ref: string, w: { to: Address; sentAt: Date }): Promise<{ status: BridgeTransferStatus; reason?: string }>;
}
