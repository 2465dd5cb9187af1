import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import webpush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOOPBACK_TLS } from '../../../test/support/loopback-tls.js';
import { WebPushAdapter } from './web-push.adapter.js';

/** A browser's subscription: its ECDH key pair (P-256) and auth secret, as RFC 8291 defines them. */
function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    token: JSON.stringify({
      endpoint,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    }),
  };
}

/** RFC 8291 / RFC 8188 (aes128gcm, one record): what the browser does with a push body. */
function decrypt(body: Buffer, sub: { ecdh: ReturnType<typeof createECDH>; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idlen = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const shared = sub.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  const end = padded.lastIndexOf(2);
  expect(padded.subarray(end + 1).every((b) => b === 0)).toBe(true);
  return padded.subarray(0, end).toString('utf8');
}

/** Checks a VAPID (RFC 8292) Authorization header: an ES256 JWT signed by the application server's key. */
function vapidClaims(header: string, publicKey: string): Record<string, unknown> {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  expect(m, header).not.toBeNull();
  const [, jwt, k] = m as unknown as [string, string, string];
  expect(k).toBe(publicKey);
  const [h, p, s] = jwt.split('.') as [string, string, string];
  expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  expect(signed).toBe(true);
  return JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
}

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: Server;
let origin: string;
const received: Received[] = [];
/** What the push service answers next (status and body). */
let answer: { status: number; body: string } = { status: 201, body: '' };
const vapid = webpush.generateVAPIDKeys();
const agent = new Agent({ ca: LOOPBACK_TLS.cert });
const adapter = new WebPushAdapter(
  { publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject: 'mailto:ops@example.com' },
  agent,
);
const message = { title: 'Kick-off soon', body: 'Home v Away starts in 60 minutes', data: { fixtureId: '42' } };

beforeAll(async () => {
  server = createServer({ key: LOOPBACK_TLS.key, cert: LOOPBACK_TLS.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  answer = { status: 201, body: '' };
});

describe('Web Push adapter against a push service on loopback', () => {
  it('sends a VAPID-signed request whose aes128gcm body the subscription decrypts to the message', async () => {
    const sub = browserSubscription(`${origin}/push/abc`);
    const result = await adapter.send(sub.token, message);
    expect(result).toEqual({ ok: true, answer: 'HTTP 201' });

    expect(received).toHaveLength(1);
    const req = received[0] as Received;
    expect(req.headers['content-encoding']).toBe('aes128gcm');
    expect(req.headers['ttl']).toBe('3600');
    const claims = vapidClaims(String(req.headers['authorization']), vapid.publicKey);
    expect(claims['aud']).toBe(origin);
    expect(claims['sub']).toBe('mailto:ops@example.com');
    expect(Number(claims['exp']) * 1000).toBeGreaterThan(Date.now());
    expect(Number(claims['exp']) * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    expect(JSON.parse(decrypt(req.body, sub))).toEqual(message);
  });

  it('a body for one subscription does not decrypt with another subscription’s keys', async () => {
    const sub = browserSubscription(`${origin}/push/one`);
    await adapter.send(sub.token, message);
    const other = browserSubscription(`${origin}/push/two`);
    expect(() => decrypt((received[0] as Received).body, other)).toThrow();
  });

  it.each([404, 410])('calls the token dead (to prune) when the push service answers %i', async (status) => {
    answer = { status, body: 'subscription expired' };
    const result = await adapter.send(browserSubscription(`${origin}/push/gone`).token, message);
    expect(result).toMatchObject({ ok: false, invalidToken: true, answer: 'subscription expired' });
    expect(result.ok ? '' : result.error).toContain(`HTTP ${status}`);
  });

  it('keeps the token on a failure that may pass (429, 500) and on an unreachable service', async () => {
    for (const status of [429, 500]) {
      answer = { status, body: 'slow down' };
      const result = await adapter.send(browserSubscription(`${origin}/push/busy`).token, message);
      expect(result).toMatchObject({ ok: false, invalidToken: false });
    }
    const closed = await adapter.send(browserSubscription('https://127.0.0.1:1/push/x').token, message);
    expect(closed).toMatchObject({ ok: false, invalidToken: false, answer: null });
  });

  it('refuses a token that is not a subscription, and sends nothing without VAPID keys', async () => {
    expect(adapter.validToken('ExponentPushToken[abc]')).toBe(false);
    expect(adapter.validToken(browserSubscription(`${origin}/p`).token)).toBe(true);
    expect(await adapter.send('{"endpoint":"ftp://x"}', message)).toMatchObject({ ok: false, invalidToken: true });
    const unconfigured = new WebPushAdapter({ publicKey: undefined, privateKey: undefined, subject: 'mailto:x@y.z' });
    expect(unconfigured.configured).toBe(false);
    const result = await unconfigured.send(browserSubscription(`${origin}/push/abc`).token, message);
    expect(result).toMatchObject({ ok: false, invalidToken: false });
    expect(received).toHaveLength(0);
  });
});
