import type { GeoLookupPort, GeoRequest } from './geo.port.js';

/** Tries each lookup in order; the first answer wins. */
export class ChainedGeoLookup implements GeoLookupPort {
  constructor(private readonly lookups: readonly GeoLookupPort[]) {}

  countryOf(req: GeoRequest): string | null {
    for (const lookup of this.lookups) {
      const country = lookup.countryOf(req);
      if (country) return country;
    }
    return null;
  }
}
