import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { EmptyBodySchema } from './packs.schemas.js';
import {
  CreateWebhookEndpointRequestSchema,
  DisableWebhookEndpointRequestSchema,
  RotateWebhookSecretRequestSchema,
  WebhookDeliveryIdParamsSchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryQuerySchema,
  WebhookDeliverySchema,
  WebhookEndpointIdParamsSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from './webhooks.schemas.js';

const TAG = 'Outbound webhooks';
// §6 leaves outbound events "not shown"; §4.5 lists the (inbound) webhook these sit beside.
const SECTION = '4.5';
const ext = { extension: true } as const;
/** Every description ends with this: the routes are an extension of the spec. */
const EXT = ' An extension of the service interface (outbound events, docs/events.md).';
const OWN =
  'An endpoint belongs to the builder app of the key that created it: another app’s endpoint is a 404 `NOT_FOUND`.';

/**
 * §6 outbound events, signed webhooks (an extension: the spec leaves outbound events "not shown";
 * docs/events.md). Builder-level routes: the builder key is the caller.
 */
export const webhooksContract = c.router({
  createEndpoint: {
    method: 'POST',
    path: '/svc/builder/webhooks/endpoints',
    body: CreateWebhookEndpointRequestSchema,
    responses: { 201: WebhookEndpointWithSecretSchema },
    summary: 'Register a webhook endpoint; answers its signing secret once',
    description:
      'Registers a URL that receives the builder app’s events as signed POSTs (`Duelkit-Signature: t=…,v1=…`, ' +
      'HMAC-SHA256 of `<t>.<raw body>`), at least once, retried with exponential back-off. In production the URL ' +
      'must not name a private, loopback or link-local address (400 `WEBHOOK_URL_FORBIDDEN`); at most 20 endpoints ' +
      'per app (409 `WEBHOOK_LIMIT`).' +
      EXT,
    metadata: meta(TAG, SECTION, 'builder-only', { ...ext, idempotent: true }),
  },
  listEndpoints: {
    method: 'GET',
    path: '/svc/builder/webhooks/endpoints',
    responses: { 200: WebhookEndpointListSchema },
    summary: 'The builder app’s webhook endpoints, newest first',
    description:
      'Secrets are never listed: each is shown once, when the endpoint is created or its secret rotated.' + EXT,
    metadata: meta(TAG, SECTION, 'builder-only', ext),
  },
  rotateSecret: {
    method: 'POST',
    path: '/svc/builder/webhooks/endpoints/:endpointId/rotate-secret',
    pathParams: WebhookEndpointIdParamsSchema,
    body: RotateWebhookSecretRequestSchema,
    responses: { 200: WebhookEndpointWithSecretSchema },
    summary: 'Replace an endpoint’s signing secret; answers the new one once',
    description:
      'For `overlapSeconds` after the rotation each delivery carries two `v1=` signatures, one per secret, so a ' +
      `receiver can switch without losing a delivery. ${OWN}` +
      EXT,
    metadata: meta(TAG, SECTION, 'builder-only', { ...ext, idempotent: true }),
  },
  disableEndpoint: {
    method: 'POST',
    path: '/svc/builder/webhooks/endpoints/:endpointId/disable',
    pathParams: WebhookEndpointIdParamsSchema,
    body: DisableWebhookEndpointRequestSchema,
    responses: { 200: WebhookEndpointSchema },
    summary: 'Stop delivering to an endpoint',
    description: `Pending deliveries stop; disabling a disabled endpoint answers it unchanged. ${OWN}` + EXT,
    metadata: meta(TAG, SECTION, 'builder-only', { ...ext, repeatable: true }),
  },
  testEndpoint: {
    method: 'POST',
    path: '/svc/builder/webhooks/endpoints/:endpointId/test',
    pathParams: WebhookEndpointIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 202: WebhookDeliverySchema },
    summary: 'Queue a signed `webhook.test` event to one endpoint',
    description:
      `The delivery is queued, not sent within the request; follow it in the deliveries list. A disabled endpoint is a 409 \`INVALID_STATE\`. ${OWN}` +
      EXT,
    metadata: meta(TAG, SECTION, 'builder-only', { ...ext, idempotent: true }),
  },
  listDeliveries: {
    method: 'GET',
    path: '/svc/builder/webhooks/endpoints/:endpointId/deliveries',
    pathParams: WebhookEndpointIdParamsSchema,
    query: WebhookDeliveryQuerySchema,
    responses: { 200: WebhookDeliveryListSchema },
    summary: 'An endpoint’s deliveries with every attempt, newest first',
    description:
      `Each attempt records its time, the endpoint’s status code or the error, and its duration. ${OWN}` + EXT,
    metadata: meta(TAG, SECTION, 'builder-only', ext),
  },
  redeliver: {
    method: 'POST',
    path: '/svc/builder/webhooks/deliveries/:deliveryId/redeliver',
    pathParams: WebhookDeliveryIdParamsSchema,
    body: EmptyBodySchema,
    responses: { 202: WebhookDeliverySchema },
    summary: 'Send a delivery again (the same event, with a fresh signature)',
    description:
      'Queues the delivery again from its first attempt, whatever its status; the event keeps its `id`, so a ' +
      'receiver that deduplicates on it acts once. A delivery of a disabled endpoint is a 409 `INVALID_STATE`; a ' +
      'delivery of another app’s endpoint a 404 `NOT_FOUND`.' +
      EXT,
    metadata: meta(TAG, SECTION, 'builder-only', { ...ext, repeatable: true }),
  },
});
