import type { Address, Hash, LocalAccount } from 'viem';
import type { SqlExec } from '../../platform/db/sql.js';
import type { WriteKey } from '../../platform/operation-context.js';

export interface ChainAddresses {
  readonly credits: Address;
  readonly usdc: Address;
  readonly markets: Address;
  /** PrizeVault of each collateral (packs, tournaments, bonds). */
  readonly creditsVault: Address;
  readonly usdcVault: Address;
}

export type CollateralKind = 'usdc' | 'credits';
export type Bytes32 = `0x${string}`;

interface EventBase {
  readonly duelId: Bytes32;
  readonly txHash: Bytes32;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  /** Block time, seconds since the epoch. */
  readonly timestamp: number;
}

/** Market events the indexer turns into the read model. */
export type MarketEvent =
  | (EventBase & {
      readonly kind: 'created';
      readonly creator: Address;
      readonly options: number;
      readonly funding: bigint;
    })
  | (EventBase & {
      readonly kind: 'bought' | 'sold';
      readonly trader: Address;
      readonly option: number;
      /** Investment (bought) or return (sold), base units. */
      readonly collateral: bigint;
      readonly fee: bigint;
      readonly shares: bigint;
      readonly balances: readonly bigint[];
    })
  | (EventBase & { readonly kind: 'resolved'; readonly outcome: number; readonly contestEndsAt: number })
  | (EventBase & { readonly kind: 'settled'; readonly outcome: number })
  | (EventBase & { readonly kind: 'cancelled' })
  | (EventBase & { readonly kind: 'paid'; readonly holder: Address; readonly amount: bigint; readonly refund: boolean })
  | (EventBase & {
      readonly kind: 'invite_created';
      readonly codeHash: Bytes32;
      readonly maxUses: number;
      /** Seconds since the epoch; 0 = never. */
      readonly expiresAt: number;
    })
  | (EventBase & { readonly kind: 'invite_revoked'; readonly codeHash: Bytes32 })
  | (EventBase & {
      readonly kind: 'member_added';
      readonly member: Address;
      /** The invite used, or zero for a direct add by the creator. */
      readonly codeHash: Bytes32;
    })
  | (EventBase & { readonly kind: 'member_removed'; readonly member: Address });

export interface CreateMarketInput {
  readonly duelId: Bytes32;
  readonly collateral: CollateralKind;
  readonly options: number;
  /** Seconds since the epoch. */
  readonly startTime: number;
  readonly endTime: number;
  readonly feeBps: number;
  readonly isPrivate: boolean;
  readonly funding: bigint;
  /** The lead the chain itself enforces between now and startTime, seconds. */
  readonly minLeadSeconds: number;
  readonly contestPeriodSeconds: number;
}

/** On-chain invitation data. */
export interface ChainInvite {
  readonly exists: boolean;
  readonly maxUses: number;
  readonly uses: number;
  readonly expiresAt: number;
  readonly revoked: boolean;
}

/** On-chain market status, as the contract numbers it. */
export type ChainMarketStatus = 'none' | 'open' | 'resolved' | 'settled' | 'cancelled';

/** Who signs a write: a user's managed account, or the platform operator. */
export type Signer = LocalAccount | 'platform';

/**
 * How a write is keyed and what it records with itself. Every write goes through the chain
 * transaction pipeline (platform/chain-tx): recorded and signed in one database transaction, then
 * broadcast; see docs/kernel.md.
 */
export interface WriteOptions {
  /**
   * The write's name in its operation, from `ctx.writeKey(name)`: under an Idempotency-Key the
   * write is found again by that name when the request is resumed, and carries its pending answer.
   */
  readonly write?: WriteKey;
  /**
   * A natural key that overrides the method's own: one live chain write per key, ever (a second
   * call with the key returns the first write's hash and sends nothing).
   */
  readonly key?: string;
  /** Rows this write creates or updates, in the transaction that records it. Must be idempotent. */
  readonly record?: (sql: SqlExec, txHash: Hash) => Promise<void>;
  /** The answer of the request this write serves: stored as its pending answer before broadcast. */
  readonly result?: (txHash: Hash) => unknown;
}

/**
 * The EVM chain in domain terms; one viem implementation serves the embedded EVM and any RPC.
 * Every write is simulated first (a revert becomes a 4xx DomainError), recorded with its signed
 * bytes, then broadcast; it returns the transaction hash once recorded: acceptance, not finality
 * (a slow or unreachable node leaves it pending and the reconciler sends it again). The indexer
 * reads the outcome.
 */
