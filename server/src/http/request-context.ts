import type { Tenant } from '../areas/builders/builder-key.service.js';
import type { Principal } from '../areas/identity/principal.js';
import type { Region } from '../platform/geo/region.js';
import type { IdempotentRun } from '../platform/idempotency/idempotent-run.js';
import type { OperationContext } from '../platform/operation.context.js';
import type { ActorContext } from '../areas/platform-invites/platform-invite.service.js';
import { adminOf, userOf } from './principal.js';

export { callerId } from '../areas/identity/principal.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request's correlation id (set by the request-id middleware). */
      id?: string;
      /** Builder app resolved from x-builder-api-key. */
      tenant?: Tenant;
      /** Authenticated user, admin or wallet, when the route authenticates one. */
      principal?: Principal;
      /** The caller's region, on routes under the geo gate. */
      region?: Region;
      /** The exact body bytes, kept on webhook routes only (their signature covers them). */
      rawBody?: Buffer;
      /** A client error of body parsing or the input guard, answered after route authentication. */
      deferredError?: Error;
      /** The execution of a request that carries an Idempotency-Key (set by the idempotency middleware). */
      idempotentRun?: IdempotentRun;
      /** The request's operation context (see `ctxOf`). */
      operation?: OperationContext;
    }
  }
}

/** The request's correlation id (set by the request-id middleware). */
export function requestIdOf(req: { id?: unknown }): string {
  return String(req.id);
}

/** The request's operation context, built by the `operation` middleware before any route runs. */
export function ctxOf(req: { operation?: OperationContext | undefined }): OperationContext {
  if (!req.operation) throw new Error('The operation middleware did not run for this request');
  return req.operation;
}

/** What an actor's context is built from: the request with its principal and operation (ts-rest narrows `req`). */
type ActingRequest = Parameters<typeof adminOf>[0] & { operation?: OperationContext | undefined };

/** The request's operation context with the acting admin (by email); 401/403 when the caller is not one. */
export function adminContext(req: ActingRequest): ActorContext {
  return { ...ctxOf(req), actor: adminOf(req).email };
}

/** The request's operation context with the signed-in user acting. */
export function userContext(req: ActingRequest): ActorContext & { readonly userId: string } {
  const user = userOf(req);
  return { ...ctxOf(req), actor: `user:${user.userId}`, userId: user.userId };
}
