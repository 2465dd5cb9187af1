/** Options of {@link verifyWebhookSignature}. */
export interface VerifyWebhookOptions {
  /** How far the delivery's `t` may be from `now`, in seconds (default 300). */
  readonly toleranceSeconds?: number;
  /** The time to judge `t` against (default: now). */
  readonly now?: Date;
}

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Constant-time comparison of two equal-length hex strings. */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies a Duelkit webhook delivery: `header` is its `Duelkit-Signature` (`t=<unix seconds>,
 * v1=<hex>[,v1=<hex>]`), `rawBody` the body exactly as received (not re-serialised JSON), `secret`
 * the endpoint's `whsec_…` secret. True when a `v1` is the HMAC-SHA256 of `<t>.<rawBody>` and `t`
 * is within the tolerance (replays are refused). Uses WebCrypto: Node ≥ 20, browsers, workers.
 *
 * @example
 * if (!(await verifyWebhookSignature(rawBody, req.headers['duelkit-signature'], secret))) return res.status(400).end();
 */
export async function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<boolean> {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (!Number.isInteger(t) || Math.abs(now - t) > (options.toleranceSeconds ?? 300)) return false;
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const expected = hex(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(`${t}.${body}`)));
  return parts.some(([k, v]) => k === 'v1' && typeof v === 'string' && same(v, expected));
}

/** Verification of webhook deliveries, on `client.webhooks`. */
export interface WebhookMethods {
  /**
   * Whether a delivery is genuine: {@link verifyWebhookSignature} with the body exactly as
   * received, its `Duelkit-Signature` header and the endpoint's `whsec_…` secret.
   *
   * @example
   * if (!(await client.webhooks.verify(rawBody, req.headers['duelkit-signature'], secret))) return res.status(400).end();
   */
  verify(
    rawBody: string | Uint8Array,
    header: string | null | undefined,
    secret: string,
    options?: VerifyWebhookOptions,
  ): Promise<boolean>;
}
