import type { GeoLookupPort, GeoRequest } from '../../adapters/geo/geo.port.js';
import type { Region } from './region.js';

/**
 * The usdc geo gate: usdc collateral is refused (403 GEO_BLOCKED) from blocked countries;
 * credits are never gated. A request whose country cannot be determined is allowed
 * (docs/kernel.md says why and how to change that at the edge).
 */
export class GeoGate {
  private readonly blocked: ReadonlySet<string>;

  constructor(
    private readonly lookup: GeoLookupPort,
    blockedCountries: readonly string[],
  ) {
    this.blocked = new Set(blockedCountries.map((c) => c.toUpperCase()));
  }

  /** The region of a request: its country and whether usdc may be used from there. */
  regionOf(req: GeoRequest): Region {
    if (this.blocked.size === 0) return { country: null, usdcAllowed: true };
    const country = this.lookup.countryOf(req);
    return { country, usdcAllowed: !(country && this.blocked.has(country)) };
  }
}
