import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../../platform/canonical-json.js';

/**
 * Signs estimates so that placing a bet can trust what it is handed back: the quote id is an
 * HMAC over every other field of the estimate, in a fixed order.
 */
export class QuoteSigner {
  constructor(private readonly secret: string) {}

  sign(fields: Record<string, unknown>): string {
    return createHmac('sha256', `quotes:${this.secret}`).update(canonicalJson(fields)).digest('base64url');
  }

  verify(quoteId: string, fields: Record<string, unknown>): boolean {
    const expected = Buffer.from(this.sign(fields));
    const given = Buffer.from(quoteId);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
