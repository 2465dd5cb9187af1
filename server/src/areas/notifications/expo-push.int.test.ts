import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsApi, signUpWallet, type Body } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { adminTokenOf } from '../tournaments/tournaments-close.test-kit.js';

/**
 * A loopback stand-in for Expo's push API (POST /--/api/v2/push/send): one ticket per message, an
 * error ticket with `details.error = DeviceNotRegistered` for the tokens it was told are revoked,
 * as Expo documents for an uninstalled app.
 */
const revoked = new Set<string>();
const received: { to: string; title: string }[] = [];
let expo: Server;

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
}

function startExpo(): Promise<string> {
  expo = createServer((req, res) => {
    void bodyOf(req).then((text) => {
      if (req.method !== 'POST' || req.url !== '/--/api/v2/push/send') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"code":"NOT_FOUND"}]}');
        return;
      }
      const parsed = JSON.parse(text) as { to: string; title: string } | { to: string; title: string }[];
      const messages = Array.isArray(parsed) ? parsed : [parsed];
      received.push(...messages);
      const data = messages.map((m, i) =>
        revoked.has(m.to)
          ? {
              status: 'error',
              message: `"${m.to}" is not a registered push notification recipient`,
              details: { error: 'DeviceNotRegistered', expoPushToken: m.to },
            }
          : { status: 'ok', id: `ticket-${received.length}-${i}` },
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  return new Promise((resolve) =>
    expo.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(expo.address() as AddressInfo).port}`)),
  );
}

let server: TestServer;
let admin: string;
const api = marketsApi(() => server);

async function tour(path: string, init: { body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = { 'x-builder-api-key': server.builderKey };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  const res = await fetch(`${server.tournamentsUrl}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

beforeAll(async () => {
  const url = await startExpo();
  server = await startTestServer({ PUSH_PROVIDERS: 'expo', EXPO_PUSH_URL: url });
  admin = await adminTokenOf(server);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => expo?.close(resolve));
});

describe('push through Expo to a revoked token', () => {
  it('prunes the token Expo calls DeviceNotRegistered and shows the failure in the diagnostics', async () => {
    const user = await signUpWallet(api, 'expo_rita');
    const token = user.body['token'] as string;
    const userId = user.body['user']['id'] as string;
    const dead = 'ExponentPushToken[rita-uninstalled]';
    const live = 'ExponentPushToken[rita-phone]';
    revoked.add(dead);
    for (const t of [dead, live]) {
      const device = await tour('/user/notifications/devices', { token, body: { provider: 'expo', token: t } });
      expect(device.status).toBe(201);
    }

    const sent = await tour('/user/admin/notifications/test-push', { token: admin, body: { userId } });
    expect(sent.status).toBe(200);
    expect(received.map((m) => m.to).sort()).toEqual([dead, live].sort());
    const deliveries = sent.body['deliveries'] as Body[];
    expect(deliveries).toHaveLength(2);
    expect(deliveries.find((d) => d['status'] === 'ok')).toMatchObject({ provider: 'expo', pruned: false });
    const failed = deliveries.find((d) => d['status'] === 'error');
    expect(failed).toMatchObject({ provider: 'expo', pruned: true });
    expect(failed?.['error']).toMatch(/^DeviceNotRegistered/);
    expect(JSON.parse(failed?.['providerAnswer'] as string)).toMatchObject({
      details: { error: 'DeviceNotRegistered' },
    });
    expect(sent.body['reason']).toBeNull();

    const push = await tour('/svc/admin/push/diagnostic', { token: admin });
    expect(push.status).toBe(200);
    expect(push.body['devices']).toEqual({ active: 1, pruned: 1 });
    expect(push.body['providers']).toContainEqual(expect.objectContaining({ name: 'expo', configured: true }));
    expect(push.body['failures']).toEqual([
      expect.objectContaining({ id: failed?.['id'], pruned: true, error: failed?.['error'] }),
    ]);
    const diag = await tour('/user/admin/notifications/diagnostics', { token: admin });
    expect(diag.body['failures']).toEqual([expect.objectContaining({ id: failed?.['id'] })]);

    // The pruned token is not tried again: the next push reaches only the live device.
    received.length = 0;
    const again = await tour('/user/admin/notifications/test-push', { token: admin, body: { userId } });
    expect(received.map((m) => m.to)).toEqual([live]);
    expect(again.body['deliveries']).toEqual([expect.objectContaining({ status: 'ok', provider: 'expo' })]);

    // The admin's direct send to a revoked token that no device holds: the failure is recorded, nothing pruned.
    const direct = await tour('/svc/admin/push/test', { token: admin, body: { provider: 'expo', token: dead } });
    expect(direct.status).toBe(200);
    expect(direct.body['delivery']).toMatchObject({ status: 'error', provider: 'expo', pruned: false });
  });
});
