import { BaseError, ContractFunctionRevertedError } from 'viem';
import { DomainError } from '../../errors.js';

/** Custom errors of the contracts, by name, and the 4xx each becomes. */
const MAPPED: Record<string, { code: ConstructorParameters<typeof DomainError>[0]; message: string }> = {
  BelowMinimum: { code: 'BET_BELOW_MINIMUM', message: 'The amount is below the 5-unit minimum' },
  SlippageExceeded: { code: 'SLIPPAGE_EXCEEDED', message: 'The price moved past your slippage limit' },
  StartTimeTooSoon: { code: 'START_TIME_TOO_SOON', message: 'The start time is too soon' },
  EndBeforeStart: { code: 'VALIDATION_FAILED', message: 'The end time must be after the start time' },
  MarketNotOpen: { code: 'INVALID_STATE', message: 'The market is not open' },
  UnknownMarket: { code: 'NOT_FOUND', message: 'No such market on chain' },
  MarketNotEnded: { code: 'INVALID_STATE', message: 'The market has not ended yet' },
  ContestPeriodActive: { code: 'INVALID_STATE', message: 'The contest period is still running' },
  AlreadyPaid: { code: 'ALREADY_PAID', message: 'This holder was already paid' },
  FeesAlreadyClaimed: { code: 'ALREADY_PAID', message: 'These creator fees were already paid' },
  MarketClosed: { code: 'MARKET_NOT_TRADABLE', message: 'The market has ended: trading is closed' },
  InsufficientShares: { code: 'INSUFFICIENT_SHARES', message: 'Not enough shares to sell' },
  ERC20InsufficientBalance: {
    code: 'INSUFFICIENT_CREDITS',
    message: 'Insufficient Credits: the account is not funded',
  },
  ERC20InsufficientAllowance: { code: 'INSUFFICIENT_CREDITS', message: 'The collateral allowance is too low' },
  NotMember: { code: 'PRIVATE_MARKET', message: 'The account is not a member of this private market' },
  NotAuthorized: { code: 'FORBIDDEN', message: 'Only the market creator (or the platform) may do this' },
  InviteUnknown: { code: 'INVITE_NOT_FOUND', message: 'No such invitation on chain' },
  InviteExists: { code: 'INVITE_CODE_TAKEN', message: 'This invite code already exists for the market' },
  InviteRevoked: { code: 'INVITE_REVOKED', message: 'The invite code was revoked' },
  InviteExpired: { code: 'INVITE_EXPIRED', message: 'The invite code has expired' },
  InviteExhausted: { code: 'INVITE_EXHAUSTED', message: 'The invite code has no uses left' },
  AlreadyMember: { code: 'ALREADY_MEMBER', message: 'Already a member of this private market' },
  // PrizeVault
  NotOperator: { code: 'FORBIDDEN', message: 'Only the platform operator may do this' },
  ZeroAmount: { code: 'VALIDATION_FAILED', message: 'The amount must be positive' },
  RootAlreadySet: { code: 'INVALID_STATE', message: 'This distribution was already published' },
  RootNotSet: { code: 'INVALID_STATE', message: 'This distribution is not published yet' },
  AlreadyClaimed: { code: 'ALREADY_CLAIMED', message: 'This leaf was already claimed' },
  InvalidProof: { code: 'INVALID_PROOF', message: 'The proof does not match the published root' },
  InsufficientPoolBalance: { code: 'INVALID_STATE', message: 'The pool does not hold that much' },
  DistributionExhausted: { code: 'INVALID_STATE', message: 'The distribution has less left than the leaf' },
  // ParlayBook
  UnknownTicket: { code: 'NOT_FOUND', message: 'No such ticket on chain' },
  NotSettleable: { code: 'TICKET_NOT_SETTLED', message: 'The ticket’s legs are not all resulted yet' },
  NothingToClaim: { code: 'TICKET_NOT_CLAIMABLE', message: 'The ticket lost: there is nothing to claim' },
  ResultAlreadySet: { code: 'INVALID_STATE', message: 'This condition’s result was already posted' },
  InsufficientFreeLiquidity: { code: 'LIQUIDITY_LOCKED', message: 'Open tickets hold that liquidity' },
};

/** The DomainError a named contract error becomes (also used by in-memory fakes of the contracts). */
export function revertError(
  name: string,
  args: readonly unknown[] = [],
  reason?: string,
  cause?: unknown,
): DomainError {
  const mapped = MAPPED[name];
  return new DomainError(
    mapped?.code ?? 'CHAIN_REVERTED',
    mapped?.message ?? `The transaction would revert: ${reason ?? name}`,
    { details: { revert: { error: name, args } }, ...(cause === undefined ? {} : { cause }) },
  );
}

/**
 * Turns a reverted simulation or write into a 4xx with a specific code and the revert reason in
 * `details.revert`: a pre-flight revert is the caller's problem, never a 500. Other errors pass.
 */
export function revertToAppError(err: unknown): unknown {
  if (!(err instanceof BaseError)) return err;
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return err;
  const name = reverted.data?.errorName ?? 'Reverted';
  const args = (reverted.data?.args ?? []).map((a) => (typeof a === 'bigint' ? a.toString() : a));
  return revertError(name, args, reverted.reason, err);
}
