import { PassThrough } from 'node:stream';
import { initServer } from '@ts-rest/express';
import { marketsContract, type EventStreamQuery } from '@duelkit/contract';
import type { Request, Response } from 'express';
import type { UserEventVisibility } from '../../areas/markets/event-visibility.rules.js';
import type { EventStreamService, StreamRequest } from '../../platform/events/event-stream.service.js';
import { toWire } from '../../platform/events/event.types.js';
import { tenantOf, userOf } from '../principal.js';

const s = initServer();

const list = (value: string | undefined) => (value ? value.split(',').map((v) => v.toLowerCase()) : undefined);

/**
 * Answers one stream: subscribes it, then hands ts-rest the body to pipe. Headers go out with the
 * first write, once the stream is subscribed: a client whose request has been answered sees every
 * event committed after that.
 */
async function openStream(
  stream: EventStreamService,
  req: Request,
  res: Response,
  query: EventStreamQuery,
  lastEventId: string | undefined,
  scope: Pick<StreamRequest, 'filter' | 'access'>,
) {
  const body = new PassThrough();
  const write = (chunk: string) => void body.write(chunk);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('x-accel-buffering', 'no');
  const close = await stream.open(
    {
      ...scope,
      filter: { ...scope.filter, types: list(query.types), duelIds: list(query.duelIds) },
      after: lastEventId ?? query.lastEventId,
      prices: query.prices === 'true',
    },
    {
      event: (e) => write(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(toWire(e))}\n\n`),
      price: (p) => write(`event: price\ndata: ${JSON.stringify(p)}\n\n`),
      comment: (text) => write(`: ${text}\n\n`),
      end: () => body.end(),
    },
  );
  write('retry: 2000\n\n');
  res.on('close', () => {
    close();
    body.end();
  });
  if (req.destroyed) close();
  // ts-rest pipes a stream body as it is; the contract's answer is the text of the stream.
  return { status: 200 as const, body: body as unknown as string };
}

/**
 * The event streams (docs/events.md): the builder app's every event, and a signed-in user's view
 * of them. Validation, authentication and rate limits are the host's, as on every contract route.
 */
export function eventStreamRoutes(deps: { stream: EventStreamService; visibility: UserEventVisibility }) {
  return s.router(marketsContract.events, {
    stream: async ({ query, headers, req, res }) =>
      openStream(deps.stream, req, res, query, headers['last-event-id'], {
        filter: { builderAppId: tenantOf(req).builderAppId, privateDuels: 'all' },
      }),
    userStream: async ({ query, headers, req, res }) => {
      const user = userOf(req);
      return openStream(deps.stream, req, res, query, headers['last-event-id'], {
        filter: { builderAppId: tenantOf(req).builderAppId, privateDuels: 'all' },
        access: deps.visibility.forUser(user.address),
      });
    },
  });
}
