import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, DuelkitClient } from '@duelkit/sdk';
import { signedInClient, startServer, UNIT, until, type ServerProcess } from './support.js';

/**
 * The operator's surface through the SDK against two server processes sharing one archive folder:
 * invite-only sign-up, requests and their reports (a page and the streamed CSV), push devices with
 * a dead token pruned, and the tournaments state moved from one deployment to the other.
 */
const archives = mkdtempSync(join(tmpdir(), 'dk-e2e-archives-'));

/** Expo's push API on loopback: a ticket per message, DeviceNotRegistered for the revoked tokens. */
const revoked = new Set<string>();
const pushed: string[] = [];
let expo: Server;
function startExpo(): Promise<string> {
  expo = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string } | { to: string }[];
      const messages = Array.isArray(parsed) ? parsed : [parsed];
      pushed.push(...messages.map((m) => m.to));
      const data = messages.map((m, i) =>
        revoked.has(m.to)
          ? { status: 'error', message: 'not registered', details: { error: 'DeviceNotRegistered' } }
          : { status: 'ok', id: `ticket-${pushed.length}-${i}` },
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  return new Promise((resolve) =>
    expo.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(expo.address() as AddressInfo).port}`)),
  );
}

let source: ServerProcess;
let target: ServerProcess;

beforeAll(async () => {
  const expoUrl = await startExpo();
  const common = {
    STREAM_MIGRATION_DIR: archives,
    // Without the job engine a migration job runs within its request (docs/operations.md).
    JOBS_ENABLED: 'false',
    TOURNAMENT_BOND_AMOUNT: (10n * UNIT).toString(),
    RATE_LIMIT_TEAM_PER_MIN: '100000',
    TOURNAMENTS_IP_LIMIT_PER_MIN: '100000',
  };
  [source, target] = await Promise.all([
    startServer({ ...common, PLATFORM_INVITE_ONLY: 'true', PUSH_PROVIDERS: 'expo', EXPO_PUSH_URL: expoUrl }),
    startServer(common),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([source?.stop(), target?.stop()]);
  await new Promise((resolve) => expo?.close(resolve));
  rmSync(archives, { recursive: true, force: true });
});

/** A fresh wallet's client on `server` that has not signed up yet. */
function newcomer(server: ServerProcess) {
  const signer = privateKeyToAccount(generatePrivateKey());
  const client = new DuelkitClient({
    marketsUrl: server.marketsUrl,
    tournamentsUrl: server.tournamentsUrl,
    builderApiKey: server.builderKey,
    signer,
    maxRetries: 0,
  });
  return { client, signer };
}

/** Signs a new wallet up (with `inviteCode`), then signs it in: the client carries its session. */
async function register(server: ServerProcess, username: string, inviteCode?: string) {
  const { client, signer } = newcomer(server);
  const { message } = await client.auth.eoaChallenge({ body: { address: signer.address } });
  const signature = await signer.signMessage({ message });
  const registered = await client.auth.eoaRegister({
    body: { message, signature, username, ...(inviteCode ? { inviteCode } : {}) },
  });
  await client.auth.signIn();
  return { client, user: registered.user };
}

/** A new admin (no second factor) signed in: the client with its admin token, and the token. */
async function adminOf(server: ServerProcess, name: string) {
  const email = `${name}-${randomBytes(4).toString('hex')}@example.com`;
  const password = `${name} admin password`;
  await server.createAdmin(email, password);
  const { client } = newcomer(server);
  const login = await client.adminAuth.login({ body: { email, password } });
  if (login.status !== 'authenticated') throw new Error('admin 2FA unexpectedly on');
  return { admin: client.withOptions({ adminToken: login.token }), token: login.token };
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; code: string }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const e = err as ApiError;
  return { status: e.status, code: e.code };
}

/** Every record of a CSV text (quoted fields may hold commas, quotes and newlines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe('operations through the SDK', () => {
  it('invite-only sign-up: a code admits its uses, details log them, deactivation and invalidation revoke', async () => {
    const { admin, token } = await adminOf(source, 'ops_admin_inv');
    expect(await refusal(register(source, 'ops_nocode'))).toEqual({ status: 403, code: 'INVITE_REQUIRED' });

    const welcome = await admin.platformInvites.create({ body: { code: 'E2E-WELCOME', maxUses: 2 } });
    expect(welcome).toMatchObject({ code: 'E2E-WELCOME', state: 'active', maxUses: 2, uses: 0 });
    expect(await refusal(admin.platformInvites.create({ body: { code: 'e2e-welcome' } }))).toMatchObject({
      status: 409,
    });

    const ann = await register(source, 'ops_ann', 'e2e-welcome');
    const ben = await register(source, 'ops_ben', 'E2E-WELCOME');
    expect(await refusal(register(source, 'ops_cid', 'E2E-WELCOME'))).toEqual({
      status: 409,
      code: 'INVITE_EXHAUSTED',
    });
    const details = await admin.platformInvites.details({ params: { inviteId: welcome.id } });
    expect(details).toMatchObject({ uses: 2, state: 'exhausted' });
    expect(details.usesLog.map((u) => [u.userId, u.username])).toEqual([
      [ann.user.id, 'ops_ann'],
      [ben.user.id, 'ops_ben'],
    ]);

    // A batch owned by ann: all of one batchId, listed as usable; one deactivated, then all of ann's.
    const annId = ann.user.id;
    const batch = await admin.platformInvites.createBulk({
      body: { count: 3, prefix: 'ANN', ownerUserId: annId, maxUses: 0 },
    });
    expect(batch.invites).toHaveLength(3);
    expect(new Set(batch.invites.map((i) => i.batchId))).toEqual(new Set([batch.batchId]));
    expect(batch.invites.every((i) => i.code.startsWith('ANN') && i.ownerUserId === annId)).toBe(true);
    const usable = await admin.platformInvites.list({ query: { ownerUserId: annId, page: 1, limit: 10 } });
    expect(usable.data.map((i) => i.id).sort()).toEqual(batch.invites.map((i) => i.id).sort());

    const [first] = batch.invites as [(typeof batch.invites)[number]];
    const off = await admin.platformInvites.deactivate({ params: { inviteId: first.id }, body: { reason: 'leaked' } });
    expect(off).toMatchObject({ state: 'deactivated', deactivationReason: 'leaked' });
    expect(await refusal(register(source, 'ops_dee', first.code))).toEqual({ status: 409, code: 'INVITE_REVOKED' });
    const invalidated = await admin.platformInvites.invalidateUser({ params: { userId: annId }, body: {} });
    expect(invalidated.deactivated).toBe(2);
    expect(invalidated.invites.every((i) => i.state === 'deactivated')).toBe(true);
    const all = await admin.platformInvites.all({
      query: { ownerUserId: annId, state: 'deactivated', page: 1, limit: 10 },
    });
    expect(all.data).toHaveLength(3);

    // A user's request decided by the admin shows in the report as a JSON page and as CSV.
    const annClient = ann.client;
    const request = await annClient.requests.create({ body: { kind: 'league', leagueId: 'e2e-league' } });
    expect(request).toMatchObject({ kind: 'league', status: 'pending', leagueId: 'e2e-league', userId: annId });
    const decided = await admin.requests.decide({
      params: { requestId: request.id },
      body: { decision: 'approve' },
    });
    expect(decided).toMatchObject({ status: 'approved', decidedAt: expect.any(String) });
    expect(
      await refusal(
        admin.requests.decide({ params: { requestId: request.id }, body: { decision: 'reject', reason: 'x' } }),
      ),
    ).toEqual({ status: 409, code: 'INVALID_STATE' });
    const tokenRequest = await annClient.requests.create({
      body: { kind: 'league', leagueId: 'e2e-other', message: 'comma, "quote"\nand a new line' },
    });

    const page = await admin.reports.leagueRequests({ query: { limit: 1, order: 'asc' } });
    expect(page.data.map((r) => r.id)).toEqual([request.id]);
    const next = await admin.reports.leagueRequests({
      query: { limit: 1, order: 'asc', cursor: page.nextCursor as string },
    });
    expect(next.data.map((r) => r.id)).toEqual([tokenRequest.id]);
    const approved = await admin.reports.leagueRequests({ query: { status: 'approved' } });
    expect(approved.data.map((r) => r.id)).toEqual([request.id]);

    const res = await fetch(`${source.marketsUrl}/svc/admin/reports/league-requests?order=asc`, {
      headers: { accept: 'text/csv', authorization: `Bearer ${token}`, 'x-builder-api-key': source.builderKey },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = parseCsv(await res.text());
    const header = rows[0] as string[];
    expect(header).toEqual([
      'id', 'kind', 'userId', 'username', 'address', 'status', 'message', 'leagueId', 'tokenName', 'tokenSymbol',
      'decidedBy', 'decidedAt', 'decisionReason', 'builderAppId', 'createdAt',
    ]); // prettier-ignore
    const records = rows.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    expect(records.map((r) => [r['id'], r['status'], r['leagueId']])).toEqual([
      [request.id, 'approved', 'e2e-league'],
      [tokenRequest.id, 'pending', 'e2e-other'],
    ]);
    expect(records[1]?.['message']).toBe('comma, "quote"\nand a new line');
    expect(records[0]?.['decidedAt']).toBe(decided.decidedAt);
    const bad = await fetch(`${source.marketsUrl}/svc/admin/reports/league-requests?format=csv&status=nope`, {
      headers: { authorization: `Bearer ${token}`, 'x-builder-api-key': source.builderKey },
    });
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('push: devices registered, a dead token pruned after one send, the diagnostics show it', async () => {
    const { admin } = await adminOf(target, 'ops_admin_push');
    // The source runs Expo on loopback; its users sign up with a code.
    const { admin: sourceAdmin } = await adminOf(source, 'ops_admin_push_src');
    const code = (await sourceAdmin.platformInvites.create({ body: { maxUses: 1 } })).code;
    const rita = await register(source, 'ops_rita', code);
    const ritaClient = rita.client;
    const dead = `ExponentPushToken[e2e-${randomBytes(4).toString('hex')}-gone]`;
    const live = `ExponentPushToken[e2e-${randomBytes(4).toString('hex')}-phone]`;
    revoked.add(dead);
    const devices = [];
    for (const t of [dead, live])
      devices.push(await ritaClient.devices.register({ body: { provider: 'expo', token: t } }));
    expect(devices.map((d) => d.provider)).toEqual(['expo', 'expo']);
    expect(await refusal(ritaClient.devices.register({ body: { provider: 'expo', token: 'not-a-token' } }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
    });

    pushed.length = 0;
    const sent = await sourceAdmin.notificationsAdmin.testPush({ body: { userId: rita.user.id } });
    expect(pushed.sort()).toEqual([dead, live].sort());
    expect(sent.deliveries.map((d) => [d.status, d.pruned]).sort()).toEqual([
      ['error', true],
      ['ok', false],
    ]);
    const diagnostic = await sourceAdmin.pushAdmin.diagnostic();
    expect(diagnostic.devices).toEqual({ active: 1, pruned: 1 });
    expect(diagnostic.providers).toContainEqual(expect.objectContaining({ name: 'expo', configured: true }));

    pushed.length = 0;
    await sourceAdmin.notificationsAdmin.testPush({ body: { userId: rita.user.id } });
    expect(pushed).toEqual([live]);

    const liveDevice = devices[1] as (typeof devices)[number];
    expect(await ritaClient.devices.unregister({ params: { deviceId: liveDevice.id } })).toEqual({
      deviceId: liveDevice.id,
      removed: true,
    });
    const none = await sourceAdmin.notificationsAdmin.testPush({ body: { userId: rita.user.id } });
    expect(none.deliveries).toEqual([
      expect.objectContaining({ status: 'error', deviceId: null, error: 'the user has no registered device' }),
    ]);

    // A deployment without Expo credentials refuses a direct Expo send with a stable code.
    expect(await refusal(admin.pushAdmin.test({ body: { provider: 'expo', token: live } }))).toEqual({
      status: 503,
      code: 'PUSH_PROVIDER_NOT_CONFIGURED',
    });
  });

  it('stream migration: export from one deployment, a tampered copy refused, the archive imported into the other', async () => {
    const { admin: sourceAdmin } = await adminOf(source, 'ops_admin_mig_src');
    const { admin: targetAdmin } = await adminOf(target, 'ops_admin_mig_dst');
    const code = (await sourceAdmin.platformInvites.create({ body: { maxUses: 1 } })).code;
    const { client: creator, user: creatorUser } = await register(source, 'ops_creator', code);
    await source.grantCredits(creatorUser.address as `0x${string}`, 1_000n * UNIT);

    await creator.tournaments.catalog.depositBond({ body: { execute: true } });
    const tournamentId = randomBytes(12).toString('hex');
    const buyin = (10n * UNIT).toString();
    const deposit = await creator.tournaments.play.deposit({
      params: { tournamentId },
      body: { execute: true, stakeAsset: 'credits', amount: buyin },
    });
    const created = await creator.tournaments.f1.create({
      body: {
        name: 'Migrated grid cup',
        stakeAsset: 'credits',
        buyinUsdc: buyin,
        clientTournamentId: tournamentId,
        creatorDepositTxHash: deposit.txHash as string,
        payoutBps: [7000, 3000],
      },
    });
    expect(created).toMatchObject({ id: tournamentId, created: true });
    const before = await creator.tournaments.play.get({ params: { tournamentId } });

    const exported = await sourceAdmin.streamMigration.export({ body: { note: 'e2e' } });
    const done = await until(
      () => sourceAdmin.streamMigration.status({ query: { jobId: exported.id } }),
      (j) => j.status === 'succeeded' || j.status === 'failed',
    );
    expect(done).toMatchObject({ kind: 'export', status: 'succeeded', error: null });
    const rows = Object.fromEntries(done.tables.map((t) => [t.table, t.rows]));
    expect(rows['tournaments']).toBe(1);
    expect(rows['tournament_entries']).toBeGreaterThanOrEqual(1);

    // A copy whose tournaments file no longer matches its checksum is refused, and nothing is written.
    const tampered = `${done.archiveId}-tampered`;
    cpSync(join(archives, done.archiveId), join(archives, tampered), { recursive: true });
    const file = join(archives, tampered, 'tournaments.ndjson');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Migrated grid cup', 'Migrated grid cap'));
    const refused = await targetAdmin.streamMigration
      .import({ body: { archiveId: tampered } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 422,
      code: 'ARCHIVE_CORRUPT',
      details: { reason: 'checksum', table: 'tournaments' },
    });
    expect(await refusal(targetAdmin.streamMigration.import({ body: { archiveId: 'no-such-archive' } }))).toEqual({
      status: 404,
      code: 'ARCHIVE_NOT_FOUND',
    });

    const imported = await targetAdmin.streamMigration.import({ body: { archiveId: done.archiveId } });
    const loaded = await until(
      () => targetAdmin.streamMigration.status({ query: { jobId: imported.id } }),
      (j) => j.status === 'succeeded' || j.status === 'failed',
    );
    expect(loaded).toMatchObject({ kind: 'import', status: 'succeeded', rowsDone: done.rowsDone });
    const viewer = (await signedInClient(target, 'ops_viewer', 0n)).client;
    const after = await viewer.tournaments.play.get({ params: { tournamentId } });
    // The same tournament; only the vault differs, each deployment having its own contracts.
    const withoutVault = (t: typeof before) =>
      JSON.parse(JSON.stringify(t, (k, v: unknown) => (k === 'vault' ? undefined : v))) as unknown;
    expect(withoutVault(after)).toEqual(withoutVault(before));
    expect(after.tournament).toMatchObject({ id: tournamentId, name: 'Migrated grid cup' });

    // The target has tournaments state now: a second import is refused.
    expect(await refusal(targetAdmin.streamMigration.import({ body: { archiveId: done.archiveId } }))).toEqual({
      status: 409,
      code: 'IMPORT_TARGET_NOT_EMPTY',
    });
    const jobs = await targetAdmin.streamMigration.jobs({ query: { kind: 'import', page: 1, limit: 10 } });
    expect(jobs.data.map((j) => [j.status, j.archiveId])).toEqual([['succeeded', done.archiveId]]);
  });
});
