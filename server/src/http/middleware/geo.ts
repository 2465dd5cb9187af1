import type { Request, RequestHandler } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { routeMeta, type GeoRule } from '@duelkit/contract';
import type { GeoGate } from '../../platform/geo/geo-gate.js';
import { assertCollateralAllowed } from '../../platform/geo/region.js';

/**
 * The values at a dotted path of the request (`body.markets[].collateralStack`): a `[]` segment
 * walks every element of an array. Missing steps yield nothing.
 */
export function valuesAt(req: { body?: unknown; query?: unknown }, path: string): unknown[] {
  let current: unknown[] = [req];
  for (const segment of path.split('.')) {
    const many = segment.endsWith('[]');
    const key = many ? segment.slice(0, -2) : segment;
    const next: unknown[] = [];
    for (const value of current) {
      const child = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
      if (many) {
        if (Array.isArray(child)) next.push(...(child as unknown[]));
      } else if (child !== undefined) next.push(child);
    }
    current = next;
  }
  return current;
}

function collateralsOf(req: Request, rule: GeoRule): unknown[] {
  return rule.collateralFrom === 'market' ? [] : valuesAt(req, rule.collateralFrom);
}

/**
 * The usdc geo gate, per the route's `geo` metadata: resolves the caller's region for the
 * handler, and refuses a request that names usdc collateral from a blocked region. Routes whose
 * collateral is the market's leave that judgement to the service, with the region as a value.
 */
export function geoGate(gate: GeoGate): RequestHandler {
  return (req, _res, next) => {
    const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    const rule = route ? routeMeta(route).geo : undefined;
    if (!rule) {
      next();
      return;
    }
    try {
      const region = gate.regionOf({ ip: req.ip, headers: req.headers });
      req.region = region;
      // The body is not validated yet: only an exact `usdc` is gated; anything else fails validation.
      if (collateralsOf(req, rule).includes('usdc')) assertCollateralAllowed(region, 'usdc');
      next();
    } catch (err) {
      next(err);
    }
  };
}