export interface ChainPort {
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  readonly operator: Address;
  blockNumber(): Promise<bigint>;
  /** Collateral balance of `owner` in base units. */
  collateralBalance(stack: CollateralKind, owner: Address): Promise<bigint>;
  /** Mints collateral to `to` from the operator (credits grants; usdc only on test chains). */
  mint(stack: CollateralKind, to: Address, amount: bigint, opts?: WriteOptions): Promise<Hash>;
  /** Sends collateral from a managed account to `to` (withdrawals); key it with `opts.key`. */
  transfer(
    signer: LocalAccount,
    stack: CollateralKind,
    to: Address,
    amount: bigint,
    opts?: WriteOptions,
  ): Promise<Hash>;
  /** Gives `to` native gas on chains where the operator can (embedded: hardhat_setBalance). */
  fundGas(to: Address, amount: bigint): Promise<void>;
  poolBalances(duelId: Bytes32): Promise<bigint[]>;
  /** The newest block deep enough to count as final (head minus the confirmation depth). */
  safeHead(): Promise<bigint>;
  /** Market events in blocks [from, to], in chain order. */
  marketEvents(from: bigint, to: bigint): Promise<MarketEvent[]>;
  /** Status of a sent transaction: pending (no receipt yet), success or reverted. */
  transactionStatus(hash: Hash): Promise<'pending' | 'success' | 'reverted'>;
  /** Market events emitted by one mined transaction (empty while it is pending). */
  transactionEvents(hash: Hash): Promise<MarketEvent[]>;

  /** Creates a market; keyed by its duelId (a market is created once). */
  createMarket(signer: LocalAccount, input: CreateMarketInput, opts?: WriteOptions): Promise<Hash>;
  buy(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    investment: bigint,
    minSharesOut: bigint,
    opts?: WriteOptions,
  ): Promise<Hash>;
  sellForReturn(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    returnAmount: bigint,
    maxSharesIn: bigint,
    opts?: WriteOptions,
  ): Promise<Hash>;
  /** Resolves a market; keyed by its duelId (a market is resolved once). */
  resolve(signer: Signer, duelId: Bytes32, outcome: number, opts?: WriteOptions): Promise<Hash>;
  /** Settles a resolved market; keyed by its duelId. */
  finalize(signer: Signer, duelId: Bytes32, outcome: number, opts?: WriteOptions): Promise<Hash>;
  /** Cancels a market as the platform; keyed by its duelId. */
  cancel(duelId: Bytes32, opts?: WriteOptions): Promise<Hash>;
  /** Pays a holder their settlement payout or refund (sent by the platform); keyed by (duelId, holder). */
  payout(duelId: Bytes32, holder: Address, opts?: WriteOptions): Promise<Hash>;
  /** Pays a settled market's trading fees to its creator (sent by the platform); keyed by duelId. */
  claimFees(duelId: Bytes32, opts?: WriteOptions): Promise<Hash>;
  /** Creates an invitation on chain; keyed by (duelId, codeHash). */
  createInvite(
    signer: Signer,
    duelId: Bytes32,
    codeHash: Bytes32,
    maxUses: number,
    expiresAt: number,
    opts?: WriteOptions,
  ): Promise<Hash>;
  revokeInvite(signer: Signer, duelId: Bytes32, codeHash: Bytes32, opts?: WriteOptions): Promise<Hash>;
  join(signer: LocalAccount, duelId: Bytes32, codeHash: Bytes32, opts?: WriteOptions): Promise<Hash>;
  /** The legacy server-signer join: the platform joins `member` with a code. */
  joinFor(duelId: Bytes32, codeHash: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash>;
  addMember(signer: Signer, duelId: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash>;
  removeMember(signer: Signer, duelId: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash>;

  marketStatus(duelId: Bytes32): Promise<ChainMarketStatus>;
  isMember(duelId: Bytes32, member: Address): Promise<boolean>;
  invite(duelId: Bytes32, codeHash: Bytes32): Promise<ChainInvite>;
  /** What `holder` is owed now (payout once settled, refund once cancelled), and whether already paid. */
  owed(duelId: Bytes32, holder: Address): Promise<{ amount: bigint; refund: boolean; paid: boolean }>;
  /** Fees a settled market owes its creator now (0 before settlement and once claimed), and whether claimed. */
  feesOwed(duelId: Bytes32): Promise<{ amount: bigint; claimed: boolean }>;
  sharesOf(duelId: Bytes32, holder: Address, option: number): Promise<bigint>;
  close(): Promise<void>;
}
