import type { Address, Hash, Hex } from 'viem';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type { PrizeVaultPort, VaultDeposit } from '../../adapters/chain/prize-vault.port.js';
import { DomainError } from '../../errors.js';

/** What a deposit must be to pay for something. */
export interface ExpectedDeposit {
  readonly collateral: CollateralKind;
  readonly poolId: Hex;
  readonly stage: number;
  /** The exact amount, or at least `minAmount`. */
  readonly amount?: bigint;
  readonly minAmount?: bigint;
  /** Accounts allowed to have paid it: the caller's managed wallet and signing wallet. */
  readonly senders: readonly Address[];
}

type Mismatch = 'vault' | 'pool' | 'stage' | 'amount' | 'sender';
/** From the least to the most alike: a deposit to the right pool of another vault is closer than one to another pool. */
const ORDER: readonly Mismatch[] = ['pool', 'vault', 'stage', 'amount', 'sender'];

function mismatchOf(d: VaultDeposit, e: ExpectedDeposit): Mismatch | null {
  const senders = new Set(e.senders.map((s) => s.toLowerCase()));
  if (d.poolId.toLowerCase() === e.poolId.toLowerCase() && d.collateral !== e.collateral) return 'vault';
  if (d.poolId.toLowerCase() !== e.poolId.toLowerCase()) return 'pool';
  if (d.stage !== e.stage) return 'stage';
  if (e.amount !== undefined && d.amount !== e.amount) return 'amount';
  if (e.minAmount !== undefined && d.amount < e.minAmount) return 'amount';
  if (!senders.has(d.from.toLowerCase())) return 'sender';
  return null;
}

/**
 * Checks on chain that `txHash` is a mined, successful vault deposit of what is expected: the
 * vault of the collateral, the pool, the stage, the amount, from one of the caller's wallets.
 * Throws DEPOSIT_PENDING (retry) while it is not mined and DEPOSIT_MISMATCH (with the reason)
 * otherwise.
 */
export async function verifyDeposit(
  vault: PrizeVaultPort,
  txHash: Hash,
  expected: ExpectedDeposit,
): Promise<VaultDeposit> {
  const receipt = await vault.receipt(txHash);
  if (receipt.status === 'pending') {
    throw new DomainError('DEPOSIT_PENDING', 'The deposit transaction is not mined yet; retry shortly', {
      details: { txHash },
      retryAfterMs: 2_000,
    });
  }
  const fail = (reason: string, message: string) =>
    new DomainError('DEPOSIT_MISMATCH', message, {
      details: {
        txHash,
        reason,
        expected: {
          stakeAsset: expected.collateral,
          vault: vault.address(expected.collateral),
          poolId: expected.poolId,
          stage: expected.stage,
          amount: (expected.amount ?? expected.minAmount)?.toString(),
        },
      },
    });
  if (receipt.status === 'reverted') throw fail('reverted', 'The deposit transaction reverted');
  if (!receipt.deposits.length) throw fail('no_deposit', 'The transaction made no vault deposit');
  let closest: Mismatch = 'pool';
  for (const d of receipt.deposits) {
    const mismatch = mismatchOf(d, expected);
    if (!mismatch) return d;
    if (ORDER.indexOf(mismatch) > ORDER.indexOf(closest)) closest = mismatch;
  }
  const messages: Record<Mismatch, string> = {
    vault: `The deposit went to another vault than the ${expected.collateral} vault`,
    pool: 'The deposit is for another pool (another tournament or bond)',
    stage: `The deposit is for another stage than stage ${expected.stage}`,
    amount: 'The deposit is not of the amount due',
    sender: 'The deposit was not sent by your wallet',
  };
  throw fail(closest, messages[closest]);
}
