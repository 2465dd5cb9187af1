import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';

/** The headers helmet's defaults set: they depend on nothing in the request. */
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
 * The security headers of every API answer, after OWASP's REST Security Cheat Sheet: an answer is
 * data, never a page, so it may load nothing and be framed by nothing, its type is not sniffed and
 * it sends no referrer. helmet's defaults are meant for HTML documents (a script and style policy,
 * cross-origin isolation, legacy browser switches); they stay on the pages that are documents
 * (`documentHeaders`, the /docs reference). Without helmet's `Cross-Origin-Resource-Policy:
 * same-origin`, a builder's web app on another origin can show uploaded images from `/media`.
 */
export const API_SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
];

/** helmet's default headers, computed once, for the routes that serve HTML documents. */
export function documentHeaders(): RequestHandler {
  const headers = helmetHeaders();
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * The API's security headers and CORS in one middleware, computed once: every response gets the
 * same security headers and `Vary: Origin`; a request from an allowed origin (browsers send
 * `Origin` on every cross-origin request) adds that origin and the headers exposed to it.
 * Preflight requests (OPTIONS) go through the `cors` package, which answers them.
 */
export function securityHeaders(options: {
  corsOrigins: '*' | readonly string[];
  exposedHeaders: readonly string[];
}): RequestHandler {
  const fixed = [...API_SECURITY_HEADERS, ['Vary', 'Origin']] as const;
  const exposed = options.exposedHeaders.join(',');
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
    if (origin && (anyOrigin || allowed.has(origin))) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', exposed);
    }
    next();
  };
}
