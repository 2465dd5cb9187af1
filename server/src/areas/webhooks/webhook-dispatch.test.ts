import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_DISPATCH } from './webhook-dispatch.service.js';
import { signatureHeader, verifySignature } from './webhook-signature.protocol.js';

describe('webhook signatures and back-off', () => {
  it('verifies a signature over `t.body`, refuses a tampered body, a wrong secret and a stale timestamp', () => {
    const body = '{"id":"e1","type":"duel.settled"}';
    const header = signatureHeader(['whsec_a'], 1_800_000_000, body);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(body, header, 'whsec_a', 1_800_000_010)).toBe(true);
    expect(verifySignature(`${body} `, header, 'whsec_a', 1_800_000_010)).toBe(false);
    expect(verifySignature(body, header, 'whsec_b', 1_800_000_010)).toBe(false);
    expect(verifySignature(body, header, 'whsec_a', 1_800_000_301)).toBe(false);
    expect(verifySignature(body, 'v1=00', 'whsec_a', 1_800_000_000)).toBe(false);
  });

  it('signs with both secrets during a rotation', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], 1_800_000_000, '{}');
    expect(verifySignature('{}', header, 'whsec_new', 1_800_000_000)).toBe(true);
    expect(verifySignature('{}', header, 'whsec_old', 1_800_000_000)).toBe(true);
  });

  it('doubles the wait after each failure up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, DEFAULT_DISPATCH))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(backoffMs(30, DEFAULT_DISPATCH)).toBe(DEFAULT_DISPATCH.maxDelayMs);
  });
});
