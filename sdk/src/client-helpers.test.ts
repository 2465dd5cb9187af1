import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { client } from '../test/mock-service.js';

describe('client.webhooks.verify', () => {
  it('verifies a delivery like verifyWebhookSignature, next to the webhook routes', async () => {
    const body = '{"id":"e1","seq":"7","type":"duel.settled"}';
    const t = Math.floor(Date.now() / 1000);
    const header = `t=${t},v1=${createHmac('sha256', 'whsec_a').update(`${t}.${body}`).digest('hex')}`;
    const c = client();
    expect(typeof c.webhooks.createEndpoint).toBe('function');
    expect(await c.webhooks.verify(body, header, 'whsec_a')).toBe(true);
    expect(await c.webhooks.verify(body, header, 'whsec_b')).toBe(false);
    expect(await c.webhooks.verify(body, header, 'whsec_a', { now: new Date((t + 301) * 1000) })).toBe(false);
  });
});
