import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { ResponseValidationError as TsRestResponseValidationError } from '@ts-rest/core';
import { RequestValidationError } from '@ts-rest/express';
import { ZodError } from 'zod';
import type { ErrorCode, FieldErrors } from '@duelkit/contract';
import type { Logger } from '../../logger.js';
import { DomainError, isDomainError } from '../../errors.js';
import { classifyInfrastructureError } from '../../platform/outage/infrastructure-error.js';
import { sendError, statusOf } from '../send-error.js';
import { requestIdOf } from '../request-context.js';
import { ResponseSchemaError } from '../response-schema-error.js';

/** Collects zod issues into `{ "<where>.<path>": [messages] }`. */
export function fieldErrorsOf(where: string, error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const extra = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of extra) {
      const key = [where, ...path.map(String)].join('.');
      const message = issue.code === 'unrecognized_keys' ? 'is not allowed' : issue.message;
      (out[key] ??= []).push(message);
    }
  }
  return out;
}

function fromValidation(err: RequestValidationError): DomainError {
  const fieldErrors: FieldErrors = {
    ...(err.pathParams ? fieldErrorsOf('params', err.pathParams) : {}),
    ...(err.headers ? fieldErrorsOf('headers', err.headers) : {}),
    ...(err.query ? fieldErrorsOf('query', err.query) : {}),
    ...(err.body ? fieldErrorsOf('body', err.body) : {}),
  };
  const fields = Object.keys(fieldErrors);
  return new DomainError(
    'VALIDATION_FAILED',
    `Invalid request: ${fields.slice(0, 5).join(', ')}${fields.length > 5 ? ', …' : ''}`,
    {
      fieldErrors,
    },
  );
}

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
  limit?: number;
}

/** The code of a client error that Express's body parsers or static file server raised with a status. */
function codeForClientStatus(status: number): ErrorCode {
  switch (status) {
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    default:
      return 'VALIDATION_FAILED';
  }
}

/**
 * Errors of the transport below the routes: body parsing (JSON, charsets, content encodings) and
 * static files. They carry an http-errors status; a 4xx is the client's mistake and answers as one.
 */
function fromBodyParser(err: BodyParserError): DomainError | null {
  switch (err.type) {
    case 'entity.parse.failed':
      return new DomainError('MALFORMED_JSON', 'Request body is not valid JSON');
    case 'entity.too.large':
      return new DomainError('PAYLOAD_TOO_LARGE', 'Request body is too large', {
        details: err.limit === undefined ? {} : { limitBytes: err.limit },
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding or charset');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new DomainError('VALIDATION_FAILED', 'Request body could not be read');
    default:
      break;
  }
  // http-errors (body parsers, the static file server) always say whether a message may be shown;
  // a missing file is a 404 they keep quiet about, which is still the client's 404.
  const status = err.status;
  const fromHttpErrors = typeof err.expose === 'boolean' && (err.expose || status === 404);
  if (typeof status === 'number' && status >= 400 && status < 500 && fromHttpErrors) {
    // A lying Content-Encoding, a traversal attempt on a static path, a malformed file name.
    const code = codeForClientStatus(status);
    return new DomainError(
      code,
      code === 'NOT_FOUND' ? 'No such file' : code === 'FORBIDDEN' ? 'Not allowed' : 'The request could not be read',
    );
  }
  return null;
}

interface SchemaFailure {
  /** `METHOD /path` of the route, when the request reached one. */
  route: string | undefined;
  issues: FieldErrors;
}

/**
 * A zod failure that is not request parsing: a route's answer that breaks its response schema
 * (ts-rest's response validation, the idempotency layer shaping a pending answer), or any other
 * schema a service parses its own data with. All of them are the server's fault.
 */
function schemaFailureOf(err: unknown, route: AppRoute | undefined): SchemaFailure | null {
  const routeName = route ? `${route.method} ${route.path}` : undefined;
  if (err instanceof ResponseSchemaError) return { route: err.route, issues: fieldErrorsOf('response', err.cause) };
  if (err instanceof TsRestResponseValidationError && err.cause instanceof ZodError) {
    return { route: `${err.appRoute.method} ${err.appRoute.path}`, issues: fieldErrorsOf('response', err.cause) };
  }
  if (err instanceof ZodError) return { route: routeName, issues: fieldErrorsOf('value', err) };
  return null;
}

/**
 * The one error middleware: everything becomes an ApiError body; the unexpected becomes INTERNAL.
 * Only request parsing (ts-rest's request validation, or a DomainError a parser raised) answers
 * VALIDATION_FAILED; any other schema failure is a logged 500 that shows the caller none of it.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const requestId = requestIdOf(req);
    const internal = () =>
      new DomainError('INTERNAL', `Unexpected error; quote request id ${requestId}`, { cause: err });
    let domainError: DomainError;
    if (isDomainError(err)) domainError = err;
    else if (err instanceof RequestValidationError) domainError = fromValidation(err);
    else {
      const schemaFailure = schemaFailureOf(err, (req as { tsRestRoute?: AppRoute }).tsRestRoute);
      if (schemaFailure) {
        logger.error(
          { err, requestId, code: 'INTERNAL', route: schemaFailure.route, issues: schemaFailure.issues },
          `${schemaFailure.route ?? 'request'} failed a schema of its own`,
        );
        sendError(req, res, internal());
        return;
      }
      const parsed = err && typeof err === 'object' ? fromBodyParser(err) : null;
      domainError = parsed ?? classifyInfrastructureError(err) ?? internal();
    }
    if (statusOf(domainError) >= 500) {
      logger.error({ err: domainError.cause ?? domainError, requestId, code: domainError.code }, 'request failed');
    }
    sendError(req, res, domainError);
  };
}

/** Unknown routes answer 404 in the same body as every other error. */
export function notFound(): RequestHandler {
  return (req, _res, next) => {
    next(new DomainError('ROUTE_NOT_FOUND', `No route ${req.method} ${req.path}`));
  };
}
