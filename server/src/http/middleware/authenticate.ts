import type { Request, RequestHandler } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { HEADER, enforcedAuth, routeMeta, type RouteMeta } from '@duelkit/contract';
import type { AuthenticationService } from '../../areas/identity/authentication.service.js';
import type { Principal } from '../../areas/identity/principal.js';
import { DomainError } from '../../errors.js';
import { tenantOf } from '../principal.js';

/** The bearer token of the Authorization header; null when there is none. */
function bearerOf(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new DomainError('TOKEN_INVALID', 'Authorization must be "Bearer <token>"');
  return match[1];
}

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The x-wallet-* credential; null when none of the three headers is sent. */
function walletCredentialOf(req: Request) {
  const address = header(req, HEADER.walletAddress);
  const signature = header(req, HEADER.walletSignature);
  const timestamp = header(req, HEADER.walletTimestamp);
  if (!address && !signature && !timestamp) return null;
  if (!address || !signature || !timestamp) {
    throw new DomainError(
      'WALLET_CREDENTIAL_INVALID',
      'Send all three x-wallet-address, x-wallet-signature and x-wallet-timestamp',
    );
  }
  return { address, signature, timestamp };
}

/**
 * Verifies a webhook delivery's credential (its signature over the raw body), throwing the refusal;
 * one per route marked `webhook`, keyed `METHOD path`.
 */
export type WebhookVerifier = (req: Request) => void | Promise<void>;

async function principalFor(
  meta: RouteMeta,
  route: AppRoute,
  auth: AuthenticationService,
  webhooks: ReadonlyMap<string, WebhookVerifier>,
  req: Request,
): Promise<Principal | undefined> {
  const kind = enforcedAuth(meta);
  switch (kind) {
    case 'public':
    case 'builder-only':
    case 'optional-bearer': {
      // A route that does not personalise never looks at a token, so a stale one cannot break it.
      if (kind !== 'optional-bearer' && !meta.personalised) return undefined;
      const token = bearerOf(req);
      return token ? auth.authenticateBearer(token, tenantOf(req).builderAppId) : undefined;
    }
    case 'bearer': {
      const token = bearerOf(req);
      if (!token) throw new DomainError('UNAUTHENTICATED', 'Bearer token required (Authorization: Bearer <token>)');
      return auth.authenticateUser(token, tenantOf(req).builderAppId);
    }
    case 'admin': {
      const token = bearerOf(req);
      if (!token) throw new DomainError('UNAUTHENTICATED', 'Admin bearer token required');
      return auth.authenticateAdmin(token, 'session');
    }
    case 'admin-challenge': {
      const token = bearerOf(req);
      if (!token) throw new DomainError('UNAUTHENTICATED', 'Send the challengeToken of the login as the bearer token');
      return auth.authenticateAdmin(token, 'complete-login');
    }
    case 'jwt-or-wallet': {
      const token = bearerOf(req);
      if (token) return auth.authenticateUser(token, tenantOf(req).builderAppId);
      const credential = walletCredentialOf(req);
      if (credential) return auth.authenticateWallet(credential);
      throw new DomainError('UNAUTHENTICATED', 'A bearer token or wallet credential (x-wallet-* headers) is required');
    }
    case 'webhook': {
      // No principal: the delivery is authenticated by its signature over the raw body. A body
      // that could not be read at all (too large, a lying encoding) cannot be verified: its own
      // error says more than "signature missing".
      if (req.deferredError !== undefined && !req.rawBody) throw req.deferredError;
      const verify = webhooks.get(`${route.method} ${route.path}`);
      if (!verify) throw new Error(`webhook route ${route.method} ${route.path} has no verifier`);
      await verify(req);
      return undefined;
    }
  }
}

/**
 * Per-route authentication from the contract metadata (the kind the server enforces, see
 * `enforcedAuth`); runs before the request is validated and before the route's handler, so a
 * caller without the credentials a route requires is refused with 401 whatever its input. Headers
 * are read here and only here: identity sees tokens and credentials, handlers see the principal.
 */
export function authenticate(
  auth: AuthenticationService,
  webhooks: ReadonlyMap<string, WebhookVerifier> = new Map(),
): RequestHandler {
  return (req, _res, next) => {
    const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    if (!route) {
      next();
      return;
    }
    principalFor(routeMeta(route), route, auth, webhooks, req).then(
      (principal) => {
        if (principal) req.principal = principal;
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
