import type { AppRoute } from '@ts-rest/core';
import type { ZodError } from 'zod';

/**
 * A route's own answer broke its response schema: a server bug, never the caller's mistake. The
 * error handler answers it as a logged 500 INTERNAL whose body shows none of the schema.
 */
export class ResponseSchemaError extends Error {
  /** `METHOD /path` of the route whose answer broke its schema. */
  readonly route: string;
  readonly status: number;
  override readonly cause: ZodError;

  constructor(route: Pick<AppRoute, 'method' | 'path'>, status: number, cause: ZodError) {
    super(`The ${status} answer of ${route.method} ${route.path} does not match its response schema`);
    this.name = 'ResponseSchemaError';
    this.route = `${route.method} ${route.path}`;
    this.status = status;
    this.cause = cause;
  }
}
