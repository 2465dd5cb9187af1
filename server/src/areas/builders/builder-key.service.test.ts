import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ManualClock } from '../../platform/clock.js';
import type { BuilderKeyRepository, BuilderKeyRow } from './builder-key.repository.js';
import { BuilderKeyService, hashBuilderKey } from './builder-key.service.js';

interface StoredKey extends BuilderKeyRow {
  readonly keyHash: string;
  readonly keyPrefix: string;
  readonly createdAt: Date;
  revoked: boolean;
}

/** Apps and keys in memory, keyed by hash as the table is. */
function setup() {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  const apps = new Map<string, string>();
  const stored: StoredKey[] = [];
  const keys = repositoryMock<BuilderKeyRepository>();
  keys.insert.mockImplementation((input) => {
    let appId: string;
    if ('newId' in input.app) {
      apps.set(input.app.newId, input.app.name);
      appId = input.app.newId;
    } else {
      if (!apps.has(input.app.id)) return Promise.resolve(null);
      appId = input.app.id;
    }
    const row: StoredKey = {
      id: input.keyId,
      builderAppId: appId,
      name: input.name,
      tier: input.tier,
      revoked: false,
      keyHash: input.keyHash,
      keyPrefix: input.keyPrefix,
      createdAt: input.createdAt,
    };
    stored.push(row);
    return Promise.resolve({ id: row.id, builderAppId: appId, name: row.name, tier: row.tier, revoked: false });
  });
  keys.byHash.mockImplementation((hash) => {
    const row = stored.find((k) => k.keyHash === hash);
    return Promise.resolve(row ? { ...row } : null);
  });
  keys.revoke.mockImplementation((id) => {
    for (const k of stored) if (k.id === id) k.revoked = true;
    return Promise.resolve();
  });
  keys.count.mockImplementation(() => Promise.resolve(stored.length));
  const service = new BuilderKeyService(keys, 60_000, clock);
  return { clock, apps, stored, service };
}

describe('BuilderKeyService', () => {
  it('creates a key in a new app, stores only its hash and prefix, and resolves it to its tenant', async () => {
    const { service, stored, apps } = setup();
    const { key, tenant } = await service.create({ name: 'ci', tier: 'selfserve', appName: 'Acme' });

    expect(key).toMatch(/^dk_[A-Za-z0-9_-]{43}$/);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      keyHash: hashBuilderKey(key),
      keyPrefix: key.slice(0, 10),
      createdAt: new Date('2026-06-01T12:00:00.000Z'),
    });
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(apps.get(tenant.builderAppId)).toBe('Acme');
    expect(await service.resolve(key)).toEqual(tenant);
  });

  it('adds a second key to an existing app, and refuses an unknown app with NOT_FOUND', async () => {
    const { service, stored } = setup();
    const first = await service.create({ name: 'one', tier: 'team' });
    const second = await service.create({ name: 'two', tier: 'team', builderAppId: first.tenant.builderAppId });

    expect(second.tenant.builderAppId).toBe(first.tenant.builderAppId);
    expect(second.tenant.keyId).not.toBe(first.tenant.keyId);
    await expect(service.create({ name: 'three', tier: 'team', builderAppId: 'no-such-app' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(stored).toHaveLength(2);
  });

  it('resolves an unknown key to null', async () => {
    const { service } = setup();
    expect(await service.resolve('dk_unknown')).toBeNull();
  });

  it('stops resolving a key as soon as it is revoked through the service, although it was cached', async () => {
    const { service } = setup();
    const { key, tenant } = await service.create({ name: 'ci', tier: 'selfserve' });
    expect(await service.resolve(key)).toEqual(tenant);

    await service.revoke(tenant.keyId);

    expect(await service.resolve(key)).toBeNull();
  });

  it('answers from its cache within the cache window: a revocation made elsewhere is not seen yet', async () => {
    const { service, stored } = setup();
    const { key, tenant } = await service.create({ name: 'ci', tier: 'selfserve' });
    await service.resolve(key);
    const row = stored[0];
    if (row) row.revoked = true;

    expect(await service.resolve(key)).toEqual(tenant);
  });

  it('creates one development key only when there are no keys at all, with the configured plaintext', async () => {
    const { service, stored } = setup();
    const created = await service.ensureDevKey('dk_development_key');

    expect(created).toMatchObject({ key: 'dk_development_key', tenant: { keyName: 'development', tier: 'team' } });
    expect(await service.resolve('dk_development_key')).toEqual(created?.tenant);
    expect(await service.ensureDevKey('dk_other')).toBeNull();
    expect(stored).toHaveLength(1);
  });

  it('generates a random development key when none is configured', async () => {
    const { service } = setup();
    const created = await service.ensureDevKey(undefined);
    expect(created?.key).toMatch(/^dk_/);
  });
});
