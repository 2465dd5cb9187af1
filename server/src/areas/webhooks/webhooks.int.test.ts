import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebhookDeliverySchema, WebhookEndpointWithSecretSchema } from '@duelkit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { marketsApi, serveOnLoopback, type Body } from '../../../test/support/http.js';
import { startServerProcess } from '../../../test/support/server-process.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { insertDuel, newDuelId } from '../../../test/support/duel-fixture.js';
import { duelEventSql } from '../markets/market-events.sql.js';
import { SIGNATURE_HEADER, verifySignature } from './webhook-signature.protocol.js';

interface Received {
  readonly body: string;
  readonly signature: string;
  readonly eventId: string;
  readonly answered: number;
}

const clock = new ManualClock(Date.UTC(2026, 10, 28, 12));
/** Secrets every process of this deployment shares: endpoint secrets are sealed with the master key. */
const SECRETS = {
  JWT_SECRET: `webhooks-${randomBytes(16).toString('hex')}`,
  WALLET_MASTER_KEY: `0x${randomBytes(32).toString('hex')}`,
};
let server: TestServer;
const api = marketsApi(() => server);
let receiver: { url: string; close(): Promise<void> };
const received: Received[] = [];
/** The statuses the receiver answers, in order; 200 once they run out. */
const script: number[] = [];

async function appOf(key: string): Promise<string> {
  return (await server.container.builderKeys.resolve(key))?.builderAppId as string;
}

/** A market-flow event of the builder app, written as the indexer would, then numbered by the relay. */
async function emitDuelEvent(type: string): Promise<string> {
  const duelId = newDuelId();
  const conn = server.container.orm.em.fork().getConnection();
  await insertDuel(conn, { duelId, builderAppId: await appOf(server.builderKey), chainState: 'confirmed' });
  await conn.execute(duelEventSql('duels d where d.duel_id = ?'), [type, `${type}:`, new Date(clock.now()), duelId]);
  await server.container.events.relay.runOnce();
  return duelId;
}

beforeAll(async () => {
  server = await startTestServer(SECRETS, { clock });
  receiver = await serveOnLoopback((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = script.shift() ?? 200;
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers[SIGNATURE_HEADER.toLowerCase()]),
        eventId: String(req.headers['duelkit-event-id']),
        answered,
      });
      res.statusCode = answered;
      res.end();
    });
  });
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

