import type { RequestHandler, Response } from 'express';
import type { Logger } from '../../logger.js';
import { redactUrl } from '../../logger.js';
import { requestIdOf } from '../request-context.js';

/** What the request log keeps between a request's arrival and its answer, on the response. */
interface LoggedResponse extends Response {
  requestLog?: { startedAt: number; done: boolean };
}

/**
 * One pino line per request, written when the answer is sent (or the client goes away): the
 * request's id, method and URL (secret query parameters redacted), the status and the time taken.
 * It neither makes a child logger nor serialises the request object per request; the fields are
 * those pino-http wrote (`req`, `res`, `responseTime`), so log queries keep working.
 *
 * The line is written by a child of `logger` bound to the host once, without the logger's
 * redaction: every field of it is built here (the URL already redacted), so no configured path
 * can match, and walking them costs more than the rest of the line.
 */
export function requestLog(logger: Logger, host: string): RequestHandler {
  const lines = logger.child({ host }, { redact: [] });
  const finished = function (this: LoggedResponse) {
    const state = this.requestLog;
    if (!state || state.done) return;
    state.done = true;
    const req = this.req;
    const statusCode = this.statusCode;
    // Infrastructure timing: how long the answer took on this process's wall clock.
    const responseTime = Date.now() - state.startedAt;
    const fields = {
      req: { id: requestIdOf(req), method: req.method, url: redactUrl(req.originalUrl) },
      res: { statusCode },
      responseTime,
    };
    if (statusCode >= 500) lines.error(fields, 'request errored');
    else if (!this.writableFinished) lines.info(fields, 'request aborted');
    else lines.info(fields, 'request completed');
  };
  return (_req, res, next) => {
    (res as LoggedResponse).requestLog = { startedAt: Date.now(), done: false };
    // A response always closes, after its last byte or when its client goes away.
    res.on('close', finished);
    next();
  };
}
