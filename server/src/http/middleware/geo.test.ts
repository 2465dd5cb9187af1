import { describe, expect, it } from 'vitest';
import { valuesAt } from './geo.js';

describe('valuesAt', () => {
  it('reads a dotted path of the body or the query', () => {
    expect(valuesAt({ body: { collateralStack: 'usdc' } }, 'body.collateralStack')).toEqual(['usdc']);
    expect(valuesAt({ query: { collateralMode: 'credits' } }, 'query.collateralMode')).toEqual(['credits']);
  });

  it('walks every element of an array marked []', () => {
    const body = { markets: [{ collateralStack: 'credits' }, {}, { collateralStack: 'usdc' }] };
    expect(valuesAt({ body }, 'body.markets[].collateralStack')).toEqual(['credits', 'usdc']);
  });

  it('yields nothing for missing steps, non-objects and non-arrays', () => {
    expect(valuesAt({}, 'body.collateralStack')).toEqual([]);
    expect(valuesAt({ body: 'text' }, 'body.collateralStack')).toEqual([]);
    expect(valuesAt({ body: { markets: { collateralStack: 'usdc' } } }, 'body.markets[].collateralStack')).toEqual([]);
  });
});
