import { getAddress, type Address, type Hash, type LocalAccount } from 'viem';
import type {
  Bytes32,
  ChainMarketStatus,
  CreateMarketInput,
  Signer,
  WriteOptions,
} from '../../src/adapters/chain/chain.types.js';
import type { MarketLifecyclePort } from '../../src/adapters/chain/market-lifecycle.port.js';
import { revertError } from '../../src/adapters/chain/revert-errors.js';
import { MIN_STAKE } from '../../src/areas/markets/fpmm.math.js';
import type { InMemoryChain } from './in-memory-chain.js';

/**
 * `MarketLifecyclePort` over an in-memory chain, rule for rule the contract's: a market opens
 * funded with equal pool balances, resolves after its end time, settles after the contest period,
 * and pays each holder once (winning shares, or the net deposit once cancelled; the creator also
 * takes the pool's share or the funding). Keys are the adapter's (`markets.create:<duelId>`, ...).
 */
export class FakeMarketLifecycle implements MarketLifecyclePort {
  constructor(private readonly chain: InMemoryChain) {}

  createMarket(signer: LocalAccount, input: CreateMarketInput, opts?: WriteOptions): Promise<Hash> {
    const creator = this.chain.accountOf(signer);
    const duelId = input.duelId.toLowerCase() as Bytes32;
    return this.chain.write(
      {
        from: creator,
        naturalKey: `markets.create:${input.duelId}`,
        debit: { stack: input.collateral, amount: input.funding, refusal: 'INSUFFICIENT_CREDITS' },
        apply: () => {
          const now = this.chain.timestamp;
          if (this.chain.markets.has(duelId)) throw revertError('MarketExists');
          if (input.options < 2 || input.options > 8) throw revertError('InvalidOptions', [input.options]);
          if (input.endTime <= input.startTime) throw revertError('EndBeforeStart');
          if (input.startTime < now + input.minLeadSeconds) {
            throw revertError('StartTimeTooSoon', [now + input.minLeadSeconds]);
          }
          if (input.funding < MIN_STAKE) throw revertError('BelowMinimum', [MIN_STAKE.toString()]);
          if (input.feeBps > 1_000) throw revertError('FeeTooHigh', [input.feeBps]);
          this.chain.move(input.collateral, creator, this.chain.addresses.markets, input.funding);
          this.chain.markets.set(duelId, {
            creator,
            collateral: input.collateral,
            startTime: input.startTime,
            endTime: input.endTime,
            feeBps: input.feeBps,
            isPrivate: input.isPrivate,
            funding: input.funding,
            contestPeriod: input.contestPeriodSeconds,
            status: 'open',
            balances: Array.from({ length: input.options }, () => input.funding),
            outcome: 0,
            resolvedAt: 0,
            fees: 0n,
            held: input.funding,
            feesClaimed: false,
          });
          if (input.isPrivate) this.chain.setMember(duelId, creator, true);
          return [{ kind: 'created', duelId, creator, options: input.options, funding: input.funding }];
        },
      },
      opts,
    );
  }

  resolve(signer: Signer, duelId: Bytes32, outcome: number, opts?: WriteOptions): Promise<Hash> {
    const from = this.chain.accountOf(signer);
    return this.chain.write(
      {
        from,
        naturalKey: `markets.resolve:${duelId}`,
        apply: () => {
          const m = this.chain.known(duelId);
          this.chain.assertCreatorOrPlatform(m, from);
          if (m.status !== 'open') throw revertError('MarketNotOpen');
          const now = this.chain.timestamp;
          if (now < m.endTime) throw revertError('MarketNotEnded', [m.endTime]);
          if (outcome >= m.balances.length) throw revertError('InvalidOption', [outcome]);
          m.outcome = outcome;
          m.resolvedAt = now;
          if (m.contestPeriod === 0) {
            m.status = 'settled';
            return [
              { kind: 'resolved', duelId, outcome, contestEndsAt: now },
              { kind: 'settled', duelId, outcome },
            ];
          }
          m.status = 'resolved';
          return [{ kind: 'resolved', duelId, outcome, contestEndsAt: now + m.contestPeriod }];
        },
      },
      opts,
    );
  }

