import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  keccak256,
  toHex,
  type Address,
  type EIP1193Provider,
  type Hex,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { CollateralTokenAbi, CollateralTokenBytecode } from '../../adapters/chain/artifacts/CollateralToken.js';
import { PrizeVaultAbi, PrizeVaultBytecode } from '../../adapters/chain/artifacts/PrizeVault.js';
import { buildDistribution } from './merkle-tree.js';

// Well-known development keys: local test chain only.
const operator = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const alice = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const bob = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
const UNIT = 10n ** 18n;

let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
let token: Address;
let vault: Address;

async function send(
  from: PrivateKeyAccount,
  address: Address,
  abi: readonly unknown[],
  functionName: string,
  args: readonly unknown[],
) {
  const { request } = await pub.simulateContract({ address, abi, functionName, args, account: from } as never);
  const hash = await wallet.writeContract({ ...(request as object), account: from, chain: null } as never);
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
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

const balanceOf = (who: Address) =>
  pub.readContract({ address: token, abi: CollateralTokenAbi, functionName: 'balanceOf', args: [who] });

beforeAll(async () => {
  const hre = await createHardhatRuntimeEnvironment({ networks: { sim: { type: 'edr-simulated', chainId: 31337 } } });
  const { provider } = await hre.network.connect('sim');
  const transport = custom(provider as unknown as EIP1193Provider);
  pub = createPublicClient({ transport });
  wallet = createWalletClient({ transport });
  for (const a of [operator, alice, bob]) {
    await provider.request({ method: 'hardhat_setBalance', params: [a.address, toHex(10n ** 22n)] });
  }
  const deploy = async (abi: readonly unknown[], bytecode: Hex, args: readonly unknown[]) => {
    const hash = await wallet.deployContract({ abi, bytecode, args, account: operator, chain: null });
    const { contractAddress } = await pub.waitForTransactionReceipt({ hash });
    return contractAddress as Address;
  };
  token = await deploy(CollateralTokenAbi, CollateralTokenBytecode, ['Credits', 'CRD', operator.address]);
  vault = await deploy(PrizeVaultAbi, PrizeVaultBytecode, [token, operator.address]);
  for (const a of [alice, bob]) {
    await send(operator, token, CollateralTokenAbi, 'mint', [a.address, 100n * UNIT]);
    await send(a, token, CollateralTokenAbi, 'approve', [vault, 2n ** 255n]);
  }
}, 60_000);

describe('PrizeVault with proofs from the Merkle module', () => {
  it('pays each leaf once, to its account, and refuses tampered or foreign proofs', async () => {
    const pool = keccak256(toHex('duelkit:pack:chain-test'));
    await send(alice, vault, PrizeVaultAbi, 'deposit', [pool, 0, 10n * UNIT]);
    await send(bob, vault, PrizeVaultAbi, 'deposit', [pool, 0, 10n * UNIT]);
    const d = buildDistribution(pool, [
      { account: alice.address, amount: 15n * UNIT },
      { account: bob.address, amount: 4n * UNIT },
    ]);
    expect(await revertName(send(alice, vault, PrizeVaultAbi, 'setRoot', [pool, 0, d.root, d.total]))).toBe(
      'NotOperator',
    );
    await send(operator, vault, PrizeVaultAbi, 'setRoot', [pool, 0, d.root, d.total]);
    // What is left in the pool after the payout is set aside: 20 − 19.
    expect(
      await pub.readContract({ address: vault, abi: PrizeVaultAbi, functionName: 'poolBalance', args: [pool] }),
    ).toBe(UNIT);

    const [aliceLeaf, bobLeaf] = [alice, bob].map((a) => d.leaves.find((l) => l.account === a.address)!);
    // Bob submits Alice's proof: the money goes to Alice, never to the caller.
    const aliceBefore = await balanceOf(alice.address);
    const bobBefore = await balanceOf(bob.address);
    await send(bob, vault, PrizeVaultAbi, 'claim', [pool, 0, alice.address, aliceLeaf!.amount, aliceLeaf!.proof]);
    expect((await balanceOf(alice.address)) - aliceBefore).toBe(15n * UNIT);
    expect(await balanceOf(bob.address)).toBe(bobBefore);
    expect(
      await revertName(
        send(alice, vault, PrizeVaultAbi, 'claim', [pool, 0, alice.address, aliceLeaf!.amount, aliceLeaf!.proof]),
      ),
    ).toBe('AlreadyClaimed');

    // A tampered amount, or Alice's proof for Bob's address, fails on chain.
    expect(
      await revertName(
        send(bob, vault, PrizeVaultAbi, 'claim', [pool, 0, bob.address, bobLeaf!.amount + 1n, bobLeaf!.proof]),
      ),
    ).toBe('InvalidProof');
    expect(
      await revertName(
        send(bob, vault, PrizeVaultAbi, 'claim', [pool, 0, bob.address, aliceLeaf!.amount, aliceLeaf!.proof]),
      ),
    ).toBe('InvalidProof');
    // Against the refund root (none published) nothing is claimable.
    expect(
      await revertName(
        send(bob, vault, PrizeVaultAbi, 'claim', [pool, 1, bob.address, bobLeaf!.amount, bobLeaf!.proof]),
      ),
    ).toBe('RootNotSet');
    await send(bob, vault, PrizeVaultAbi, 'claim', [pool, 0, bob.address, bobLeaf!.amount, bobLeaf!.proof]);
    expect((await balanceOf(bob.address)) - bobBefore).toBe(4n * UNIT);
  });

  it('sets a root once, never beyond the pool, and releases only what the pool holds', async () => {
    const pool = keccak256(toHex('duelkit:tournament:chain-test'));
    await send(alice, vault, PrizeVaultAbi, 'deposit', [pool, 1, 5n * UNIT]);
    const tooBig = buildDistribution(pool, [{ account: alice.address, amount: 6n * UNIT }]);
    expect(
      await revertName(send(operator, vault, PrizeVaultAbi, 'setRoot', [pool, 1, tooBig.root, tooBig.total])),
    ).toBe('InsufficientPoolBalance');
    expect(
      await revertName(
        send(operator, vault, PrizeVaultAbi, 'release', [
          pool,
          alice.address,
          6n * UNIT,
          toHex('refund', { size: 32 }),
        ]),
      ),
    ).toBe('InsufficientPoolBalance');
    expect(
      await revertName(
        send(alice, vault, PrizeVaultAbi, 'release', [pool, alice.address, UNIT, toHex('x', { size: 32 })]),
      ),
    ).toBe('NotOperator');
    const before = await balanceOf(alice.address);
    await send(operator, vault, PrizeVaultAbi, 'release', [
      pool,
      alice.address,
      2n * UNIT,
      toHex('withdraw', { size: 32 }),
    ]);
    expect((await balanceOf(alice.address)) - before).toBe(2n * UNIT);
    const refund = buildDistribution(pool, [{ account: alice.address, amount: 3n * UNIT }]);
    await send(operator, vault, PrizeVaultAbi, 'setRoot', [pool, 1, refund.root, refund.total]);
    expect(
      await revertName(send(operator, vault, PrizeVaultAbi, 'setRoot', [pool, 1, refund.root, refund.total])),
    ).toBe('RootAlreadySet');
  });
});
