import type { GeoLookupPort, GeoRequest } from './geo.port.js';

/** Reads the country from a header a trusted edge (CDN, load balancer) sets, e.g. `cf-ipcountry`. */
export class HeaderGeoLookup implements GeoLookupPort {
  constructor(private readonly header: string) {}

  countryOf(req: GeoRequest): string | null {
    const raw = req.headers[this.header.toLowerCase()];
    const value = Array.isArray(raw) ? raw[0] : raw;
    return value && /^[A-Za-z]{2}$/.test(value.trim()) ? value.trim().toUpperCase() : null;
  }
}
