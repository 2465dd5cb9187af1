import { describe, expect, it } from 'vitest';
import type { StoragePort } from '../../adapters/storage/storage.port.js';
import type { UploadGrant, UploadSignerPort } from '../../adapters/storage/upload-signer.port.js';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ManualClock } from '../../platform/clock.js';
import { UploadService } from './upload.service.js';

const T0 = Date.UTC(2026, 10, 28, 12);

function setup() {
  const grants: UploadGrant[] = [];
  const signer: UploadSignerPort = {
    async presignPut(grant) {
      grants.push(grant);
      return {
        url: `https://store.example/${grant.key}?sig=x`,
        headers: { 'content-type': grant.contentType },
        publicUrl: `https://cdn.example/${grant.key}`,
      };
    },
  };
  const storage = repositoryMock<StoragePort>();
  storage.put.mockImplementation(async (key) => `https://cdn.example/${key}`);
  const clock = new ManualClock(T0);
  const service = new UploadService(signer, storage, clock, { maxBytes: 1_000, ttlSeconds: 300 });
  return { grants, storage, clock, service };
}

describe('upload URLs', () => {
  it('grants one object of the declared type and size under the caller, valid for the TTL from the clock', async () => {
    const { grants, clock, service } = setup();
    clock.advance(5_000);
    const url = await service.presign(
      { userId: 'u1' },
      { fileName: 'My Avatar.PNG', contentType: 'image/png', contentLength: 1_000 },
    );
    expect(url.key).toMatch(/^uploads\/u1\/[0-9a-f-]{36}-my-avatar\.png$/);
    expect(url).toMatchObject({
      method: 'PUT',
      maxBytes: 1_000,
      expiresAt: new Date(T0 + 5_000 + 300_000).toISOString(),
    });
    expect(grants).toEqual([{ key: url.key, contentType: 'image/png', contentLength: 1_000, expiresInSeconds: 300 }]);
  });

  it('refuses a declared size over the limit before signing anything', async () => {
    const { grants, service } = setup();
    await expect(
      service.presign({ userId: 'u1' }, { fileName: 'big.png', contentType: 'image/png', contentLength: 1_001 }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: 1_000, contentLength: 1_001 } });
    expect(grants).toHaveLength(0);
  });

  it('the local receiving end stores exactly the granted file: another type or size is refused', async () => {
    const { storage, service } = setup();
    const ticket = { key: 'uploads/u1/k-a.png', contentType: 'image/png', contentLength: 3, expires: T0 + 300_000 };
    await expect(service.receiveLocal(ticket, 'image/jpeg', Buffer.from('abc'))).rejects.toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    await expect(service.receiveLocal(ticket, 'image/png', Buffer.from('abcd'))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { expected: 3, received: 4 },
    });
    expect(storage.put.mock.calls).toHaveLength(0);
    expect(await service.receiveLocal(ticket, 'image/png', Buffer.from('abc'))).toBe(
      'https://cdn.example/uploads/u1/k-a.png',
    );
    expect(storage.put.mock.calls).toEqual([['uploads/u1/k-a.png', Buffer.from('abc'), 'image/png']]);
  });
});
