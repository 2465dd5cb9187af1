import type { Request, RequestHandler } from 'express';
import type { FieldErrors } from '@duelkit/contract';
import { DomainError } from '../../errors.js';

/** C0 control characters and DEL: never part of a path or query value a client means to send. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * JSON bodies nest at most this deep. Real bodies nest a few levels (typed data a few more);
 * anything deeper is an attempt to exhaust the stack of whatever walks the body next.
 */
export const MAX_BODY_DEPTH = 32;

function refuse(message: string, fieldErrors: FieldErrors): DomainError {
  return new DomainError('VALIDATION_FAILED', message, { fieldErrors });
}

/** The first control character in the query (names and values, nested ones included), by key. */
function queryControl(query: unknown): string | null {
  const stack: [string, unknown][] = [['query', query]];
  while (stack.length) {
    const [path, value] = stack.pop() as [string, unknown];
    if (typeof value === 'string') {
      if (CONTROL.test(value)) return path;
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const child = `${path}.${k}`;
        if (CONTROL.test(k)) return child;
        stack.push([child, v]);
      }
    }
  }
  return null;
}

/**
 * Walks a parsed JSON body without recursion: a NUL anywhere (PostgreSQL text cannot store it) or
 * nesting past MAX_BODY_DEPTH is refused. Other control characters are data (newlines in a
 * description) and left to the contract.
 */
function bodyProblem(body: unknown): { path: string; message: string } | null {
  const stack: [string, unknown, number][] = [['body', body, 0]];
  while (stack.length) {
    const [path, value, depth] = stack.pop() as [string, unknown, number];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { path, message: 'must not contain NUL characters' };
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_BODY_DEPTH) return { path, message: `nests deeper than ${MAX_BODY_DEPTH} levels` };
      for (const [k, v] of Object.entries(value)) {
        const child = `${path}.${k}`;
        if (k.includes('\u0000')) return { path: child, message: 'must not contain NUL characters' };
        stack.push([child, v, depth + 1]);
      }
    }
  }
  return null;
}

/** The path's refusal: malformed percent-encoding or control characters; null when it is fine. */
function pathProblem(req: Request): DomainError | null {
  let path = req.path;
  // Only a percent sign can make a path decode to something else, or fail to decode.
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path);
    } catch {
      return refuse('The path is not valid percent-encoding', { params: ['malformed percent-encoding'] });
    }
  }
  if (CONTROL.test(path)) {
    return refuse('The path contains control characters', { params: ['must not contain control characters'] });
  }
  return null;
}

/**
 * The path half of {@link inputGuard} on its own: a path that cannot be decoded cannot be routed,
 * so it is refused before any route (and its authentication) is looked at.
 */
export function pathGuard(): RequestHandler {
  return (req, _res, next) => {
    next(pathProblem(req) ?? undefined);
  };
}

/**
 * Refuses, as 400 VALIDATION_FAILED, what no route can mean and what would otherwise surface as a
 * database error: control characters in the path or the query, NUL characters and runaway
 * nesting in JSON bodies. Runs after the body parser and before any route; `{ path: false }`
 * leaves the path to {@link pathGuard}.
 */
export function inputGuard(options: { path?: boolean } = {}): RequestHandler {
  return (req, _res, next) => {
    const inPath = options.path === false ? null : pathProblem(req);
    if (inPath) {
      next(inPath);
      return;
    }
    const inQuery = queryControl(req.query);
    if (inQuery) {
      next(refuse(`Invalid request: ${inQuery}`, { [inQuery]: ['must not contain control characters'] }));
      return;
    }
    const inBody = bodyProblem(req.body);
    if (inBody) {
      next(refuse(`Invalid request: ${inBody.path}`, { [inBody.path]: [inBody.message] }));
      return;
    }
    next();
  };
}