  finalize(signer: Signer, duelId: Bytes32, outcome: number, opts?: WriteOptions): Promise<Hash> {
    const from = this.chain.accountOf(signer);
    return this.chain.write(
      {
        from,
        naturalKey: `markets.finalize:${duelId}`,
        apply: () => {
          const m = this.chain.known(duelId);
          this.chain.assertCreatorOrPlatform(m, from);
          if (m.status !== 'resolved') throw revertError('MarketNotOpen');
          const endsAt = m.resolvedAt + m.contestPeriod;
          if (this.chain.timestamp < endsAt) throw revertError('ContestPeriodActive', [endsAt]);
          if (outcome >= m.balances.length) throw revertError('InvalidOption', [outcome]);
          m.outcome = outcome;
          m.status = 'settled';
          return [{ kind: 'settled', duelId, outcome }];
        },
      },
      opts,
    );
  }

  cancel(duelId: Bytes32, opts?: WriteOptions): Promise<Hash> {
    return this.chain.write(
      {
        from: this.chain.operator,
        naturalKey: `markets.cancel:${duelId}`,
        apply: () => {
          const m = this.chain.known(duelId);
          if (m.status !== 'open' && m.status !== 'resolved') throw revertError('MarketNotOpen');
          m.status = 'cancelled';
          return [{ kind: 'cancelled', duelId }];
        },
      },
      opts,
    );
  }

  marketStatus(duelId: Bytes32): Promise<ChainMarketStatus> {
    return Promise.resolve(this.chain.markets.get(duelId.toLowerCase() as Bytes32)?.status ?? 'none');
  }

  payout(duelId: Bytes32, holder: Address, opts?: WriteOptions): Promise<Hash> {
    const to = getAddress(holder);
    return this.chain.write(
      {
        from: this.chain.operator,
        naturalKey: `markets.payout:${duelId}:${holder.toLowerCase()}`,
        apply: () => {
          const m = this.chain.known(duelId);
          if (m.status !== 'settled' && m.status !== 'cancelled') throw revertError('MarketNotOpen');
          if (this.chain.isPaid(duelId, to)) throw revertError('AlreadyPaid');
          const { amount, refund } = this.owedNow(duelId, to);
          this.chain.markPaid(duelId, to);
          m.held -= amount;
          if (amount > 0n) this.chain.move(m.collateral, this.chain.addresses.markets, to, amount);
          return [{ kind: 'paid', duelId, holder: to, amount, refund }];
        },
      },
      opts,
    );
  }

  claimFees(duelId: Bytes32, opts?: WriteOptions): Promise<Hash> {
    return this.chain.write(
      {
        from: this.chain.operator,
        naturalKey: `markets.claim_fees:${duelId}`,
        apply: () => {
          const m = this.chain.known(duelId);
          if (m.status !== 'settled') throw revertError('MarketNotOpen');
          if (m.feesClaimed) throw revertError('FeesAlreadyClaimed');
          const amount = m.fees > m.held ? m.held : m.fees;
          m.feesClaimed = true;
          m.held -= amount;
          if (amount > 0n) this.chain.move(m.collateral, this.chain.addresses.markets, m.creator, amount);
          return [];
        },
      },
      opts,
    );
  }

  owed(duelId: Bytes32, holder: Address): Promise<{ amount: bigint; refund: boolean; paid: boolean }> {
    const to = getAddress(holder);
    const paid = this.chain.isPaid(duelId, to);
    return Promise.resolve({ ...this.owedNow(duelId, to), paid });
  }

  feesOwed(duelId: Bytes32): Promise<{ amount: bigint; claimed: boolean }> {
    const m = this.chain.markets.get(duelId.toLowerCase() as Bytes32);
    const claimed = m?.feesClaimed ?? false;
    if (!m || claimed || m.status !== 'settled') return Promise.resolve({ amount: 0n, claimed });
    return Promise.resolve({ amount: m.fees > m.held ? m.held : m.fees, claimed });
  }

  /** The contract's `owed`. */
  private owedNow(duelId: Bytes32, holder: Address): { amount: bigint; refund: boolean } {
    const m = this.chain.markets.get(duelId.toLowerCase() as Bytes32);
    if (!m || this.chain.isPaid(duelId, holder)) return { amount: 0n, refund: false };
    const isCreator = holder === getAddress(m.creator);
    let amount: bigint;
    let refund = false;
    if (m.status === 'settled') {
      amount = this.chain.shares(duelId, holder, m.outcome) + (isCreator ? (m.balances[m.outcome] ?? 0n) : 0n);
    } else if (m.status === 'cancelled') {
      const net = this.chain.netDeposit(duelId, holder);
      amount = (net > 0n ? net : 0n) + (isCreator ? m.funding : 0n);
      refund = true;
    } else {
      return { amount: 0n, refund: false };
    }
    return { amount: amount > m.held ? m.held : amount, refund };
  }
}
