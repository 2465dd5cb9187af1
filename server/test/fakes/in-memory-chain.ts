import { createHash } from 'node:crypto';
import { getAddress, type Address, type Hash } from 'viem';
import type {
  Bytes32,
  ChainAddresses,
  ChainMarketStatus,
  CollateralKind,
  MarketEvent,
  Signer,
  WriteOptions,
} from '../../src/adapters/chain/chain.types.js';
import { revertError } from '../../src/adapters/chain/revert-errors.js';
import { DomainError } from '../../src/errors.js';
import type { Clock } from '../../src/platform/clock.js';
import type { SqlExec } from '../../src/platform/db/sql.js';

/** What a write spends before it is sent: the pipeline refuses it with `refusal` when the wallet cannot fund it. */
export interface FakeDebit {
  readonly stack: CollateralKind;
  readonly amount: bigint;
  readonly refusal: 'INSUFFICIENT_CREDITS' | 'INSUFFICIENT_BALANCE';
}

/** A write as the fakes see it: its natural key (the adapter's), what it spends, and its effect. */
export interface FakeWrite {
  readonly from: Address;
  readonly naturalKey?: string;
  readonly debit?: FakeDebit;
  /** Checks like the contract (throws `revertError(...)`), then changes the state; returns the events it emits. */
  readonly apply: () => Omit<MarketEvent, 'txHash' | 'logIndex' | 'blockNumber' | 'timestamp'>[];
}

export interface FakeMarket {
  readonly creator: Address;
  readonly collateral: CollateralKind;
  readonly startTime: number;
  readonly endTime: number;
  readonly feeBps: number;
  readonly isPrivate: boolean;
  readonly funding: bigint;
  readonly contestPeriod: number;
  status: Exclude<ChainMarketStatus, 'none'>;
  balances: bigint[];
  outcome: number;
  resolvedAt: number;
  fees: bigint;
  held: bigint;
  feesClaimed: boolean;
}

export interface FakeInvite {
  maxUses: number;
  uses: number;
  expiresAt: number;
  revoked: boolean;
}

/** The fakes have no database: a `record` hook that runs SQL itself fails loudly. */
const NO_SQL: SqlExec = () =>
  Promise.reject(new Error('The chain fakes have no database: a record hook must go through a (fake) repository'));

const ZERO_HASH: Bytes32 = `0x${'0'.repeat(64)}`;

/**
 * The state behind the chain fakes (`*.fake.ts`): one in-memory EVM-like ledger whose block time
 * is the test's clock. Each write goes the way the real pipeline takes it: a keyed write whose key
 * was recorded returns the first hash and does nothing; a write the wallet cannot fund is refused
 * with the pipeline's 4xx; a write the contract would revert throws the adapter's DomainError and
 * records nothing; otherwise it is mined at once, in its own block, with a deterministic hash.
 */
export class InMemoryChain {
  readonly chainId = 31337;
  readonly operator: Address = getAddress('0x00000000000000000000000000000000000f0001');
  readonly addresses: ChainAddresses = {
    credits: getAddress('0x00000000000000000000000000000000000c0001'),
    usdc: getAddress('0x00000000000000000000000000000000000c0002'),
    markets: getAddress('0x00000000000000000000000000000000000c0003'),
    creditsVault: getAddress('0x00000000000000000000000000000000000c0004'),
    usdcVault: getAddress('0x00000000000000000000000000000000000c0005'),
  };
  readonly markets = new Map<Bytes32, FakeMarket>();
  readonly invites = new Map<string, FakeInvite>();
  private readonly balances = new Map<string, bigint>();
  private readonly gas = new Map<Address, bigint>();
  private readonly shareBook = new Map<string, bigint>();
  private readonly netDeposits = new Map<string, bigint>();
  private readonly paid = new Set<string>();
  private readonly members = new Set<string>();
  private readonly byKey = new Map<string, Hash>();
  private readonly txs = new Map<Hash, { block: bigint; events: MarketEvent[] }>();
  private readonly log: MarketEvent[] = [];
  private block = 0n;
  private sequence = 0;

  constructor(readonly clock: Clock) {}

