import { ERROR_STATUS } from '@duelkit/contract';
import fc from 'fast-check';
import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  keccak256,
  toHex,
  type EIP1193Provider,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { CollateralTokenAbi, CollateralTokenBytecode } from '../../adapters/chain/artifacts/CollateralToken.js';
import { DuelMarketsAbi, DuelMarketsBytecode } from '../../adapters/chain/artifacts/DuelMarkets.js';
import { DomainError } from '../../errors.js';
import { revertToAppError } from '../../adapters/chain/revert-errors.js';
import { buy, maxReturnForShares, sellForReturn } from './fpmm.math.js';

const UNIT = 10n ** 18n;
const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
let token: `0x${string}`;
let markets: `0x${string}`;

async function deploy(abi: readonly unknown[], bytecode: `0x${string}`, args: readonly unknown[]) {
  const hash = await wallet.deployContract({ abi, bytecode, args, account, chain: null });
  const { contractAddress } = await pub.waitForTransactionReceipt({ hash });
  if (!contractAddress) throw new Error('deployment failed');
  return contractAddress;
}

async function send(
  functionName: string,
  args: readonly unknown[],
  address = markets,
  abi: readonly unknown[] = DuelMarketsAbi,
) {
  const { request, result } = await pub.simulateContract({ address, abi, functionName, args, account } as never);
  const hash = await wallet.writeContract(request as never);
  await pub.waitForTransactionReceipt({ hash });
  return result as unknown;
}

async function balances(duelId: `0x${string}`): Promise<bigint[]> {
  const read = await pub.readContract({
    address: markets,
    abi: DuelMarketsAbi,
    functionName: 'poolBalances',
    args: [duelId],
  });
  return [...read];
}

beforeAll(async () => {
  const hre = await createHardhatRuntimeEnvironment({ networks: { sim: { type: 'edr-simulated', chainId: 31337 } } });
  const { provider } = await hre.network.connect('sim');
  const transport = custom(provider as unknown as EIP1193Provider);
  pub = createPublicClient({ transport });
  wallet = createWalletClient({ transport });
  await provider.request({ method: 'hardhat_setBalance', params: [account.address, toHex(10n ** 24n)] });
  token = await deploy(CollateralTokenAbi, CollateralTokenBytecode, ['Credits', 'CRD', account.address]);
  markets = await deploy(DuelMarketsAbi, DuelMarketsBytecode, []);
  await send('mint', [account.address, 10n ** 36n], token, CollateralTokenAbi);
  await send('approve', [markets, 2n ** 255n], token, CollateralTokenAbi);
}, 60_000);

async function newMarket(options: number, feeBps: number, funding: bigint) {
  const duelId = keccak256(toHex(`duel-${Math.random()}`));
  const now = BigInt(Math.floor(Date.now() / 1000));
  await send('createMarket', [duelId, token, options, now + 3_600n, now + 7_200n, feeBps, false, funding, 0n, 0n]);
  return duelId;
}

describe('the on-chain market maker', () => {
  it('matches the TypeScript estimate to the base unit for random buys and sells', async () => {
    const duelId = await newMarket(3, 200, 1_000n * UNIT);
    const held = [0n, 0n, 0n];
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 2 }),
        fc.bigInt({ min: 5n * UNIT, max: 400n * UNIT }),
        fc.boolean(),
        async (option, amount, selling) => {
          const before = await balances(duelId);
          const sellable = maxReturnForShares(before, option, held[option] as bigint, 200n);
          if (selling && sellable >= UNIT) {
            const returnAmount = sellable / 2n;
            const expected = sellForReturn(before, option, returnAmount, 200n);
            const sharesIn = (await send('sellForReturn', [duelId, option, returnAmount, expected.sharesIn])) as bigint;
            expect(sharesIn).toBe(expected.sharesIn);
            held[option] = (held[option] as bigint) - sharesIn;
            expect(await balances(duelId)).toEqual(expected.balancesAfter);
          } else {
            const expected = buy(before, option, amount, 200n);
            const sharesOut = (await send('buy', [duelId, option, amount, expected.sharesOut])) as bigint;
            expect(sharesOut).toBe(expected.sharesOut);
            held[option] = (held[option] as bigint) + sharesOut;
            expect(await balances(duelId)).toEqual(expected.balancesAfter);
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('reverts with named errors the server can map: below minimum, slippage, start too soon', async () => {
    const duelId = await newMarket(2, 100, 100n * UNIT);
    const revertName = async (fn: string, args: readonly unknown[]) => {
      try {
        await send(fn, args);
        return null;
      } catch (err) {
        const reverted = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
        return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : 'other';
      }
    };
    expect(await revertName('buy', [duelId, 0, 4n * UNIT, 0n])).toBe('BelowMinimum');
    const mapped = revertToAppError(await send('buy', [duelId, 0, 4n * UNIT, 0n]).catch((e: unknown) => e));
    expect(mapped).toBeInstanceOf(DomainError);
    expect((mapped as DomainError).code).toBe('BET_BELOW_MINIMUM');
    expect(ERROR_STATUS[(mapped as DomainError).code]).toBe(400);
    expect((mapped as DomainError).details).toEqual({
      revert: { error: 'BelowMinimum', args: ['5000000000000000000'] },
    });
    const est = buy(await balances(duelId), 0, 10n * UNIT, 100n);
    expect(await revertName('buy', [duelId, 0, 10n * UNIT, est.sharesOut + 1n])).toBe('SlippageExceeded');
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect(
      await revertName('createMarket', [
        keccak256(toHex('soon')),
        token,
        2,
        now + 60n,
        now + 7_200n,
        100,
        false,
        10n * UNIT,
        1_860n,
        0n,
      ]),
    ).toBe('StartTimeTooSoon');
  }, 60_000);
});
