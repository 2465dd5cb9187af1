import type { OperationContext } from '../areas/platform-invites/platform-invite.service.js';
import type { Clock } from '../platform/clock.js';
import { adminOf, userOf } from './principal.js';
import { requestIdOf } from './request-context.js';

/** What a context is built from: the request's attached principal and its id (ts-rest narrows `req`). */
type Caller = Parameters<typeof adminOf>[0] & { id?: unknown };

/** The context of an admin's operation: who, which request, and `now` from the injected clock. */
export function adminContext(req: Caller, clock: Clock): OperationContext {
  return { actor: adminOf(req).email, requestId: requestIdOf(req), now: new Date(clock.now()) };
}

/** The context of a signed-in user's operation. */
export function userContext(req: Caller, clock: Clock): OperationContext & { userId: string } {
  const user = userOf(req);
  return { actor: `user:${user.userId}`, userId: user.userId, requestId: requestIdOf(req), now: new Date(clock.now()) };
}
