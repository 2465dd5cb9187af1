import { EVENT_TYPES } from '@duelkit/contract';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../../errors.js';
import type { EventStreamService } from '../../platform/events/event-stream.service.js';
import { tenantOf } from '../principal.js';

export const EVENT_STREAM_PATH = '/svc/builder/events/stream';

function list(value: unknown, name: string, valid: (v: string) => boolean): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new DomainError('VALIDATION_FAILED', `Invalid ${name}`, {
      fieldErrors: { [`query.${name}`]: ['must be given once, comma-separated'] },
    });
  }
  const items = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = items.filter((v) => !valid(v));
  if (bad.length || items.length > 100) {
    throw new DomainError('VALIDATION_FAILED', `Invalid ${name}`, {
      fieldErrors: { [`query.${name}`]: [`unknown or malformed: ${bad.join(', ') || 'too many'}`] },
    });
  }
  return items.map((v) => v.toLowerCase());
}

/**
 * `GET /svc/builder/events/stream`: the builder app's events as Server-Sent Events (an extension,
 * docs/events.md). Outside the ts-rest contract because the answer is a stream; the builder key
 * is checked by the host's builder-key middleware before it runs.
 */
export function eventStreamRoute(deps: { stream: EventStreamService }): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    void (async () => {
      const builderAppId = tenantOf(req).builderAppId;
      const types = list(req.query['types'], 'types', (t) => (EVENT_TYPES as readonly string[]).includes(t));
      const duelIds = list(req.query['duelIds'], 'duelIds', (d) => /^0x[0-9a-fA-F]{64}$/.test(d));
      const lastEventId = req.header('last-event-id') ?? (req.query['lastEventId'] as string | undefined);
      if (lastEventId !== undefined && !/^\d{1,19}$/.test(lastEventId)) {
        throw new DomainError('VALIDATION_FAILED', 'Last-Event-ID must be the seq of an event', {
          fieldErrors: { 'headers.last-event-id': ['must be a decimal seq'] },
        });
      }
      const write = (chunk: string) => void res.write(chunk);
      res.status(200);
      res.setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-cache, no-transform');
      res.setHeader('x-accel-buffering', 'no');
      // Headers go out with the first write, once the stream is subscribed: a client whose request
      // has been answered sees every event committed after that.
      const close = await deps.stream.open(
        {
          filter: { builderAppId, types, duelIds, privateDuels: 'all' },
          after: lastEventId,
          prices: req.query['prices'] === 'true',
        },
        {
          event: (e) =>
            write(
              `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify({ id: e.id, seq: e.seq, type: e.type, version: e.version, createdAt: e.createdAt, builderAppId: e.builderAppId, data: e.data })}\n\n`,
            ),
          price: (p) => write(`event: price\ndata: ${JSON.stringify(p)}\n\n`),
          comment: (text) => write(`: ${text}\n\n`),
          end: () => res.end(),
        },
      );
      write('retry: 2000\n\n');
      req.on('close', close);
      if (req.destroyed) close();
    })().catch(next);
  };
}
