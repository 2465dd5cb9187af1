import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slippageFloor } from './bet-quotes.js';
import { QuoteSigner } from './quote-signer.js';

describe('QuoteSigner', () => {
  const fields = { side: 'buy', duelId: `0x${'a'.repeat(64)}`, sharesOut: '123', pricesBefore: ['1', '2'] };

  it('verifies its own signature whatever the key order', () => {
    const signer = new QuoteSigner('secret');
    const id = signer.sign(fields);
    expect(signer.verify(id, { pricesBefore: ['1', '2'], sharesOut: '123', duelId: fields.duelId, side: 'buy' })).toBe(
      true,
    );
  });

  it('rejects an altered field, an altered id and another secret', () => {
    const signer = new QuoteSigner('secret');
    const id = signer.sign(fields);
    expect(signer.verify(id, { ...fields, sharesOut: '124' })).toBe(false);
    expect(signer.verify(id, { ...fields, pricesBefore: ['2', '1'] })).toBe(false);
    expect(signer.verify(`${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`, fields)).toBe(false);
    expect(new QuoteSigner('other').verify(id, fields)).toBe(false);
  });
});

describe('slippageFloor', () => {
  it('is never above the quote and drops by at most the slippage', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 5_000 }), (x, bps) => {
        const floor = slippageFloor(x, bps);
        expect(floor).toBeLessThanOrEqual(x);
        expect(floor * 10_000n).toBeLessThanOrEqual(x * BigInt(10_000 - bps));
        expect((floor + 1n) * 10_000n).toBeGreaterThan(x * BigInt(10_000 - bps));
      }),
    );
  });
});
