import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from './webhooks.js';

const body = '{"id":"e1","seq":"7","type":"duel.settled"}';
const t = 1_800_000_000;
const sign = (secret: string, payload = body) => createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
const now = new Date(t * 1000 + 10_000);

describe('verifyWebhookSignature', () => {
  it('accepts the signature of the raw body and refuses a tampered body, a wrong secret or a stale timestamp', async () => {
    const header = `t=${t},v1=${sign('whsec_a')}`;
    expect(await verifyWebhookSignature(body, header, 'whsec_a', { now })).toBe(true);
    expect(await verifyWebhookSignature(new TextEncoder().encode(body), header, 'whsec_a', { now })).toBe(true);
    expect(await verifyWebhookSignature(body.replace('settled', 'cancelled'), header, 'whsec_a', { now })).toBe(false);
    expect(await verifyWebhookSignature(body, header, 'whsec_b', { now })).toBe(false);
    expect(await verifyWebhookSignature(body, header, 'whsec_a', { now: new Date((t + 301) * 1000) })).toBe(false);
    expect(await verifyWebhookSignature(body, undefined, 'whsec_a', { now })).toBe(false);
  });

  it('accepts either signature during a secret rotation', async () => {
    const header = `t=${t},v1=${sign('whsec_new')},v1=${sign('whsec_old')}`;
    expect(await verifyWebhookSignature(body, header, 'whsec_old', { now })).toBe(true);
    expect(await verifyWebhookSignature(body, header, 'whsec_new', { now })).toBe(true);
  });
});
