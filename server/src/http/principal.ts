import type { Request } from 'express';
import type { Tenant } from '../areas/builders/builder-key.service.js';
import { DomainError } from '../errors.js';
import type { Principal } from './request-context.js';

/** The request's builder app; every spec route has one (the builder-key middleware ran). */
export function tenantOf(req: Request): Tenant {
  if (!req.tenant) throw new DomainError('BUILDER_KEY_INVALID', 'Builder API key required');
  return req.tenant;
}

export function userOf(req: Request): Extract<Principal, { kind: 'user' }> {
  const p = req.principal;
  if (p?.kind !== 'user') throw new DomainError('UNAUTHENTICATED', 'Bearer token required');
  return p;
}

export function adminOf(req: Request): Extract<Principal, { kind: 'admin' }> {
  const p = req.principal;
  if (p?.kind !== 'admin') throw new DomainError('UNAUTHENTICATED', 'Admin bearer token required');
  return p;
}
