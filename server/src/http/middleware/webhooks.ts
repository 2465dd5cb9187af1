import type { Request, RequestHandler } from 'express';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { routeMeta } from '@duelkit/contract';

function isRoute(value: AppRoute | AppRouter): value is AppRoute {
  return typeof (value as AppRoute).method === 'string' && typeof (value as AppRoute).path === 'string';
}

/** The paths, by method, of every route the contract marks `webhook` (authenticated by a signature, not a builder key). */
export type WebhookRoutes = ReadonlyMap<string, ReadonlySet<string>>;

/** The webhook routes of a contract: a request is checked by one map lookup, without building a key. */
export function webhookRoutes(router: AppRouter): WebhookRoutes {
  const found = new Map<string, Set<string>>();
  const walk = (r: AppRouter) => {
    for (const value of Object.values(r)) {
      if (isRoute(value)) {
        if (routeMeta(value).auth !== 'webhook') continue;
        const paths = found.get(value.method) ?? new Set<string>();
        paths.add(value.path);
        found.set(value.method, paths);
      } else {
        walk(value);
      }
    }
  };
  walk(router);
  return found;
}

/** Whether `req` targets one of `routes` (webhook paths carry no parameters). */
export const isWebhookRequest = (routes: WebhookRoutes, req: Pick<Request, 'method' | 'path'>): boolean =>
  routes.get(req.method)?.has(req.path) ?? false;

/** Runs `inner` except on webhook routes: the contract's metadata decides, not the path. */
export function unlessWebhook(routes: WebhookRoutes, inner: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (isWebhookRequest(routes, req)) {
      next();
      return;
    }
    inner(req, res, next);
  };
}
