import { ERROR_STATUS } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { GeoGate } from './geo-gate.js';
import { ChainedGeoLookup, CsvGeoLookup, HeaderGeoLookup } from '../../adapters/geo/geo-lookup.js';

const csv = ['1.0.0.0,1.0.0.255,AU', '8.8.8.0,8.8.8.255,US', '2001:db8::,2001:db8::ffff,FR'].join('\n');
const lookup = new ChainedGeoLookup([new HeaderGeoLookup('cf-ipcountry'), new CsvGeoLookup(csv)]);
const gate = new GeoGate(lookup, ['US', 'FR']);

function codeOf(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof DomainError ? err.code : 'other';
  }
}

describe('GeoGate', () => {
  it('refuses usdc from a blocked country found by the trusted header', () => {
    expect(codeOf(() => gate.assertAllowed('usdc', { ip: '1.0.0.1', headers: { 'cf-ipcountry': 'us' } }))).toBe(
      'GEO_BLOCKED',
    );
  });

  it('refuses usdc from a blocked country found by the offline database, IPv4 and IPv6', () => {
    expect(codeOf(() => gate.assertAllowed('usdc', { ip: '8.8.8.8', headers: {} }))).toBe('GEO_BLOCKED');
    expect(codeOf(() => gate.assertAllowed('usdc', { ip: '::ffff:8.8.8.8', headers: {} }))).toBe('GEO_BLOCKED');
    expect(codeOf(() => gate.assertAllowed('usdc', { ip: '2001:db8::1', headers: {} }))).toBe('GEO_BLOCKED');
  });

  it('never gates credits', () => {
    expect(
      codeOf(() => gate.assertAllowed('credits', { ip: '8.8.8.8', headers: { 'cf-ipcountry': 'US' } })),
    ).toBeNull();
  });

  it('allows usdc from other and unknown countries', () => {
    expect(codeOf(() => gate.assertAllowed('usdc', { ip: '1.0.0.9', headers: {} }))).toBeNull();
    expect(codeOf(() => gate.assertAllowed('usdc', { ip: '9.9.9.9', headers: {} }))).toBeNull();
  });

  it('answers 403 with the country in details', () => {
    try {
      gate.assertAllowed('usdc', { ip: '8.8.8.8', headers: {} });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect(ERROR_STATUS[(err as DomainError).code]).toBe(403);
      expect((err as DomainError).details).toEqual({ country: 'US', collateralStack: 'usdc' });
    }
  });

  it('reads the collateral from collateralStack or collateralMode in body or query', () => {
    expect(GeoGate.collateralOf({ body: { collateralStack: 'usdc' } })).toBe('usdc');
    expect(GeoGate.collateralOf({ query: { collateralMode: 'credits' } })).toBe('credits');
    expect(GeoGate.collateralOf({ body: { collateralStack: 'gold' } })).toBeUndefined();
  });
});
