import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HEADER, RequestIdSchema } from '@duelkit/contract';

/** Accepts a sane client x-request-id, else makes one; echoes it on every response. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const sent = req.headers[HEADER.requestId];
    const candidate = Array.isArray(sent) ? sent[0] : sent;
    const id = candidate && RequestIdSchema.safeParse(candidate).success ? candidate : randomUUID();
    req.id = id;
    res.setHeader(HEADER.requestId, id);
    next();
  };
}
