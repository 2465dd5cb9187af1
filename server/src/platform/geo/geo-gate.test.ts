import { ERROR_STATUS } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { GeoGate } from './geo-gate.js';
import { assertCollateralAllowed, UNRESTRICTED } from './region.js';
import { ChainedGeoLookup } from '../../adapters/geo/chained-geo-lookup.adapter.js';
import { CsvGeoLookup } from '../../adapters/geo/csv-geo-lookup.adapter.js';
import { HeaderGeoLookup } from '../../adapters/geo/header-geo-lookup.adapter.js';

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
  it('finds a blocked country by the trusted header', () => {
    expect(gate.regionOf({ ip: '1.0.0.1', headers: { 'cf-ipcountry': 'us' } })).toEqual({
      country: 'US',
      usdcAllowed: false,
    });
  });

  it('finds a blocked country by the offline database, IPv4 and IPv6', () => {
    for (const ip of ['8.8.8.8', '::ffff:8.8.8.8', '2001:db8::1']) {
      expect(gate.regionOf({ ip, headers: {} }).usdcAllowed).toBe(false);
    }
  });

  it('allows usdc from other and unknown countries', () => {
    expect(gate.regionOf({ ip: '1.0.0.9', headers: {} })).toEqual({ country: 'AU', usdcAllowed: true });
    expect(gate.regionOf({ ip: '9.9.9.9', headers: {} })).toEqual({ country: null, usdcAllowed: true });
  });

  it('allows everything when no country is blocked', () => {
    expect(new GeoGate(lookup, []).regionOf({ ip: '8.8.8.8', headers: {} }).usdcAllowed).toBe(true);
  });
});

describe('assertCollateralAllowed', () => {
  const blocked = gate.regionOf({ ip: '8.8.8.8', headers: {} });

  it('refuses usdc from a blocked region with 403 and the country in details', () => {
    try {
      assertCollateralAllowed(blocked, 'usdc');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect(ERROR_STATUS[(err as DomainError).code]).toBe(403);
      expect((err as DomainError).details).toEqual({ country: 'US', collateralStack: 'usdc' });
    }
  });

  it('never gates credits or an absent collateral, and lets usdc through elsewhere', () => {
    expect(codeOf(() => assertCollateralAllowed(blocked, 'credits'))).toBeNull();
    expect(codeOf(() => assertCollateralAllowed(blocked, undefined))).toBeNull();
    expect(codeOf(() => assertCollateralAllowed(UNRESTRICTED, 'usdc'))).toBeNull();
  });
});
