import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { WebhookService } from '../../areas/webhooks/webhook.service.js';
import { tenantOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

/** §6 webhook endpoints of the calling builder app (rules in WebhookService; docs/events.md). */
export function webhookRoutes(deps: { webhooks: WebhookService }) {
  const { webhooks } = deps;
  const app = (req: Parameters<typeof tenantOf>[0]) => tenantOf(req).builderAppId;
  return s.router(marketsContract.webhooks, {
    createEndpoint: async ({ body, req }) => ({
      status: 201,
      body: await webhooks.create(ctxOf(req), app(req), body),
    }),
    listEndpoints: async ({ req }) => ({ status: 200, body: await webhooks.list(app(req)) }),
    rotateSecret: async ({ params, body, req }) => ({
      status: 200,
      body: await webhooks.rotateSecret(ctxOf(req), app(req), params.endpointId, body.overlapSeconds),
    }),
    disableEndpoint: async ({ params, body, req }) => ({
      status: 200,
      body: await webhooks.disable(app(req), params.endpointId, body.reason),
    }),
    testEndpoint: async ({ params, req }) => ({
      status: 202,
      body: await webhooks.test(ctxOf(req), app(req), params.endpointId),
    }),
    listDeliveries: async ({ params, query, req }) => ({
      status: 200,
      body: await webhooks.deliveries(app(req), params.endpointId, query),
    }),
    redeliver: async ({ params, req }) => ({
      status: 202,
      body: await webhooks.redeliver(ctxOf(req), app(req), params.deliveryId),
    }),
  });
}