  /** The chain's `block.timestamp`: the clock, in whole seconds. */
  get timestamp(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  get head(): bigint {
    return this.block;
  }

  /** How many writes were mined: a keyed write found again adds none. */
  get writes(): number {
    return this.txs.size;
  }

  accountOf(signer: Signer): Address {
    return signer === 'platform' ? this.operator : getAddress(signer.address);
  }

  balanceOf(stack: CollateralKind, owner: Address): bigint {
    return this.balances.get(`${stack}:${owner.toLowerCase()}`) ?? 0n;
  }

  gasOf(owner: Address): bigint {
    return this.gas.get(getAddress(owner)) ?? 0n;
  }

  addGas(owner: Address, amount: bigint): void {
    this.gas.set(getAddress(owner), this.gasOf(owner) + amount);
  }

  move(stack: CollateralKind, from: Address | null, to: Address | null, amount: bigint): void {
    if (from) {
      const have = this.balanceOf(stack, from);
      if (have < amount) throw revertError('ERC20InsufficientBalance', [from, have.toString(), amount.toString()]);
      this.balances.set(`${stack}:${from.toLowerCase()}`, have - amount);
    }
    if (to) this.balances.set(`${stack}:${to.toLowerCase()}`, this.balanceOf(stack, to) + amount);
  }

  shares(duelId: Bytes32, holder: Address, option: number): bigint {
    return this.shareBook.get(`${duelId.toLowerCase()}:${holder.toLowerCase()}:${option}`) ?? 0n;
  }

  setShares(duelId: Bytes32, holder: Address, option: number, value: bigint): void {
    this.shareBook.set(`${duelId.toLowerCase()}:${holder.toLowerCase()}:${option}`, value);
  }

  netDeposit(duelId: Bytes32, holder: Address): bigint {
    return this.netDeposits.get(`${duelId.toLowerCase()}:${holder.toLowerCase()}`) ?? 0n;
  }

  addNetDeposit(duelId: Bytes32, holder: Address, delta: bigint): void {
    this.netDeposits.set(`${duelId.toLowerCase()}:${holder.toLowerCase()}`, this.netDeposit(duelId, holder) + delta);
  }

  isPaid(duelId: Bytes32, holder: Address): boolean {
    return this.paid.has(`${duelId.toLowerCase()}:${holder.toLowerCase()}`);
  }

  markPaid(duelId: Bytes32, holder: Address): void {
    this.paid.add(`${duelId.toLowerCase()}:${holder.toLowerCase()}`);
  }

  isMember(duelId: Bytes32, member: Address): boolean {
    return this.members.has(`${duelId.toLowerCase()}:${member.toLowerCase()}`);
  }

  setMember(duelId: Bytes32, member: Address, on: boolean): void {
    const key = `${duelId.toLowerCase()}:${member.toLowerCase()}`;
    if (on) this.members.add(key);
    else this.members.delete(key);
  }

  inviteKey(duelId: Bytes32, codeHash: Bytes32): string {
    return `${duelId.toLowerCase()}:${codeHash.toLowerCase()}`;
  }

  /** The market, or the contract's `UnknownMarket` revert. */
  known(duelId: Bytes32): FakeMarket {
    const market = this.markets.get(duelId.toLowerCase() as Bytes32);
    if (!market) throw revertError('UnknownMarket');
    return market;
  }

  /** The contract's `_tradable`: open, not ended, a real option, and a member of a private market. */
  tradable(duelId: Bytes32, option: number, trader: Address): FakeMarket {
    const market = this.known(duelId);
    if (market.status !== 'open') throw revertError('MarketNotOpen');
    if (this.timestamp >= market.endTime) throw revertError('MarketClosed', [market.endTime]);
    if (option >= market.balances.length) throw revertError('InvalidOption', [option]);
    if (market.isPrivate && !this.isMember(duelId, trader)) throw revertError('NotMember');
    return market;
  }

  /** Only the creator or the platform. */
  assertCreatorOrPlatform(market: FakeMarket, from: Address): void {
    if (from !== getAddress(market.creator) && from !== this.operator) throw revertError('NotAuthorized');
  }

  /** Sends one write the way the pipeline does (see the class comment); returns its hash. */
  send(write: FakeWrite, opts: WriteOptions | undefined): Hash {
    const key = opts?.key ?? write.naturalKey ?? opts?.write?.key;
    const found = key === undefined ? undefined : this.byKey.get(key);
    if (found) return found;
    if (write.debit && this.balanceOf(write.debit.stack, write.from) < write.debit.amount) {
      const balance = this.balanceOf(write.debit.stack, write.from);
      throw new DomainError(write.debit.refusal, 'The wallet cannot fund this write', {
        details: { balance: balance.toString(), required: write.debit.amount.toString() },
      });
    }
    const emitted = write.apply();
    this.block += 1n;
    this.sequence += 1;
    const hash: Hash = `0x${createHash('sha256')
      .update(`fake-tx:${this.sequence}:${key ?? ''}`)
      .digest('hex')}`;
    const events = emitted.map(
      (e, logIndex) =>
        ({
          ...e,
          txHash: hash,
          logIndex,
          blockNumber: this.block,
          timestamp: this.timestamp,
        }) as MarketEvent,
    );
    this.txs.set(hash, { block: this.block, events });
    this.log.push(...events);
    if (key !== undefined) this.byKey.set(key, hash);
    opts?.result?.(hash);
    return hash;
  }

  /** `send` as a port method answers: a revert or refusal is a rejected promise. */
  async write(write: FakeWrite, opts: WriteOptions | undefined): Promise<Hash> {
    const before = this.txs.size;
    const hash = this.send(write, opts);
    // Like the pipeline, a new write records its rows with it (there is no database: `sql` is unusable).
    if (this.txs.size > before && opts?.record) await opts.record(NO_SQL, hash);
    return hash;
  }

  transaction(hash: Hash): { block: bigint; events: MarketEvent[] } | undefined {
    return this.txs.get(hash);
  }

  events(from: bigint, to: bigint): MarketEvent[] {
    return this.log.filter((e) => e.blockNumber >= from && e.blockNumber <= to);
  }

  static readonly zeroHash = ZERO_HASH;
}
