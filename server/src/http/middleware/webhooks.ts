import type { Request, RequestHandler } from 'express';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { routeMeta } from '@duelkit/contract';

function isRoute(value: AppRoute | AppRouter): value is AppRoute {
  return typeof (value as AppRoute).method === 'string' && typeof (value as AppRoute).path === 'string';
}

/** `METHOD path` of every route the contract marks `webhook` (authenticated by a signature, not a builder key). */
export function webhookRoutes(router: AppRouter): Set<string> {
  const found = new Set<string>();
  const walk = (r: AppRouter) => {
    for (const value of Object.values(r)) {
      if (isRoute(value)) {
        if (routeMeta(value).auth === 'webhook') found.add(`${value.method} ${value.path}`);
      } else {
        walk(value);
      }
    }
  };
  walk(router);
  return found;
}

/** Whether `req` targets one of `routes` (webhook paths carry no parameters). */
export const isWebhookRequest = (routes: ReadonlySet<string>, req: Pick<Request, 'method' | 'path'>) =>
  routes.has(`${req.method} ${req.path}`);

/** Runs `inner` except on webhook routes: the contract's metadata decides, not the path. */
export function unlessWebhook(routes: ReadonlySet<string>, inner: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (isWebhookRequest(routes, req)) {
      next();
      return;
    }
    inner(req, res, next);
  };
}
