import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { EventStreamBodySchema, EventStreamHeadersSchema, EventStreamQuerySchema } from './events.schemas.js';

const TAG = 'Event streams';
// §6 leaves outbound events "not shown"; §4.5 lists the (inbound) webhook these sit beside.
const SECTION = '4.5';
const ext = { extension: true } as const;
const EXT = ' An extension of the service interface (outbound events, docs/events.md).';
const RESUME =
  'Events come in `seq` order, each once; a client that reconnects with `Last-Event-ID` (or `lastEventId`) set to ' +
  'the last `seq` it saw misses nothing and sees nothing twice. ';

/**
 * §6 outbound events as Server-Sent Events (an extension; docs/events.md): the builder app's
 * stream and a signed-in user's. The SDK's `events.stream` and `events.userStream` follow them,
 * reconnecting and resuming by themselves.
 */
export const eventStreamContract = c.router({
  stream: {
    method: 'GET',
    path: '/svc/builder/events/stream',
    query: EventStreamQuerySchema,
    headers: EventStreamHeadersSchema,
    responses: { 200: c.otherResponse({ contentType: 'text/event-stream', body: EventStreamBodySchema }) },
    summary: 'The builder app’s events as Server-Sent Events',
    description:
      'Every event of the builder app (private markets’ included), as it commits, filtered by `types` and ' +
      `\`duelIds\`. ${RESUME}The connection stays open; the server ends it only when it shuts down.` +
      EXT,
    metadata: meta(TAG, SECTION, 'builder-only', ext),
  },
  userStream: {
    method: 'GET',
    path: '/svc/user/events/stream',
    query: EventStreamQuerySchema,
    headers: EventStreamHeadersSchema,
    responses: { 200: c.otherResponse({ contentType: 'text/event-stream', body: EventStreamBodySchema }) },
    summary: 'The events a signed-in user may see, as Server-Sent Events',
    description:
      'The builder app’s events the user may see: public markets’ events, a private market’s only while the user ' +
      'is its creator or a member (judged per event when it is sent), and personal events (`bet.confirmed`, ' +
      `\`bet.failed\`, \`payout.claimable\`, \`deposit.credited\`) only for the user’s own account. ${RESUME.trim()}` +
      EXT,
    metadata: meta(TAG, SECTION, 'bearer', ext),
  },
});
