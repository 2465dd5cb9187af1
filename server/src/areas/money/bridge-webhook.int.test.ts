import { EVENT_CATALOGUE } from '@duelkit/contract';
import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryNotificationsAdapter } from '../../adapters/notifications/memory-notifications.adapter.js';
import { ManualClock } from '../../platform/clock.js';
import { fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { signDelivery } from './deposit-webhook.service.js';

const OLD_SECRET = 'old-bridge-secret-0123456789';
const SECRET = 'new-bridge-secret-0123456789';
const clock = new ManualClock(Date.now());
const notifications = new MemoryNotificationsAdapter();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(
    { BRIDGE_WEBHOOK_SECRET: `${SECRET},${OLD_SECRET}`, JOBS_ENABLED: 'false' },
    { clock, notifications },
  );
}, 120_000);
afterAll(() => server?.close());

const event = (address: string, amount: bigint, eventId = `evt_${randomUUID()}`) => ({
  eventId,
  type: 'deposit.completed',
  data: { address, amount: amount.toString(), sourceChain: 'ethereum' },
});

/** Delivers `raw` as the provider would; no builder key. */
async function deliver(raw: string, opts: { secret?: string; timestamp?: number; signature?: string } = {}) {
  const timestamp = String(opts.timestamp ?? Math.floor(clock.now() / 1000));
  const signature = opts.signature ?? signDelivery(opts.secret ?? SECRET, timestamp, raw);
  const res = await fetch(`${server.marketsUrl}/svc/webhooks/bridge/deposit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-bridge-timestamp': timestamp, 'x-bridge-signature': signature },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const usdc = (a: string) => server.container.chain.collateralBalance('usdc', a as `0x${string}`);
const deposits = async (eventId: string) => {
  const [row] = await server.container.orm.em
    .fork()
    .getConnection()
    .execute<{ n: string }[]>('select count(*) as n from bridge_deposits where event_id = ?', [eventId]);
  return Number(row?.n);
};
/** The `deposit.credited` events of one deposit. */
const creditedEvents = (eventId: string) =>
  server.container.orm.em
    .fork()
    .getConnection()
    .execute<{ builder_app_id: string; data: Record<string, unknown>; created_at: Date }[]>(
      `select builder_app_id, data, created_at from events where type = 'deposit.credited' and data->>'depositId' = ?`,
      [eventId],
    );

describe('bridge deposit webhook', () => {
  it('credits 50 concurrent deliveries of one signed event exactly once, with one notification', async () => {
    const u = await fundedUser(server.container, server.builderKey, 'bridge_alice', 0n);
    const raw = JSON.stringify(event(u.address, 25n * UNIT));
    const eventId = (JSON.parse(raw) as { eventId: string }).eventId;
    const results = await Promise.all(Array.from({ length: 50 }, () => deliver(raw)));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 50 }, () => 200));
    expect(results.filter((r) => r.body['status'] === 'credited')).toHaveLength(1);
    expect(results.filter((r) => r.body['status'] === 'duplicate')).toHaveLength(49);
    const hashes = new Set(results.map((r) => r.body['txHash']));
    expect(hashes.size).toBe(1);
    await until(
      () => usdc(u.address),
      (b) => b === 25n * UNIT,
    );
    expect(await deposits(eventId)).toBe(1);
    await server.container.money.deposits.sweep();
    expect(notifications.delivered.filter((n) => n.data['eventId'] === eventId)).toHaveLength(1);
    // A retry much later: still one credit.
    const again = await deliver(raw);
    expect(again.body).toMatchObject({ status: 'duplicate', amount: (25n * UNIT).toString(), address: u.address });
    expect(await usdc(u.address)).toBe(25n * UNIT);
    // One `deposit.credited`, written with the credit, in the user's builder app, at the clock's time.
    const events = await creditedEvents(eventId);
    expect(events).toHaveLength(1);
    const app = (await server.container.builderKeys.resolve(server.builderKey))?.builderAppId;
    expect(events[0]?.builder_app_id).toBe(app);
    expect(events[0]?.data).toEqual({
      depositId: eventId,
      account: u.address,
      collateralStack: 'usdc',
      amount: (25n * UNIT).toString(),
      txHash: again.body['txHash'],
    });
    expect(new Date(events[0]?.created_at ?? 0).getTime()).toBe(clock.now());
    expect(EVENT_CATALOGUE['deposit.credited'].data.safeParse(events[0]?.data).success).toBe(true);
  });

  it('accepts the previous secret during a rotation', async () => {
    const u = await fundedUser(server.container, server.builderKey, 'bridge_rotate', 0n);
    const r = await deliver(JSON.stringify(event(u.address, 3n * UNIT)), { secret: OLD_SECRET });
    expect(r.status).toBe(200);
    expect(r.body['status']).toBe('credited');
  });

  it('refuses tampered, unsigned, stale and unknown deliveries and credits nothing', async () => {
    const u = await fundedUser(server.container, server.builderKey, 'bridge_bob', 0n);
    const raw = JSON.stringify(event(u.address, 10n * UNIT));
    const eventId = (JSON.parse(raw) as { eventId: string }).eventId;
    const timestamp = Math.floor(clock.now() / 1000);
    const signature = signDelivery(SECRET, String(timestamp), raw);
    const tampered = await deliver(raw.replace(String(10n * UNIT), String(1_000n * UNIT)), { timestamp, signature });
    expect([tampered.status, tampered.body['code']]).toEqual([401, 'SIGNATURE_INVALID']);
    const wrongKey = await deliver(raw, { secret: 'some-other-secret-0123456789' });
    expect(wrongKey.status).toBe(401);
    const garbage = await deliver(raw, { signature: 'v1=zz' });
    expect(garbage.status).toBe(401);
    const stale = await deliver(raw, { timestamp: timestamp - 301 });
    expect([stale.status, (stale.body['details'] as Record<string, unknown>)['reason']]).toEqual([401, 'stale']);
    const unsigned = await fetch(`${server.marketsUrl}/svc/webhooks/bridge/deposit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw,
    });
    expect(unsigned.status).toBe(401);
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const unknown = await deliver(JSON.stringify(event(stranger, 1n * UNIT)));
    expect([unknown.status, unknown.body['code']]).toEqual([404, 'NOT_FOUND']);
    const malformed = await deliver(
      JSON.stringify({ eventId: 'x', type: 'deposit.completed', data: { address: u.address } }),
    );
    expect(malformed.status).toBe(400);
    expect(await deposits(eventId)).toBe(0);
    expect(await usdc(u.address)).toBe(0n);
    // Within the window the genuine delivery still goes through.
    clock.advance(200_000);
    expect((await deliver(raw, { timestamp, signature })).status).toBe(200);
  });

  it('refuses a redelivery of an event id with a different signed body (409), counts it, and still answers the same body as a duplicate', async () => {
    const u = await fundedUser(server.container, server.builderKey, 'bridge_carol', 0n);
    const original = event(u.address, 7n * UNIT);
    const first = await deliver(JSON.stringify(original));
    expect(first.body['status']).toBe('credited');
    expect((await deliver(JSON.stringify(original))).body['status']).toBe('duplicate');

    const altered = { ...original, data: { ...original.data, amount: (70n * UNIT).toString() } };
    const conflict = await deliver(JSON.stringify(altered));
    expect([conflict.status, conflict.body['code']]).toEqual([409, 'WEBHOOK_EVENT_CONFLICT']);
    expect(conflict.body['details']).toEqual({ eventId: original.eventId });
    expect((await deliver(JSON.stringify(altered))).status).toBe(409);

    const [row] = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ conflicting_deliveries: number; amount: string }[]>(
        'select conflicting_deliveries, amount::text as amount from bridge_deposits where event_id = ?',
        [original.eventId],
      );
    expect(row).toEqual({ conflicting_deliveries: 2, amount: (7n * UNIT).toString() });
    expect(await usdc(u.address)).toBe(7n * UNIT);
    const again = await deliver(JSON.stringify(original));
    expect([again.status, again.body['status'], again.body['txHash']]).toEqual([
      200,
      'duplicate',
      first.body['txHash'],
    ]);
  });
});
