import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsApi, signUpWallet } from '../../../test/support/http.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { startServerProcess, type ServerProcess } from '../../../test/support/server-process.js';
import { fundedUser } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** Where and how a suite reaches a server, and a signed-in user's token. */
interface Target {
  readonly marketsUrl: string;
  readonly builderKey: string;
  readonly token: string;
}

/**
 * `verifiesSignatures`: whether the storage itself checks the URL's signature. s3rver does not
 * implement SigV4 verification, so there the test checks what real S3 enforces: the signed headers.
 */
function suite(
  name: string,
  verifiesSignatures: boolean,
  start: () => Promise<{ target: Target; stop: () => Promise<void> }>,
) {
  describe(name, () => {
    let target: Target;
    let stop: (() => Promise<void>) | undefined;
    const call = async (body: unknown, token?: string) => {
      const res = await fetch(`${target.marketsUrl}/svc/user/aws/generate-presigned-url`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-builder-api-key': target.builderKey,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads answer fields
    };
    const grant = (over: Record<string, unknown> = {}) =>
      call({ fileName: 'Avatar 1.png', contentType: 'image/png', contentLength: PNG.length, ...over }, target.token);

    beforeAll(async () => {
      ({ target, stop } = await start());
    }, 120_000);
    afterAll(async () => {
      await stop?.();
    });

    it('issues a URL that takes exactly the declared file, and serves it afterwards', async () => {
      const r = await grant();
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ method: 'PUT', maxBytes: 1024, headers: { 'content-type': 'image/png' } });
      const url = r.body['uploadUrl'] as string;
      const put = await fetch(url, { method: 'PUT', headers: r.body['headers'] as Record<string, string>, body: PNG });
      expect(put.status).toBeLessThan(300);
      const read = await fetch(r.body['publicUrl'] as string);
      expect(read.status).toBe(200);
      expect(Buffer.from(await read.arrayBuffer())).toEqual(PNG);
      if (!verifiesSignatures) {
        expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
          expect.arrayContaining(['content-length', 'content-type']),
        );
        return;
      }
      const wrongType = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'image/jpeg', 'content-length': String(PNG.length) },
        body: PNG,
      });
      expect(wrongType.status).toBeGreaterThanOrEqual(400);
      const wrongSize = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: Buffer.concat([PNG, PNG]),
      });
      expect(wrongSize.status).toBeGreaterThanOrEqual(400);
    });

    it('refuses types, sizes and callers outside the limits', async () => {
      expect((await grant({ contentType: 'application/pdf' })).status).toBe(400);
      const big = await grant({ contentLength: 1025 });
      expect([big.status, big.body['code'], big.body['details']?.['maxBytes']]).toEqual([
        413,
        'PAYLOAD_TOO_LARGE',
        1024,
      ]);
      expect((await grant({ fileName: '../../etc/passwd' })).status).toBe(400);
      expect((await grant({ contentLength: 0 })).status).toBe(400);
      expect((await call({ fileName: 'a.png', contentType: 'image/png', contentLength: 10 })).status).toBe(401);
    });
  });
}

suite('presigned uploads on the embedded default', true, async () => {
  const server: TestServer = await startTestServer({ UPLOAD_MAX_BYTES: '1024' });
  const { token } = await fundedUser(server.container, server.builderKey, 'up_local', 0n);
  return {
    target: { marketsUrl: server.marketsUrl, builderKey: server.builderKey, token },
    stop: () => server.close(),
  };
});

// The AWS SDK is loaded by Node in a real server process (as in production), against s3rver.
suite('presigned uploads on S3 (s3rver, a real S3-compatible server)', false, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'duelkit-s3rver-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'duelkit-uploads', configs: [] }],
  });
  const { port } = await s3.run();
  const s3Url = `http://127.0.0.1:${port}`;
  const database: TestDatabase = await createTestDatabase();
  const builderKey = `dk_test_${randomBytes(12).toString('hex')}`;
  let proc: ServerProcess | undefined;
  try {
    proc = await startServerProcess({
      DATABASE_URL: database.url,
      DUELKIT_DEV_BUILDER_KEY: builderKey,
      JOBS_ENABLED: 'false',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'duelkit-uploads',
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: s3Url,
      S3_PUBLIC_BASE_URL: `${s3Url}/duelkit-uploads`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      UPLOAD_MAX_BYTES: '1024',
    });
  } catch (err) {
    await s3.close();
    throw err;
  }
  const running = proc;
  const api = marketsApi(() => ({ marketsUrl: running.marketsUrl, builderKey }) as unknown as TestServer);
  const signedUp = await signUpWallet(api, 'up_s3');
  return {
    target: { marketsUrl: running.marketsUrl, builderKey, token: signedUp.body['token'] as string },
    stop: async () => {
      await running.stop();
      await s3.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
