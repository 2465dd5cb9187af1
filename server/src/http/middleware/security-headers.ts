import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';

/** The headers helmet's defaults set on every response: they depend on nothing in the request. */
function helmetHeaders(): [string, string][] {
  const headers: [string, string][] = [];
  let done = false;
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    removeHeader() {},
    getHeader() {
      return undefined;
    },
  };
  helmet()({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet failed to set its headers');
    done = true;
  });
  // helmet's defaults are static and synchronous; anything else would need it per request.
  if (!done || headers.length === 0) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

/**
 * helmet's headers and CORS in one middleware, computed once: every response gets the same
 * security headers, and an actual (non-preflight) request only adds its allowed origin. Preflight
 * requests (OPTIONS) go through the `cors` package, which answers them.
 */
export function securityHeaders(options: {
  corsOrigins: '*' | readonly string[];
  exposedHeaders: readonly string[];
}): RequestHandler {
  const fixed = [
    ...helmetHeaders(),
    ['Vary', 'Origin'],
    ['Access-Control-Expose-Headers', options.exposedHeaders.join(',')],
  ] as const;
  const anyOrigin = options.corsOrigins === '*';
  const allowed = new Set(anyOrigin ? [] : options.corsOrigins);
  const preflight = cors({
    origin: anyOrigin ? true : [...allowed],
    exposedHeaders: [...options.exposedHeaders],
  });
  return (req, res, next) => {
    for (let i = 0; i < fixed.length; i++) {
      const header = fixed[i] as readonly [string, string];
      res.setHeader(header[0], header[1]);
    }
    if (req.method === 'OPTIONS') {
      preflight(req, res, next);
      return;
    }
    const origin = req.headers.origin;
    if (origin && (anyOrigin || allowed.has(origin))) res.setHeader('Access-Control-Allow-Origin', origin);
    next();
  };
}
