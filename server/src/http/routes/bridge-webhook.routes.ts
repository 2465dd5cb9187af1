import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { DepositWebhookService } from '../../areas/money/deposit-webhook.service.js';

const s = initServer();

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** §4.5, §6 the bridge provider's deposit webhook (verification and crediting in DepositWebhookService). */
export function bridgeWebhookRoutes(deps: { deposits: DepositWebhookService }) {
  return s.router(marketsContract.bridgeWebhook, {
    deposit: async ({ body, req }) => ({
      status: 200,
      body: await deps.deposits.receive(
        {
          rawBody: req.rawBody,
          signature: one(req.headers['x-bridge-signature']),
          timestamp: one(req.headers['x-bridge-timestamp']),
        },
        body,
      ),
    }),
  });
}
