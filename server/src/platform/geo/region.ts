import type { CollateralStack } from '@duelkit/contract';
import { DomainError } from '../../errors.js';

/** Where a request comes from, as far as the usdc geo gate is concerned. */
export interface Region {
  /** ISO 3166-1 alpha-2 country, or null when it could not be determined. */
  readonly country: string | null;
  /** Whether usdc collateral may be used from there. */
  readonly usdcAllowed: boolean;
}

/** A region where everything is allowed: the caller's country is unknown and nothing is blocked. */
export const UNRESTRICTED: Region = { country: null, usdcAllowed: true };

/** Throws 403 GEO_BLOCKED when `collateral` is usdc and the region may not use it; credits always pass. */
export function assertCollateralAllowed(region: Region, collateral: CollateralStack | undefined): void {
  if (collateral !== 'usdc' || region.usdcAllowed) return;
  throw new DomainError('GEO_BLOCKED', 'usdc collateral is not available in your region; credits are', {
    details: { country: region.country, collateralStack: collateral },
  });
}
