import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { BridgeDepositEventSchema, BridgeDepositReceiptSchema } from './bridge-webhook.schemas.js';

/** §4.5, §6 the inbound deposit webhook of the bridge provider. */
export const bridgeWebhookContract = c.router({
  deposit: {
    method: 'POST',
    path: '/svc/webhooks/bridge/deposit',
    body: BridgeDepositEventSchema,
    responses: { 200: BridgeDepositReceiptSchema },
    summary: 'Deposit-completed webhook of the bridge provider: credits the user once and notifies them',
    description:
      'No builder key and no bearer: the delivery is authenticated by `x-bridge-signature: v1=<hex>`, an ' +
      'HMAC-SHA256 of `<x-bridge-timestamp>.<raw body>` with a shared secret. SIGNATURE_INVALID (401) for a missing or ' +
      'wrong signature or a timestamp more than 5 minutes away (`details.reason`); NOT_FOUND when no user has the ' +
      'address; SERVICE_UNAVAILABLE (503) where no secret or bridge is configured. A retry of a delivered event ' +
      'answers 200 `duplicate` and credits nothing; the same event id with a different body is refused with ' +
      'WEBHOOK_EVENT_CONFLICT (409). Verification and a worked example: docs/money.md.',
    metadata: meta('Webhooks', '4.5', 'webhook', { repeatable: true }),
  },
});
