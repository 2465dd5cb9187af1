import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { Transport } from '../core/transport.js';
import type { BoundRouter, CallOptions, ResponseMeta } from '../core/types.js';

/** Turns a contract router into a namespace of typed methods sending to `base`. */
export function bindRouter<T extends AppRouter>(transport: Transport, base: () => string, router: T): BoundRouter<T> {
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(router)) {
    if (isAppRoute(entry)) {
      const route: AppRoute = entry;
      const withResponse = (input?: object, options?: CallOptions): Promise<{ data: unknown; meta: ResponseMeta }> =>
        transport.call(base(), route, input ?? {}, options);
      const method = async (input?: object, options?: CallOptions) => (await withResponse(input, options)).data;
      out[name] = Object.assign(method, { withResponse });
    } else {
      out[name] = bindRouter(transport, base, entry);
    }
  }
  return out as BoundRouter<T>;
}
