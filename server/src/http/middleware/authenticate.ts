import type { Request, RequestHandler } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { routeMeta, type AuthKind } from '@duelkit/contract';
import { DomainError } from '../../errors.js';
import type { Principal } from '../request-context.js';

/**
 * Verifies the credentials a route's auth kind asks for. The identity area provides the real
 * implementation; the kernel only knows this shape.
 */
export interface Authenticator {
  /** A user bearer token of the request's tenant, or null when the request carries none. */
  user(req: Request): Promise<Principal | null>;
  /** An admin bearer token, or null when the request carries none. */
  admin(req: Request): Promise<Principal | null>;
  /** Wallet credential headers (tournaments host), or null when absent. */
  wallet(req: Request): Promise<Principal | null>;
  /** Verifies an inbound provider webhook's signature. */
  webhook(req: Request): Promise<void>;
}

/** Used until an identity implementation is wired: every credential is absent. */
export const noCredentials: Authenticator = {
  user: () => Promise.resolve(null),
  admin: () => Promise.resolve(null),
  wallet: () => Promise.resolve(null),
  webhook: () => Promise.reject(new DomainError('UNAUTHENTICATED', 'Webhook signature verification is not configured')),
};

async function principalFor(kind: AuthKind, auth: Authenticator, req: Request): Promise<Principal | undefined> {
  switch (kind) {
    case 'public':
    case 'builder-only':
      return undefined;
    case 'webhook':
      await auth.webhook(req);
      return undefined;
    case 'optional-bearer':
      return (await auth.user(req)) ?? undefined;
    case 'bearer': {
      const user = await auth.user(req);
      if (!user) throw new DomainError('UNAUTHENTICATED', 'Bearer token required (Authorization: Bearer <token>)');
      return user;
    }
    case 'admin': {
      const admin = await auth.admin(req);
      if (!admin) throw new DomainError('UNAUTHENTICATED', 'Admin bearer token required');
      return admin;
    }
    case 'jwt-or-wallet': {
      const who = (await auth.user(req)) ?? (await auth.wallet(req));
      if (!who) {
        throw new DomainError(
          'UNAUTHENTICATED',
          'A bearer token or wallet credential (x-wallet-* headers) is required',
        );
      }
      return who;
    }
  }
}

/** Per-route authentication from the contract metadata; runs before the route's handler. */
export function authenticate(auth: Authenticator): RequestHandler {
  return (req, _res, next) => {
    const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    if (!route) {
      next();
      return;
    }
    principalFor(routeMeta(route).auth, auth, req).then(
      (principal) => {
        if (principal) req.principal = principal;
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
