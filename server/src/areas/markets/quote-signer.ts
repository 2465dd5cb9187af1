import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs estimates so that placing a bet can trust what it is handed back: the quote id is an
 * HMAC over every other field of the estimate, in a fixed order.
 */
export class QuoteSigner {
  constructor(private readonly secret: string) {}

  sign(fields: Record<string, unknown>): string {
    return createHmac('sha256', `quotes:${this.secret}`).update(canonical(fields)).digest('base64url');
  }

  verify(quoteId: string, fields: Record<string, unknown>): boolean {
    const expected = Buffer.from(this.sign(fields));
    const given = Buffer.from(quoteId);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
