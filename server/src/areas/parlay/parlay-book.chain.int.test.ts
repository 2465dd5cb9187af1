import fc from 'fast-check';
import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  toHex,
  type Address,
  type EIP1193Provider,
  type Hex,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { CollateralTokenAbi, CollateralTokenBytecode } from '../../adapters/chain/artifacts/CollateralToken.js';
import { ParlayBookAbi, ParlayBookBytecode } from '../../adapters/chain/artifacts/ParlayBook.js';
import { combinedOdds, priceTicket, productOfOdds } from './parlay-pricing.math.js';
import { QUOTE_DOMAIN_NAME, QUOTE_DOMAIN_VERSION, QUOTE_TYPES } from './parlay-quote.service.js';

// Well-known development keys: local test chain only.
const operator = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const signer = privateKeyToAccount('0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a');
const lp = privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');
const alice = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const bob = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
const UNIT = 10n ** 18n;
const FEE_BPS = 100;
const MARGIN_BPS = 500;

let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
let raw: { request(a: { method: string; params?: unknown[] }): Promise<unknown> };
let token: Address;
let book: Address;
let chainId: number;
let conditionSeq = 0;

interface Leg {
  conditionId: Hex;
  outcomeId: bigint;
  odds: bigint;
}
interface Quote {
  bettor: Address;
  legs: Leg[];
  stake: bigint;
  payout: bigint;
  nonce: bigint;
  expiresAt: bigint;
}

async function send(from: PrivateKeyAccount, address: Address, functionName: string, args: readonly unknown[]) {
  const abi = address === token ? CollateralTokenAbi : ParlayBookAbi;
  const { request } = await pub.simulateContract({ address, abi, functionName, args, account: from } as never);
  const hash = await wallet.writeContract({ ...(request as object), account: from, chain: null } as never);
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

async function revertName(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    const revert = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    return revert instanceof ContractFunctionRevertedError ? revert.data?.errorName : String(err);
  }
}

/** A view of the book by name, for reads whose function the test picks at run time. */
const read = async <T>(functionName: string, args: readonly unknown[] = []): Promise<T> => {
  const readByName = pub.readContract.bind(pub) as unknown as (call: {
    address: Address;
    abi: typeof ParlayBookAbi;
    functionName: string;
    args: readonly unknown[];
  }) => Promise<unknown>;
  return (await readByName({ address: book, abi: ParlayBookAbi, functionName, args })) as T;
};
const balanceOf = (who: Address) =>
  pub.readContract({ address: token, abi: CollateralTokenAbi, functionName: 'balanceOf', args: [who] });
const chainTime = async () => Number((await pub.getBlock()).timestamp);
const nonces = new Map<Address, bigint>();

function freshCondition(): Hex {
  return toHex(++conditionSeq, { size: 32 });
}

/** A quote priced as the service prices it and signed by the quote signer. */
async function quote(bettor: Address, legs: Leg[], stake: bigint, over: Partial<Quote> = {}) {
  const odds = combinedOdds(
    legs.map((l) => l.odds),
    MARGIN_BPS,
  );
  const nonce = nonces.get(bettor) ?? 0n;
  nonces.set(bettor, nonce + 1n);
  const q: Quote = {
    bettor,
    legs,
    stake,
    payout: priceTicket(stake, odds, FEE_BPS).payout,
    nonce,
    expiresAt: BigInt((await chainTime()) + 120),
    ...over,
  };
  const signature = await signer.signTypedData({
    domain: { name: QUOTE_DOMAIN_NAME, version: QUOTE_DOMAIN_VERSION, chainId, verifyingContract: book },
    types: QUOTE_TYPES,
    primaryType: 'ParlayQuote',
    message: q,
  });
  return { q, signature };
}

const place = (from: PrivateKeyAccount, q: Quote, signature: Hex) => send(from, book, 'place', [q, signature]);
const ticketId = (bettor: Address, nonce: bigint) => read<Hex>('ticketIdOf', [bettor, nonce]);

