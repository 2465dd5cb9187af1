import { decodeFunctionData, erc20Abi, getAddress, keccak256, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { PrizeVaultAbi } from './artifacts/PrizeVault.js';
import { ViemPrizeVaultAdapter } from './viem-prize-vault.adapter.js';

const vaults = {
  credits: getAddress('0x00000000000000000000000000000000000000a1'),
  usdc: getAddress('0x00000000000000000000000000000000000000a2'),
};
const tokens = {
  credits: getAddress('0x00000000000000000000000000000000000000b1'),
  usdc: getAddress('0x00000000000000000000000000000000000000b2'),
};
const account = getAddress('0x00000000000000000000000000000000000000cc');
const node = (s: string): Hex => keccak256(toHex(s));
const poolId = node('pool');

// Building calls reads nothing and writes nothing, so the adapter needs no client, pipeline or operator.
const adapter = new ViemPrizeVaultAdapter({} as never, {} as never, {} as never, vaults, tokens);

describe('ViemPrizeVaultAdapter calls a client sends itself', () => {
  for (const [kind, kindIndex] of [
    ['payout', 0],
    ['refund', 1],
  ] as const) {
    it(`encodes the ${kind} claim of a leaf as PrizeVault.claim on the collateral's vault`, () => {
      const claim = { poolId, kind, account, amount: 5n * 10n ** 18n, proof: [node('a'), node('b')] };
      const call = adapter.claimCall('usdc', claim);
      expect(call.to).toBe(vaults.usdc);
      const decoded = decodeFunctionData({ abi: PrizeVaultAbi, data: call.data });
      expect(decoded.functionName).toBe('claim');
      expect(decoded.args).toEqual([poolId, kindIndex, account, claim.amount, claim.proof]);
    });
  }

  it('encodes a deposit as approve on the token for the vault, then PrizeVault.deposit, each described', () => {
    const amount = 7n * 10n ** 18n;
    const [approve, deposit, ...rest] = adapter.depositCalls('credits', poolId, 2, amount);
    expect(rest).toEqual([]);
    expect(approve).toMatchObject({
      to: tokens.credits,
      description: `approve(${vaults.credits}, ${amount}) on the collateral token`,
    });
    expect(decodeFunctionData({ abi: erc20Abi, data: approve!.data })).toEqual({
      functionName: 'approve',
      args: [vaults.credits, amount],
    });
    expect(deposit).toMatchObject({
      to: vaults.credits,
      description: `deposit(${poolId}, 2, ${amount}) on the prize vault`,
    });
    expect(decodeFunctionData({ abi: PrizeVaultAbi, data: deposit!.data })).toEqual({
      functionName: 'deposit',
      args: [poolId, 2, amount],
    });
  });

  it('answers the same calldata as the in-memory fake, which differs only in its addresses', () => {
    const fake = new PrizeVaultFake();
    const claim = { poolId, kind: 'payout' as const, account, amount: 1n, proof: [node('a')] };
    expect(fake.claimCall('credits', claim)).toEqual({
      to: fake.address('credits'),
      data: adapter.claimCall('credits', claim).data,
    });
    const fakeCalls = fake.depositCalls('credits', poolId, 1, 3n);
    const realCalls = adapter.depositCalls('credits', poolId, 1, 3n);
    expect(fakeCalls[1]).toEqual({ ...realCalls[1], to: fake.address('credits') });
    expect(decodeFunctionData({ abi: erc20Abi, data: fakeCalls[0]!.data }).args).toEqual([fake.address('credits'), 3n]);
  });
});
