import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { RequestOptions, ResponseMeta } from '../core/types.js';
import { pagePromise, paginationOf } from './pagination.js';
import type { RouteArgs } from './request.js';
import type { Transport } from './transport.js';

/** Turns a contract router into a namespace of methods sending to `base`; paginated routes also iterate. */
export function bindRouter(transport: Transport, base: string, router: AppRouter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(router)) {
    if (!isAppRoute(entry)) {
      out[name] = bindRouter(transport, base, entry);
      continue;
    }
    const route: AppRoute = entry;
    const spec = paginationOf(route);
    const withResponse = (args?: RouteArgs, options?: RequestOptions): Promise<{ data: unknown; meta: ResponseMeta }> =>
      transport.call(base, route, args ?? {}, options);
    const call = async (args?: RouteArgs, options?: RequestOptions) => (await withResponse(args, options)).data;
    const method = spec
      ? (args?: RouteArgs, options?: RequestOptions) =>
          pagePromise(call(args, options), spec, args ?? {}, (next) => call(next, options))
      : call;
    out[name] = Object.assign(method, { withResponse });
  }
  return out;
}