beforeAll(async () => {
  const hre = await createHardhatRuntimeEnvironment({ networks: { sim: { type: 'edr-simulated', chainId: 31337 } } });
  const { provider } = await hre.network.connect('sim');
  raw = provider;
  const transport = custom(provider as unknown as EIP1193Provider);
  pub = createPublicClient({ transport, pollingInterval: 10 });
  wallet = createWalletClient({ transport });
  chainId = await pub.getChainId();
  for (const a of [operator, lp, alice, bob]) {
    await provider.request({ method: 'hardhat_setBalance', params: [a.address, toHex(10n ** 22n)] });
  }
  const deploy = async (abi: readonly unknown[], bytecode: Hex, args: readonly unknown[]) => {
    const hash = await wallet.deployContract({ abi, bytecode, args, account: operator, chain: null });
    const { contractAddress } = await pub.waitForTransactionReceipt({ hash });
    return contractAddress as Address;
  };
  token = await deploy(CollateralTokenAbi, CollateralTokenBytecode, ['Credits', 'CRD', operator.address]);
  book = await deploy(ParlayBookAbi, ParlayBookBytecode, [
    token,
    operator.address,
    signer.address,
    FEE_BPS,
    MARGIN_BPS,
  ]);
  for (const a of [lp, alice, bob]) {
    await send(operator, token, 'mint', [a.address, 1_000_000n * UNIT]);
    await send(a, token, 'approve', [book, 2n ** 255n]);
  }
  await send(lp, book, 'deposit', [500_000n * UNIT, lp.address]);
}, 60_000);

