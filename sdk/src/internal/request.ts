import type { AppRoute } from '@ts-rest/core';

/** What a bound method receives: each part only where the contract has it. */
export interface RouteArgs {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** Path, query and form values are scalars; objects go as JSON rather than `[object Object]`. */
function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? '';
}

/** The route's URL under `base`, which may carry a path prefix (a reverse proxy's mount point). */
export function urlOf(base: string, route: AppRoute, args: RouteArgs): string {
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const value = args.params?.[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
    return encodeURIComponent(scalar(value));
  });
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/$/, '')}${path}`;
  for (const [k, v] of Object.entries(args.query ?? {})) {
    if (v !== undefined && v !== null) url.searchParams.set(k, scalar(v));
  }
  return url.toString();
}

/** The request body and its content type (none for multipart: fetch sets the boundary). */
export function bodyOf(
  route: AppRoute,
  body: unknown,
): { payload: BodyInit | undefined; contentType: string | undefined } {
  if (route.method === 'GET' || body === undefined) return { payload: undefined, contentType: undefined };
  if ('contentType' in route && route.contentType === 'multipart/form-data') {
    if (body instanceof FormData) return { payload: body, contentType: undefined };
    const form = new FormData();
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      form.append(k, v instanceof Blob ? v : scalar(v));
    }
    return { payload: form, contentType: undefined };
  }
  return { payload: JSON.stringify(body), contentType: 'application/json' };
}