describe('webhooks', () => {
  let endpointId = '';
  let secret = '';

  it('registers an endpoint once per Idempotency-Key and answers its secret', async () => {
    const headers = {
      'x-builder-api-key': server.builderKey,
      'content-type': 'application/json',
      'idempotency-key': 'wh-create-1',
    };
    const body = JSON.stringify({ url: `${receiver.url}/hooks`, types: ['duel.settled', 'bet.confirmed'] });
    const first = await fetch(`${server.marketsUrl}/svc/builder/webhooks/endpoints`, { method: 'POST', headers, body });
    expect(first.status).toBe(201);
    const created = WebhookEndpointWithSecretSchema.parse(await first.json());
    const again = await fetch(`${server.marketsUrl}/svc/builder/webhooks/endpoints`, { method: 'POST', headers, body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as Body)['endpoint'].id).toBe(created.endpoint.id);
    endpointId = created.endpoint.id;
    secret = created.secret;
    const list = await api('/svc/builder/webhooks/endpoints');
    expect(list.status).toBe(200);
    expect(list.body['endpoints']).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it('refuses bad input, a missing key and another app’s endpoint', async () => {
    expect((await api('/svc/builder/webhooks/endpoints', { body: { url: 'ftp://example.com/x' } })).status).toBe(400);
    expect(
      (await api('/svc/builder/webhooks/endpoints', { body: { url: 'https://x.test', types: ['nope'] } })).body['code'],
    ).toBe('VALIDATION_FAILED');
    const anon = await fetch(`${server.marketsUrl}/svc/builder/webhooks/endpoints`);
    expect(anon.status).toBe(401);
    const otherKey = await server.createKey();
    const other = await fetch(`${server.marketsUrl}/svc/builder/webhooks/endpoints/${endpointId}/deliveries`, {
      headers: { 'x-builder-api-key': otherKey },
    });
    expect(other.status).toBe(404);
    expect(((await other.json()) as Body)['code']).toBe('NOT_FOUND');
  });

  it('delivers an event exactly once successfully after three failures, signed on every attempt', async () => {
    script.push(500, 503, 404);
    const before = received.length;
    await emitDuelEvent('duel.settled');
    await emitDuelEvent('duel.closed'); // not subscribed: never delivered
    const dispatcher = server.container.events.dispatcher;
    expect(await dispatcher.runOnce()).toBe(1);
    // Each retry waits for its back-off: nothing is due until the clock passes it.
    for (const wait of [10_000, 20_000, 40_000]) {
      expect(await dispatcher.runOnce()).toBe(0);
      clock.advance(wait);
      expect(await dispatcher.runOnce()).toBe(1);
    }
    clock.advance(3_600_000);
    expect(await dispatcher.runOnce()).toBe(0);

    const attempts = received.slice(before);
    expect(attempts.map((r) => r.answered)).toEqual([500, 503, 404, 200]);
    expect(new Set(attempts.map((r) => r.eventId)).size).toBe(1);
    for (const r of attempts) {
      expect(JSON.parse(r.body)).toMatchObject({ type: 'duel.settled', version: 1, id: r.eventId });
      const t = Number(/t=(\d+)/.exec(r.signature)?.[1]);
      expect(verifySignature(r.body, r.signature, secret, t)).toBe(true);
      expect(verifySignature(r.body.replace('settled', 'cancelled'), r.signature, secret, t)).toBe(false);
      expect(verifySignature(r.body, r.signature, 'whsec_wrong', t)).toBe(false);
    }
    const deliveries = await api(`/svc/builder/webhooks/endpoints/${endpointId}/deliveries`);
    expect(deliveries.status).toBe(200);
    const [delivery] = deliveries.body['data'] as Body[];
    expect(WebhookDeliverySchema.parse(delivery)).toMatchObject({ status: 'succeeded', eventType: 'duel.settled' });
    expect((delivery?.['attempts'] as Body[]).map((a) => a['statusCode'] as number)).toEqual([500, 503, 404, 200]);
  });

  it('sends a test event, redelivers on request, rotates the secret with an overlap', async () => {
    const test = await api(`/svc/builder/webhooks/endpoints/${endpointId}/test`, { body: {} });
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({ status: 'pending', eventType: 'webhook.test' });
    const rotated = await api(`/svc/builder/webhooks/endpoints/${endpointId}/rotate-secret`, {
      body: { overlapSeconds: 60 },
    });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body['secret'] as string;
    expect(fresh).not.toBe(secret);
    const before = received.length;
    await server.container.events.dispatcher.runOnce();
    const [sent] = received.slice(before);
    const t = Number(/t=(\d+)/.exec(sent?.signature ?? '')?.[1]);
    expect(JSON.parse(sent?.body ?? '{}')).toMatchObject({ type: 'webhook.test', seq: null });
    expect(verifySignature(sent?.body ?? '', sent?.signature ?? '', fresh, t)).toBe(true);
    expect(verifySignature(sent?.body ?? '', sent?.signature ?? '', secret, t)).toBe(true);

    const redo = await api(`/svc/builder/webhooks/deliveries/${test.body['id'] as string}/redeliver`, { body: {} });
    expect(redo.status).toBe(202);
    expect(redo.body['status']).toBe('pending');
    await server.container.events.dispatcher.runOnce();
    expect(received.at(-1)?.eventId).toBe(JSON.parse(sent?.body ?? '{}').id);
    const missing = await api(`/svc/builder/webhooks/deliveries/00000000-0000-4000-8000-000000000000/redeliver`, {
      body: {},
    });
    expect(missing.status).toBe(404);
  });

  it('disables an endpoint on request and refuses to test it then', async () => {
    const disabled = await api(`/svc/builder/webhooks/endpoints/${endpointId}/disable`, { body: { reason: 'moving' } });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', disabledReason: 'moving' });
    const test = await api(`/svc/builder/webhooks/endpoints/${endpointId}/test`, { body: {} });
    expect(test.status).toBe(409);
    expect(test.body['code']).toBe('INVALID_STATE');
  });

  it('disables an endpoint that keeps failing, with the reason', async () => {
    const created = await api('/svc/builder/webhooks/endpoints', { body: { url: `${receiver.url}/down` } });
    const id = created.body['endpoint'].id as string;
    await server.container.orm.em
      .fork()
      .getConnection()
      .execute('update webhook_endpoints set consecutive_failures = 19 where id = ?', [id]);
    script.push(...Array.from({ length: 40 }, () => 500));
    await emitDuelEvent('bet.confirmed');
    const dispatcher = server.container.events.dispatcher;
    const endpointNow = async () =>
      ((await api('/svc/builder/webhooks/endpoints')).body['endpoints'] as Body[]).find((e) => e['id'] === id);
    for (let i = 0; i < 40 && (await endpointNow())?.['status'] === 'enabled'; i++) {
      await dispatcher.runOnce();
      clock.advance(6 * 3600_000);
    }
    const endpoint = await endpointNow();
    expect(endpoint).toMatchObject({ status: 'disabled' });
    expect(endpoint?.['disabledReason']).toMatch(/consecutive failed attempts/);
    const deliveries = await api(`/svc/builder/webhooks/endpoints/${id}/deliveries?status=failed`);
    expect(deliveries.body['data']).toHaveLength(1);
    script.length = 0;
  });
});

describe('webhooks across a crash', () => {
  it('delivers an event whose delivering process was killed between attempts, once successfully, from the next process', async () => {
    const duelId = newDuelId();
    // Attempts for this market's event only: the processes' own jobs may announce other markets.
    const attempts: { status: number; eventId: string; body: string; signature: string }[] = [];
    const crashReceiver = await serveOnLoopback((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const ours = (JSON.parse(body) as { data?: { duelId?: string } }).data?.duelId === duelId;
        // The first attempt fails, so the delivery is still owed when its process dies.
        const status = ours && attempts.length === 0 ? 500 : 200;
        res.statusCode = status;
        res.end();
        if (!ours) return;
        attempts.push({
          status,
          eventId: String(req.headers['duelkit-event-id']),
          body,
          signature: String(req.headers[SIGNATURE_HEADER.toLowerCase()]),
        });
      });
    });
    const created = await api('/svc/builder/webhooks/endpoints', {
      body: { url: `${crashReceiver.url}/crash`, types: ['duel.cancelled'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const crashSecret = created.body['secret'] as string;
    // Server processes with their jobs on (relay and deliveries on their own, wall-clock time).
    const env = { ...SECRETS, DATABASE_URL: server.database.url, JOBS_ENABLED: 'true' };
    const until = async (done: () => boolean | Promise<boolean>, what: string) => {
      for (let i = 0; i < 600; i++) {
        if (await done()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    const endpointId = (created.body['endpoint'] as Body)['id'] as string;
    // The failed attempt as the process recorded it (a process killed before recording it would
    // leave the delivery claimed for the claim period, 60 s, rather than due after the back-off).
    const recorded = async () => {
      const deliveries = await api(`/svc/builder/webhooks/endpoints/${endpointId}/deliveries`);
      const [delivery] = (deliveries.body['data'] ?? []) as Body[];
      return ((delivery?.['attempts'] ?? []) as Body[]).length > 0;
    };

    const first = await startServerProcess(env);
    try {
      // The change, committed with its event as the indexer commits it; the process numbers it and
      // makes the first attempt.
      const conn = server.container.orm.em.fork().getConnection();
      await insertDuel(conn, { duelId, builderAppId: await appOf(server.builderKey), chainState: 'confirmed' });
      await conn.execute(duelEventSql('duels d where d.duel_id = ?'), [
        'duel.cancelled',
        'duel.cancelled:',
        new Date(clock.now()),
        duelId,
      ]);
      await until(() => attempts.length > 0, 'the first attempt');
      await until(recorded, 'the first attempt recorded');
    } finally {
      await first.stop('SIGKILL');
    }
    expect(attempts.map((a) => a.status)).toEqual([500]);

    const second = await startServerProcess(env);
    try {
      await until(() => attempts.some((a) => a.status === 200), 'the retry from the next process');
      // A few more delivery rounds: nothing further arrives.
      await new Promise((r) => setTimeout(r, 2_500));
    } finally {
      await second.stop();
      await crashReceiver.close();
    }
    expect(attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(new Set(attempts.map((a) => a.eventId)).size).toBe(1);
    for (const a of attempts) {
      expect(JSON.parse(a.body)).toMatchObject({ type: 'duel.cancelled', id: a.eventId });
      const t = Number(/t=(\d+)/.exec(a.signature)?.[1]);
      expect(verifySignature(a.body, a.signature, crashSecret, t)).toBe(true);
    }
  }, 240_000);
});
