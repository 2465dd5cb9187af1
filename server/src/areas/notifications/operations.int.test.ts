import { appendFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsApi, signUpWallet, type Body } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { adminTokenOf } from '../tournaments/tournaments-close.test-kit.js';

const dir = mkdtempSync(join(tmpdir(), 'dk-ops-archives-'));
let server: TestServer;
let admin: string;
const api = marketsApi(() => server);

async function tour(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = { 'x-builder-api-key': server.builderKey };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  const res = await fetch(`${server.tournamentsUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

beforeAll(async () => {
  server = await startTestServer({ STREAM_MIGRATION_DIR: dir });
  admin = await adminTokenOf(server);
}, 120_000);
afterAll(() => server?.close());

describe('operations admin on the tournaments host', () => {
  it('registers a device, sends a test notification through the outbox and shows it in the diagnostics', async () => {
    const user = await signUpWallet(api, 'ops_dana');
    const token = user.body['token'] as string;
    const device = await tour('/user/notifications/devices', {
      token,
      body: { provider: 'expo', token: 'ExponentPushToken[ops-dana-1]' },
    });
    expect(device.status).toBe(201);
    const bad = await tour('/user/notifications/devices', { token, body: { provider: 'expo', token: 'nope' } });
    expect([bad.status, bad.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await tour('/user/notifications/devices', { body: { provider: 'expo', token: 'x' } })).status).toBe(401);

    const sent = await tour('/user/admin/notifications/test-push', {
      token: admin,
      body: { userId: user.body['user']['id'] },
    });
    expect(sent.status).toBe(200);
    expect(sent.body['deliveries']).toEqual([expect.objectContaining({ status: 'ok', provider: 'outbox' })]);
    const unknown = await tour('/user/admin/notifications/test-push', {
      token: admin,
      body: { userId: '00000000-0000-4000-8000-000000000000' },
    });
    expect([unknown.status, unknown.body['code']]).toEqual([404, 'NOT_FOUND']);

    const diag = await tour('/user/admin/notifications/diagnostics', { token: admin });
    expect(diag.body['recent'][0]).toMatchObject({ notificationId: sent.body['notificationId'], status: 'ok' });
    const push = await tour('/svc/admin/push/diagnostic', { token: admin });
    expect(push.body['devices']).toMatchObject({ active: 1 });
    expect(push.body['providers']).toContainEqual(expect.objectContaining({ name: 'outbox', configured: true }));

    const direct = await tour('/svc/admin/push/test', {
      token: admin,
      body: { provider: 'outbox', token: 'anything' },
    });
    expect(direct.body['delivery']).toMatchObject({ status: 'ok', provider: 'outbox' });
    const expo = await tour('/svc/admin/push/test', {
      token: admin,
      body: { provider: 'expo', token: 'ExponentPushToken[x]' },
    });
    expect([expo.status, expo.body['code']]).toEqual([503, 'PUSH_PROVIDER_NOT_CONFIGURED']);

    const removed = await tour(`/user/notifications/devices/${device.body['id']}`, { method: 'DELETE', token });
    expect(removed.body).toEqual({ deviceId: device.body['id'], removed: true });
    const notMine = await tour(`/user/notifications/devices/${device.body['id']}`, { method: 'DELETE', token: admin });
    expect(notMine.status).toBe(401);
    for (const path of ['/user/admin/notifications/diagnostics', '/svc/admin/push/diagnostic']) {
      expect((await tour(path, { token })).status).toBe(401);
    }
  });

  it('runs the pre-match cycle, and writes commentary of a fixture from its events', async () => {
    const run = await tour('/user/admin/notifications/run-prematch-cycle', { token: admin, body: {} });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ windowMinutes: 60, enqueued: 0 });
    expect((await tour('/user/admin/notifications/run-prematch-cycle', { body: {} })).status).toBe(401);

    const commentary = await tour('/svc/admin/commentary/test', { token: admin, body: { fixtureId: 18_000_003 } });
    expect(commentary.status).toBe(200);
    expect(commentary.body).toMatchObject({ generator: 'template', fixtureId: 18_000_003 });
    expect(commentary.body['lines'][0]['kind']).toBe('preview');
    const again = await tour('/svc/admin/commentary/test', { token: admin, body: { fixtureId: 18_000_003 } });
    expect(again.body['text']).toBe(commentary.body['text']);
    expect((await tour('/svc/admin/commentary/test', { token: admin, body: { fixtureId: -1 } })).status).toBe(400);
  });

  it('exports the tournaments state as a job, and refuses a corrupted archive with a code', async () => {
    const job = await tour('/svc/admin/stream-migration/export', { token: admin, body: {} });
    expect(job.status).toBe(200);
    const status = await tour(`/svc/admin/stream-migration/status?jobId=${job.body['id']}`, { token: admin });
    expect(status.body).toMatchObject({ kind: 'export', status: 'succeeded' });
    const jobs = await tour('/svc/admin/stream-migration/jobs', { token: admin });
    expect(jobs.body['pagination']['total']).toBe(1);
    const archiveId = job.body['archiveId'] as string;
    expect(readdirSync(join(dir, archiveId))).toContain('manifest.json');

    appendFileSync(join(dir, archiveId, 'tournaments.ndjson'), '{"id":"forged"}\n');
    const corrupt = await tour('/svc/admin/stream-migration/import', { token: admin, body: { archiveId } });
    expect([corrupt.status, corrupt.body['code'], corrupt.body['details']['reason']]).toEqual([
      422,
      'ARCHIVE_CORRUPT',
      'count',
    ]);
    const missing = await tour('/svc/admin/stream-migration/import', { token: admin, body: { archiveId: 'nope' } });
    expect([missing.status, missing.body['code']]).toEqual([404, 'ARCHIVE_NOT_FOUND']);
    const unknown = await tour('/svc/admin/stream-migration/status?jobId=00000000-0000-4000-8000-000000000000', {
      token: admin,
    });
    expect(unknown.status).toBe(404);
    expect((await tour('/svc/admin/stream-migration/jobs')).status).toBe(401);
  });
});