describe('ParlayBook', () => {
  it('charges the quoted payout to the base unit, whatever the legs and stake', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 101, max: 300 }), { minLength: 1, maxLength: 4 }),
        fc.bigInt({ min: 5n * UNIT, max: 20n * UNIT }),
        async (oddsX100, stake) => {
          const legs = oddsX100.map((x) => ({
            conditionId: freshCondition(),
            outcomeId: 0n,
            odds: BigInt(x) * 10n ** 16n,
          }));
          const { q, signature } = await quote(alice.address, legs, stake);
          const receipt = await place(alice, q, signature);
          expect(receipt.logs.length).toBeGreaterThan(0);
          const t = await read<{ payout: bigint; fee: bigint; liability: bigint; stake: bigint }>('ticket', [
            await ticketId(alice.address, q.nonce),
          ]);
          const odds = combinedOdds(
            legs.map((l) => l.odds),
            MARGIN_BPS,
          );
          const price = priceTicket(stake, odds, FEE_BPS);
          expect(t.payout).toBe(price.payout);
          expect(t.fee).toBe(price.fee);
          expect(t.liability).toBe((price.payout * UNIT) / productOfOdds(legs.map((l) => l.odds)));
        },
      ),
      { numRuns: 24, endOnFailure: true },
    );
  }, 120_000);

  it('refuses replayed, expired, foreign and tampered quotes', async () => {
    const legs = [
      { conditionId: freshCondition(), outcomeId: 1n, odds: 2n * UNIT },
      { conditionId: freshCondition(), outcomeId: 0n, odds: 3n * UNIT },
    ];
    const { q, signature } = await quote(alice.address, legs, 10n * UNIT);
    expect(await revertName(place(bob, q, signature))).toBe('NotBettor');
    const tampered = { ...q, legs: [{ ...legs[0]!, outcomeId: 2n }, legs[1]!] };
    expect(await revertName(place(alice, tampered, signature))).toBe('BadSignature');
    const richer = { ...q, legs: [{ ...legs[0]!, odds: 5n * UNIT }, legs[1]!] };
    expect(await revertName(place(alice, richer, signature))).toBe('BadSignature');
    await place(alice, q, signature);
    expect(await revertName(place(alice, q, signature))).toBe('NonceUsed');

    const late = await quote(alice.address, legs, 10n * UNIT);
    await raw.request({ method: 'evm_increaseTime', params: [121] });
    await raw.request({ method: 'evm_mine', params: [] });
    expect(await revertName(place(alice, late.q, late.signature))).toBe('QuoteExpired');

    // Signed by the signer, but priced above what the legs give: the contract re-prices.
    const { q: mispriced, signature: sig2 } = await quote(alice.address, legs, 10n * UNIT, { payout: 60n * UNIT });
    expect(await revertName(place(alice, mispriced, sig2))).toBe('PayoutMismatch');
  }, 60_000);

  it('settles won, lost, partly void and all-void tickets, pays each claim once and moves NAV by the result', async () => {
    const [a, b, c] = [freshCondition(), freshCondition(), freshCondition()];
    const legs = [
      { conditionId: a, outcomeId: 0n, odds: 2n * UNIT },
      { conditionId: b, outcomeId: 1n, odds: 3n * UNIT },
      { conditionId: c, outcomeId: 2n, odds: 4n * UNIT },
    ];
    const stake = 20n * UNIT;
    const won = await quote(alice.address, legs, stake);
    const lost = await quote(bob.address, [legs[0]!, { ...legs[2]!, outcomeId: 1n }], stake);
    const allVoid = await quote(bob.address, [legs[1]!], stake);
    for (const [who, x] of [
      [alice, won],
      [bob, lost],
      [bob, allVoid],
    ] as const)
      await place(who, x.q, x.signature);
    const before = {
      cash: await read<bigint>('cash'),
      fees: await read<bigint>('feesAccrued'),
      liability: await read<bigint>('openLiability'),
    };
    const id = await ticketId(alice.address, won.q.nonce);
    expect(await revertName(send(alice, book, 'claim', [id]))).toBe('NotSettleable');
    expect(await revertName(send(alice, book, 'postResult', [a, false, 0n]))).toBe('NotOperator');
    await send(operator, book, 'postResult', [a, false, 0n]);
    await send(operator, book, 'postResult', [b, true, 0n]); // void
    await send(operator, book, 'postResult', [c, false, 2n]);
    expect(await revertName(send(operator, book, 'postResult', [c, false, 1n]))).toBe('ResultAlreadySet');

    // Leg b is void: the payout is re-priced over legs a and c with the same floored formula.
    const repriced = priceTicket(stake, combinedOdds([2n * UNIT, 4n * UNIT], MARGIN_BPS), FEE_BPS);
    const aliceBefore = await balanceOf(alice.address);
    await send(bob, book, 'claim', [id]);
    expect((await balanceOf(alice.address)) - aliceBefore).toBe(repriced.payout);
    expect(await revertName(send(alice, book, 'claim', [id]))).toBe('AlreadyClaimed');

    const lostId = await ticketId(bob.address, lost.q.nonce);
    expect(await revertName(send(bob, book, 'claim', [lostId]))).toBe('NothingToClaim');
    await send(bob, book, 'settle', [lostId]);
    expect(await read<{ status: number }>('ticket', [lostId])).toMatchObject({ status: 3 });

    const voidId = await ticketId(bob.address, allVoid.q.nonce);
    const bobBefore = await balanceOf(bob.address);
    await send(bob, book, 'claim', [voidId]);
    expect((await balanceOf(bob.address)) - bobBefore).toBe(stake);

    const fee = priceTicket(stake, UNIT, FEE_BPS).fee;
    const net = stake - fee;
    // Cash: the won ticket paid its re-priced payout, the lost one kept its net stake, the void one refunded.
    expect(await read<bigint>('cash')).toBe(before.cash - repriced.payout - net);
    expect(await read<bigint>('feesAccrued')).toBe(before.fees + 2n * fee);
    const placed = [won, lost, allVoid].map((x) => (x.q.payout * UNIT) / productOfOdds(x.q.legs.map((l) => l.odds)));
    expect(await read<bigint>('openLiability')).toBe(before.liability - placed.reduce((s, l) => s + l, 0n));
  }, 60_000);

  it('is an ERC-4626 pool whose withdrawals never take what open tickets may need', async () => {
    const free = await read<bigint>('freeLiquidity');
    const nav = await read<bigint>('totalAssets');
    expect(nav).toBe((await read<bigint>('cash')) - (await read<bigint>('openLiability')));
    const shares = await read<bigint>('balanceOf', [lp.address]);
    expect(await read<bigint>('convertToAssets', [shares])).toBe(((nav + 1n) * shares) / (shares + 1n));
    expect(await revertName(send(lp, book, 'withdraw', [free + 1n, lp.address, lp.address]))).toBe(
      'InsufficientFreeLiquidity',
    );
    const before = await balanceOf(lp.address);
    await send(lp, book, 'withdraw', [UNIT, lp.address, lp.address]);
    expect((await balanceOf(lp.address)) - before).toBe(UNIT);
  }, 60_000);
});
