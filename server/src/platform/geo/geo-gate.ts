import type { CollateralStack } from '@duelkit/contract';
import { DomainError } from '../../errors.js';
import type { GeoLookupPort, GeoRequest } from '../../adapters/geo/geo-lookup.js';

/**
 * The usdc geo gate: usdc collateral is refused (403 GEO_BLOCKED) from blocked countries;
 * credits are never gated. A request whose country cannot be determined is allowed
 * (docs/kernel.md, "Geo gate", says why and how to close that gap at the edge).
 */
export class GeoGate {
  private readonly blocked: ReadonlySet<string>;

  constructor(
    private readonly lookup: GeoLookupPort,
    blockedCountries: readonly string[],
  ) {
    this.blocked = new Set(blockedCountries.map((c) => c.toUpperCase()));
  }

  /** Throws GEO_BLOCKED when `collateral` is usdc and the request comes from a blocked country. */
  assertAllowed(collateral: CollateralStack | undefined, req: GeoRequest): void {
    if (collateral !== 'usdc' || this.blocked.size === 0) return;
    const country = this.lookup.countryOf(req);
    if (country && this.blocked.has(country)) {
      throw new DomainError('GEO_BLOCKED', 'usdc collateral is not available in your region; credits are', {
        details: { country, collateralStack: collateral },
      });
    }
  }

  /**
   * The collateral a request asks for: `collateralStack` or `collateralMode`, in the body or the
   * query (both names exist in the spec).
   */
  static collateralOf(input: { body?: unknown; query?: unknown }): CollateralStack | undefined {
    for (const source of [input.body, input.query]) {
      if (source && typeof source === 'object') {
        const s = source as Record<string, unknown>;
        const value = s['collateralStack'] ?? s['collateralMode'];
        if (value === 'usdc' || value === 'credits') return value;
      }
    }
    return undefined;
  }
}
