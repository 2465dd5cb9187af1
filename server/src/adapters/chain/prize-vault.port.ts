import type { Address, Hash, Hex, LocalAccount } from 'viem';
import type { WriteKey } from '../../platform/operation.context.js';
import type { CollateralKind } from './chain.port.js';

/** Which distribution of a pool: winners' payouts, or refunds of a cancelled pool. */
export type VaultDistributionKind = 'payout' | 'refund';

/** A `Deposited` event of the vault. */
export interface VaultDeposit {
  readonly collateral: CollateralKind;
  readonly poolId: Hex;
  readonly stage: number;
  readonly from: Address;
  readonly amount: bigint;
  readonly txHash: Hash;
  readonly logIndex: number;
  readonly blockNumber: bigint;
}

/** What one mined transaction did to the vaults. */
export interface VaultReceipt {
  /** `pending`: not mined (or unknown to the node) yet. */
  readonly status: 'pending' | 'success' | 'reverted';
  /** The account that sent the transaction, when the node knows it. */
  readonly sender: Address | null;
  readonly deposits: readonly VaultDeposit[];
  readonly claims: readonly {
    readonly collateral: CollateralKind;
    readonly poolId: Hex;
    readonly kind: VaultDistributionKind;
    readonly account: Address;
    readonly amount: bigint;
  }[];
}

/** A transaction a client signs and sends itself: the contract it calls and the calldata. */
export interface UnsignedCall {
  readonly to: Address;
  readonly data: Hex;
}

/** An unsigned call with a sentence saying what it does, for a wallet to show before it signs. */
export interface DescribedCall extends UnsignedCall {
  readonly description: string;
}

/** One leaf of a distribution, as `PrizeVault.claim` takes it. */
export interface VaultClaim {
  readonly poolId: Hex;
  readonly kind: VaultDistributionKind;
  readonly account: Address;
  readonly amount: bigint;
  readonly proof: readonly Hex[];
}

/**
 * Every operator write names its effect with `key`: one chain write per key, ever, however often
 * a request, a job or a retry asks (e.g. `packs:set-root:<packId>:payout`, `packs:claim:<packId>:<account>`).
 */
export interface VaultWriteKey {
  readonly key: string;
  /** The write's name in the operation that makes it (links it to the request's Idempotency-Key). */
  readonly write?: WriteKey;
}

/**
 * How a deposit is keyed: by the name its operation gives it (`ctx.writeKey`), and/or a natural
 * key; with neither it is a fresh write.
 */
export interface VaultDepositKey {
  readonly key?: string;
  readonly write?: WriteKey;
  /** The code a deposit the wallet cannot fund is refused with (counting its writes in flight). */
  readonly refusal?: 'INSUFFICIENT_CREDITS' | 'INSUFFICIENT_BALANCE';
}

/**
 * The prize vaults (server/contracts/PrizeVault.sol): one per collateral, holding the money of
 * pools named by bytes32 ids (a pack, a tournament, a creator's bond). Writes go through the
 * chain-transaction pipeline and return once accepted (a hash), not final; reverts found by the
 * pre-flight simulation are 4xx DomainErrors.
 */
export interface PrizeVaultPort {
  address(collateral: CollateralKind): Address;
  /** A deposit signed by a user's managed wallet (approves the vault first when needed). */
  deposit(
    signer: LocalAccount,
    collateral: CollateralKind,
    poolId: Hex,
    stage: number,
    amount: bigint,
    write?: VaultDepositKey,
  ): Promise<Hash>;
  /** Operator: pays `amount` from the pool's unreserved balance to `to` (refund before start, bond, fee). */
  release(
    collateral: CollateralKind,
    poolId: Hex,
    to: Address,
    amount: bigint,
    reason: string,
    write: VaultWriteKey,
  ): Promise<Hash>;
  /** Operator: publishes a distribution's root and sets its total aside. Once per pool and kind. */
  setRoot(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    root: Hex,
    total: bigint,
    write: VaultWriteKey,
  ): Promise<Hash>;
  /** Submits a leaf's claim (anyone may; the money goes to `account`): the relayer behind auto-claim. */
  claim(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    account: Address,
    amount: bigint,
    proof: readonly Hex[],
    write: VaultWriteKey,
  ): Promise<Hash>;

  /**
   * The `PrizeVault.claim` call that pays a leaf, for a client to send itself: anyone may send it,
   * the money goes to the leaf's account.
   */
  claimCall(collateral: CollateralKind, claim: VaultClaim): UnsignedCall;
  /**
   * The two calls a self-custody wallet sends to deposit `amount` into a pool: approve the vault on
   * the collateral token, then deposit.
   */
  depositCalls(collateral: CollateralKind, poolId: Hex, stage: number, amount: bigint): DescribedCall[];

  poolBalance(collateral: CollateralKind, poolId: Hex): Promise<bigint>;
  distribution(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
  ): Promise<{ root: Hex | null; total: bigint; claimed: bigint }>;
  isClaimed(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind, account: Address): Promise<boolean>;
  /** What a transaction did to the vaults: the way a deposit or a claim made by a client is verified. */
  receipt(txHash: Hash): Promise<VaultReceipt>;
}
