import type { RequestHandler } from 'express';

/**
 * Several middleware run as one Express layer: each calls the next directly instead of going back
 * through Express's router (a path match and a layer dispatch per middleware, per request). An
 * error, passed or thrown, goes to Express's error handling as it would from a layer of its own.
 * For middleware that use plain `next()` / `next(err)` only (never `next('route')`).
 */
export function chain(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0] as RequestHandler;
  return (req, res, next) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) {
        next(err);
        return;
      }
      const handler = handlers[index++];
      if (handler === undefined) {
        next();
        return;
      }
      try {
        handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
