import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header every delivery carries (Stripe's scheme): `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
export const SIGNATURE_HEADER = 'Duelkit-Signature';
/** How far a delivery's `t` may be from the receiver's clock before verification refuses it. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** HMAC-SHA256 of `<t>.<raw body>` with `secret`, hex. */
export function signPayload(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

/** The header value: one `v1` per secret (two during a rotation's overlap). */
export function signatureHeader(secrets: readonly string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${signPayload(s, t, body)}`)].join(',');
}

/** Whether `header` signs `body` with `secret` within `toleranceSeconds` of `nowSeconds`. */
export function verifySignature(
  body: string,
  header: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, t, body), 'hex');
  return parts
    .filter(([k, v]) => k === 'v1' && typeof v === 'string' && /^[0-9a-f]{64}$/.test(v))
    .some(([, v]) => timingSafeEqual(Buffer.from(v as string, 'hex'), expected));
}
