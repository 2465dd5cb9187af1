import { randomBytes } from 'node:crypto';
import { getAddress, toHex, type Address, type Hash, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount, toAccount } from 'viem/accounts';
import type { Bytes32, CollateralKind } from '../../src/adapters/chain/chain.types.js';
import type { ChainReadsPort } from '../../src/adapters/chain/chain-reads.port.js';
import type { CollateralPort } from '../../src/adapters/chain/collateral.port.js';
import type { MarketLifecyclePort } from '../../src/adapters/chain/market-lifecycle.port.js';
import type { MarketMembershipPort } from '../../src/adapters/chain/market-membership.port.js';
import type { MarketTradingPort } from '../../src/adapters/chain/market-trading.port.js';

/** The chain ports a behaviour suite drives, and how it waits for a write and reads the chain's time. */
export interface ChainHarness {
  readonly reads: ChainReadsPort;
  readonly collateral: CollateralPort;
  readonly trading: MarketTradingPort;
  readonly lifecycle: MarketLifecyclePort;
  readonly membership: MarketMembershipPort;
  /** The chain's `block.timestamp` now, seconds. */
  chainTime(): number;
  /** A fresh account to sign with (a real key on a real chain; an address only on the fakes). */
  newAccount(): LocalAccount;
}

export interface OpenMarket {
  readonly duelId: Bytes32;
  readonly creator: LocalAccount;
  readonly funding: bigint;
}

export const UNIT = 10n ** 18n;

/** A fresh account with a real key: what a real chain needs to verify signatures. */
export function keyedAccount(): LocalAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/**
 * A fresh account that cannot sign: enough for the fakes, which never check a signature, and it
 * skips the elliptic-curve work of deriving an address from a key (most of a unit test's time).
 */
export function addressOnlyAccount(): LocalAccount {
  const refuse = () => Promise.reject(new Error('an address-only test account cannot sign'));
  return toAccount({
    address: getAddress(toHex(randomBytes(20))),
    signMessage: refuse,
    signTransaction: refuse,
    signTypedData: refuse,
  });
}

export function newDuelId(): Bytes32 {
  return toHex(randomBytes(32));
}

/** Resolves once `hash` is mined (at once on the fakes; a bounded poll on a real node). */
export async function mined(h: ChainHarness, hash: Hash): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const status = await h.reads.transactionStatus(hash);
    if (status !== 'pending') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} not mined`);
}

/** Mints `amount` of credits to `to` and waits for it. */
export async function fund(h: ChainHarness, to: Address, amount: bigint, stack: CollateralKind = 'credits') {
  await mined(h, await h.collateral.mint(stack, to, amount));
}

/** A market opened by a fresh creator: trading now, ending in an hour. */
export async function openMarket(
  h: ChainHarness,
  input: { options?: number; feeBps?: number; funding?: bigint; isPrivate?: boolean } = {},
): Promise<OpenMarket> {
  const creator = h.newAccount();
  const funding = input.funding ?? 100n * UNIT;
  await fund(h, creator.address, funding);
  const now = h.chainTime();
  const duelId = newDuelId();
  const hash = await h.lifecycle.createMarket(creator, {
    duelId,
    collateral: 'credits',
    options: input.options ?? 2,
    startTime: now + 600,
    endTime: now + 3_600,
    feeBps: input.feeBps ?? 100,
    isPrivate: input.isPrivate ?? false,
    funding,
    minLeadSeconds: 0,
    contestPeriodSeconds: 0,
  });
  await mined(h, hash);
  return { duelId, creator, funding };
}
