import { getAddress, type Address, type Hash } from 'viem';
import type { ChainPort } from '../chain/chain.port.js';
import type { Clock } from '../../platform/clock.js';
import type { SqlExec } from '../../platform/db/sql.js';
import type { BridgePort, BridgeTransferStatus, BridgeWithdrawal } from './bridge.port.js';

export interface SimulatedBridgeOptions {
  /** How long the simulated provider takes to deliver, ms. */
  readonly delayMs: number;
  /** Destinations the simulated provider fails to deliver to (to exercise the failure path). */
  readonly failTo: readonly string[];
  /** Where the bridge holds what it received (the operator on the embedded chain). */
  readonly escrow: Address;
}

/**
 * The bridge of embedded mode and tests: the usdc really leaves the managed wallet on chain (to the
 * bridge's escrow), and the "other side" completes `delayMs` after sending, or fails for the
 * configured destinations. Stateless beyond the chain, so it survives restarts.
 */
export class SimulatedBridgeAdapter implements BridgePort {
  readonly name = 'simulator';
  private readonly failTo: Set<string>;

  constructor(
    private readonly chain: Pick<ChainPort, 'transfer' | 'mint'>,
    private readonly clock: Clock,
    private readonly options: SimulatedBridgeOptions,
  ) {
    this.failTo = new Set(options.failTo.map((a) => a.toLowerCase()));
  }

  async send(w: BridgeWithdrawal, record: (sql: SqlExec, txHash: Hash) => Promise<void>) {
    const txHash = await this.chain.transfer(w.from, 'usdc', getAddress(this.options.escrow), w.amount, {
      key: `bridge.withdraw:${w.withdrawalId}`,
      record,
    });
    return { ref: `sim_${w.withdrawalId}`, txHash };
  }

  deliverDeposit(
    d: { eventId: string; to: Address; amount: bigint },
    record: (sql: SqlExec, txHash: Hash) => Promise<void>,
  ) {
    // The simulated provider's bridged usdc appears in the wallet as a mint on the test chain.
    return this.chain.mint('usdc', d.to, d.amount, { key: `bridge.deposit:${d.eventId}`, record });
  }

  async returnFunds(w: { withdrawalId: string; from: Address; amount: bigint }): Promise<void> {
    // The test chain's usdc is mintable by the operator: the escrow "sends it back" as a fresh mint.
    await this.chain.mint('usdc', w.from, w.amount, { key: `bridge.return:${w.withdrawalId}` });
  }

  status(_ref: string, w: { to: Address; sentAt: Date }): Promise<{ status: BridgeTransferStatus; reason?: string }> {
    if (this.clock.now() < w.sentAt.getTime() + this.options.delayMs) return Promise.resolve({ status: 'pending' });
    if (this.failTo.has(w.to.toLowerCase())) {
      return Promise.resolve({ status: 'failed', reason: 'The simulated bridge could not deliver to this address' });
    }
    return Promise.resolve({ status: 'completed' });
  }
}
