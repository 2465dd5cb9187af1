import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Request } from 'express';
import type { DepositWebhookService, SignedDelivery } from '../../areas/money/deposit-webhook.service.js';

const s = initServer();

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The signed delivery of a bridge webhook request: the exact bytes received and the two signature headers. */
export function bridgeDeliveryOf(req: Pick<Request, 'rawBody' | 'headers'>): SignedDelivery {
  return {
    rawBody: req.rawBody,
    signature: one(req.headers['x-bridge-signature']),
    timestamp: one(req.headers['x-bridge-timestamp']),
  };
}

/** §4.5, §6 the bridge provider's deposit webhook (verification and crediting in DepositWebhookService). */
export function bridgeWebhookRoutes(deps: { deposits: DepositWebhookService }) {
  return s.router(marketsContract.bridgeWebhook, {
    deposit: async ({ body, req }) => ({
      status: 200,
      body: await deps.deposits.receive(bridgeDeliveryOf(req), body),
    }),
  });
}
