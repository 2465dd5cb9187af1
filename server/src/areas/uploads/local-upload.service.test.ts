import { describe, expect, it } from 'vitest';
import { LocalUploadSigner } from '../../adapters/storage/local-upload-signer.adapter.js';
import type { StoragePort } from '../../adapters/storage/storage.port.js';
import { ManualClock } from '../../platform/clock.js';
import { LocalUploadService } from './local-upload.service.js';
import { UploadService } from './upload.service.js';

const T0 = Date.UTC(2026, 10, 28, 12);
const BASE = 'https://markets.duelkit.test';

/** The real signer and upload rules on a test clock; files land in a map instead of on disk. */
function setup() {
  const clock = new ManualClock(T0);
  const stored = new Map<string, { body: Buffer; contentType: string }>();
  const storage: StoragePort = {
    put(key, body, contentType) {
      stored.set(key, { body, contentType });
      return Promise.resolve(`${BASE}/media/${key}`);
    },
  };
  const signer = new LocalUploadSigner('an-upload-secret', BASE, clock);
  const uploads = new UploadService(signer, storage, clock, { maxBytes: 1_000, ttlSeconds: 300 });
  const local = new LocalUploadService(signer, uploads);
  return { clock, stored, signer, uploads, local };
}

/** The key and query of a URL the service issued, as the route hands them over. */
async function grant(uploads: UploadService, contentLength = 4) {
  const url = await uploads.presign({ userId: 'u1' }, { fileName: 'a.png', contentType: 'image/png', contentLength });
  return { key: url.key, query: Object.fromEntries(new URL(url.uploadUrl).searchParams), publicUrl: url.publicUrl };
}

const FILE = Buffer.from([1, 2, 3, 4]);

describe('LocalUploadService', () => {
  it('stores exactly the file a signed URL granted and answers its public URL', async () => {
    const { uploads, local, stored } = setup();
    const { key, query, publicUrl } = await grant(uploads);

    expect(await local.receive(key, query, 'image/png', FILE)).toBe(publicUrl);
    expect(stored.get(key)).toEqual({ body: FILE, contentType: 'image/png' });
  });

  it('accepts the file up to the second the URL expires and refuses it after with SIGNATURE_INVALID', async () => {
    const { uploads, local, stored, clock } = setup();
    const { key, query } = await grant(uploads);

    clock.advance(300_000);
    await expect(local.receive(key, query, 'image/png', FILE)).resolves.toContain(key);

    stored.clear();
    clock.advance(1_000);
    await expect(local.receive(key, query, 'image/png', FILE)).rejects.toMatchObject({
      code: 'SIGNATURE_INVALID',
      message: expect.stringContaining('expired') as unknown,
    });
    expect(stored.size).toBe(0);
  });

  it('refuses a URL whose key, size or signature was altered with SIGNATURE_INVALID', async () => {
    const { uploads, local, stored } = setup();
    const { key, query } = await grant(uploads);

    await expect(local.receive(`${key}-other`, query, 'image/png', FILE)).rejects.toMatchObject({
      code: 'SIGNATURE_INVALID',
    });
    await expect(local.receive(key, { ...query, len: '5' }, 'image/png', Buffer.alloc(5))).rejects.toMatchObject({
      code: 'SIGNATURE_INVALID',
    });
    await expect(local.receive(key, { ...query, sig: '00'.repeat(32) }, 'image/png', FILE)).rejects.toMatchObject({
      code: 'SIGNATURE_INVALID',
    });
    expect(stored.size).toBe(0);
  });

  it('refuses a request without the signed query with SIGNATURE_INVALID', async () => {
    const { local } = setup();
    await expect(local.receive('uploads/u1/x.png', {}, 'image/png', FILE)).rejects.toMatchObject({
      code: 'SIGNATURE_INVALID',
      message: expect.stringContaining('not a signed upload URL') as unknown,
    });
  });

  it('refuses, under a valid signature, another content type or another size than granted', async () => {
    const { uploads, local, stored } = setup();
    const { key, query } = await grant(uploads);

    await expect(local.receive(key, query, 'image/jpeg', FILE)).rejects.toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    await expect(local.receive(key, query, undefined, FILE)).rejects.toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    await expect(local.receive(key, query, 'image/png', Buffer.alloc(3))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { expected: 4, received: 3 },
    });
    expect(stored.size).toBe(0);
  });
});
