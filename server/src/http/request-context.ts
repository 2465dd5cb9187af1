import type { Tenant } from '../areas/builders/builder-key.service.js';

/** Who is calling, beyond the builder app: set by the authentication step of a route. */
export type Principal =
  | {
      readonly kind: 'user';
      readonly userId: string;
      /** Managed wallet address (holds funds and positions). */
      readonly address: string;
      /** The EOA that signed in. */
      readonly eoaAddress: string;
      readonly builderAppId: string;
      readonly tokenId: string;
      /** Token expiry, seconds since the epoch. */
      readonly expiresAt: number;
    }
  | {
      readonly kind: 'admin';
      readonly adminId: string;
      readonly email: string;
      readonly tokenId: string;
      readonly expiresAt: number;
    }
  | { readonly kind: 'wallet'; readonly address: string; readonly expiresAt: number };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Builder app resolved from x-builder-api-key. */
      tenant?: Tenant;
      /** Authenticated user, admin or wallet, when the route authenticates one. */
      principal?: Principal;
    }
  }
}

/** A stable identity for per-caller scoping (idempotency keys, limits). */
export function callerId(principal: Principal | undefined): string {
  if (!principal) return 'builder';
  switch (principal.kind) {
    case 'user':
      return `user:${principal.userId}`;
    case 'admin':
      return `admin:${principal.adminId}`;
    case 'wallet':
      return `wallet:${principal.address.toLowerCase()}`;
  }
}

/** The request's correlation id (set by the request-id middleware; pino-http types it loosely). */
export function requestIdOf(req: { id?: unknown }): string {
  return String(req.id);
}
