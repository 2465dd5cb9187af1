import type { Request } from 'express';
import type { Tenant } from '../areas/builders/builder-key.service.js';
import type { AdminChallengePrincipal, AdminPrincipal, UserPrincipal } from '../areas/identity/principal.js';
import { DomainError } from '../errors.js';
import type { Region } from '../platform/geo/region.js';

/**
 * What handlers read from a request: the values the middleware attached. ts-rest narrows `req`
 * (its query is the parsed one), so these take only the fields they read.
 */
type Attached = Pick<Request, 'tenant' | 'principal' | 'region'>;

/** The request's builder app; every spec route has one (the builder-key middleware ran). */
export function tenantOf(req: Attached): Tenant {
  if (!req.tenant) throw new DomainError('BUILDER_KEY_INVALID', 'Builder API key required');
  return req.tenant;
}

export function userOf(req: Attached): UserPrincipal {
  const p = req.principal;
  if (p?.kind !== 'user') throw new DomainError('UNAUTHENTICATED', 'Bearer token required');
  return p;
}

export function adminOf(req: Attached): AdminPrincipal {
  const p = req.principal;
  if (p?.kind !== 'admin') throw new DomainError('UNAUTHENTICATED', 'Admin bearer token required');
  return p;
}

/** The half-finished admin login that 2fa/verify completes. */
export function challengeOf(req: Attached): AdminChallengePrincipal {
  const p = req.principal;
  if (p?.kind !== 'admin-challenge') {
    throw new DomainError('UNAUTHENTICATED', 'Send the challengeToken of the login as the bearer token');
  }
  return p;
}

/** On a personalised public route: the signed-in user's managed address, if a user token was sent. */
export function viewerOf(req: Attached): string | undefined {
  return req.principal?.kind === 'user' ? req.principal.address : undefined;
}

/** On a personalised public route: whether an admin token was sent. */
export function isAdminCaller(req: Attached): boolean {
  return req.principal?.kind === 'admin';
}

/** The caller's region, resolved by the geo middleware on routes under the geo gate. */
export function regionOf(req: Attached): Region {
  if (!req.region) throw new DomainError('INTERNAL', 'The geo gate did not run for this route');
  return req.region;
}
