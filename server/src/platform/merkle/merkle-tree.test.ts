import { describe, expect, it } from 'vitest';
import { keccak256, toHex, type Address } from 'viem';
import { buildDistribution, verifyLeaf } from './merkle-tree.js';

const pool = keccak256(toHex('duelkit:pack:test'));
const a = '0x1111111111111111111111111111111111111111' as Address;
const b = '0x2222222222222222222222222222222222222222' as Address;
const c = '0x3333333333333333333333333333333333333333' as Address;

describe('buildDistribution', () => {
  it('serves a proof per account that verifies against the root, and only for its own amount', () => {
    const d = buildDistribution(pool, [
      { account: a, amount: 10n },
      { account: b, amount: 25n },
      { account: c, amount: 5n },
    ]);
    expect(d.total).toBe(40n);
    expect(d.leaves.map((l) => l.account)).toEqual([a, b, c]);
    for (const leaf of d.leaves) expect(verifyLeaf(d.root, pool, leaf)).toBe(true);
    const [first] = d.leaves;
    expect(verifyLeaf(d.root, pool, { ...first!, amount: first!.amount + 1n })).toBe(false);
    expect(verifyLeaf(d.root, pool, { ...first!, account: b })).toBe(false);
    expect(verifyLeaf(d.root, keccak256(toHex('another pool')), first!)).toBe(false);
  });

  it('is canonical: the same table in any order and casing gives the same root', () => {
    const one = buildDistribution(pool, [
      { account: a, amount: 1n },
      { account: b, amount: 2n },
    ]);
    const two = buildDistribution(pool.toUpperCase().replace('0X', '0x') as `0x${string}`, [
      { account: b.toLowerCase() as Address, amount: 2n },
      { account: a, amount: 1n },
    ]);
    expect(two.root).toBe(one.root);
  });

  it('sums entries of one account into one leaf and drops zero amounts', () => {
    const d = buildDistribution(pool, [
      { account: a, amount: 3n },
      { account: a, amount: 4n },
      { account: b, amount: 0n },
    ]);
    expect(d.leaves).toHaveLength(1);
    expect(d.leaves[0]).toMatchObject({ account: a, amount: 7n });
    expect(verifyLeaf(d.root, pool, d.leaves[0]!)).toBe(true);
  });

  it('refuses an empty table, negative amounts and a malformed pool id', () => {
    expect(() => buildDistribution(pool, [])).toThrow(/at least one/);
    expect(() => buildDistribution(pool, [{ account: a, amount: -1n }])).toThrow(/negative/);
    expect(() => buildDistribution('0x1234', [{ account: a, amount: 1n }])).toThrow(/32 bytes/);
  });
});
