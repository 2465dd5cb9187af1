/** Types the chain ports share: addresses, market events, write options. */
import type { Address, Hash, LocalAccount } from 'viem';
import type { SqlExec } from '../../platform/db/sql.js';
import type { WriteKey } from '../../platform/operation.context.js';

export interface ChainAddresses {
  readonly credits: Address;
  readonly usdc: Address;
  readonly markets: Address;
  /** PrizeVault of each collateral (packs, tournaments, bonds). */
  readonly creditsVault: Address;
  readonly usdcVault: Address;
  /**
   * ParlayBook (parlay tickets and the liquidity pool over credits): deployed at boot on the
   * embedded chain; on a real chain named by PARLAY_BOOK_ADDRESS instead.
   */
  readonly parlayBook?: Address;
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
