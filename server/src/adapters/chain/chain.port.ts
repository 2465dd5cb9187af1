import type { Address, Hash, LocalAccount } from 'viem';

export interface ChainAddresses {
  readonly credits: Address;
  readonly usdc: Address;
  readonly markets: Address;
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
 * The EVM chain in domain terms; one viem implementation serves the embedded EVM and any RPC.
 * Every write is simulated first (a revert becomes a 4xx DomainError) and returns its transaction
 * hash as soon as the node accepted it: acceptance, not finality. The indexer reads the outcome.
 */
export interface ChainPort {
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  readonly operator: Address;
  blockNumber(): Promise<bigint>;
  /** Collateral balance of `owner` in base units. */
  collateralBalance(stack: CollateralKind, owner: Address): Promise<bigint>;
  /** Mints collateral to `to` from the operator (credits grants; usdc only on test chains). */
  mint(stack: CollateralKind, to: Address, amount: bigint): Promise<Hash>;
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

  createMarket(signer: LocalAccount, input: CreateMarketInput): Promise<Hash>;
  buy(signer: LocalAccount, duelId: Bytes32, option: number, investment: bigint, minSharesOut: bigint): Promise<Hash>;
  sellForReturn(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    returnAmount: bigint,
    maxSharesIn: bigint,
  ): Promise<Hash>;
  resolve(signer: Signer, duelId: Bytes32, outcome: number): Promise<Hash>;
  finalize(signer: Signer, duelId: Bytes32, outcome: number): Promise<Hash>;
  cancel(duelId: Bytes32): Promise<Hash>;
  /** Pays a holder their settlement payout or refund (sent by the platform; once per holder on chain). */
  payout(duelId: Bytes32, holder: Address): Promise<Hash>;
  createInvite(signer: Signer, duelId: Bytes32, codeHash: Bytes32, maxUses: number, expiresAt: number): Promise<Hash>;
  revokeInvite(signer: Signer, duelId: Bytes32, codeHash: Bytes32): Promise<Hash>;
  join(signer: LocalAccount, duelId: Bytes32, codeHash: Bytes32): Promise<Hash>;
  /** The legacy server-signer join: the platform joins `member` with a code. */
  joinFor(duelId: Bytes32, codeHash: Bytes32, member: Address): Promise<Hash>;
  addMember(signer: Signer, duelId: Bytes32, member: Address): Promise<Hash>;
  removeMember(signer: Signer, duelId: Bytes32, member: Address): Promise<Hash>;

  marketStatus(duelId: Bytes32): Promise<ChainMarketStatus>;
  isMember(duelId: Bytes32, member: Address): Promise<boolean>;
  invite(duelId: Bytes32, codeHash: Bytes32): Promise<ChainInvite>;
  /** What `holder` is owed now (payout once settled, refund once cancelled), and whether already paid. */
  owed(duelId: Bytes32, holder: Address): Promise<{ amount: bigint; refund: boolean; paid: boolean }>;
  sharesOf(duelId: Bytes32, holder: Address, option: number): Promise<bigint>;
  close(): Promise<void>;
}
