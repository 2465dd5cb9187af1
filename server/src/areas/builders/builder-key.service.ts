import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../../errors.js';
import type { BuilderTier } from './builder-key.entity.js';
import type { BuilderKeyRepository } from './builder-key.repository.js';
import type { Clock } from '../../platform/clock.js';

/** The tenant a request acts for, resolved from its builder key. */
export interface Tenant {
  readonly keyId: string;
  readonly builderAppId: string;
  readonly keyName: string;
  readonly tier: BuilderTier;
}

export interface CreatedKey {
  /** The plaintext key: shown once, never stored. */
  readonly key: string;
  readonly tenant: Tenant;
}

/** SHA-256 is enough: keys carry 256 random bits, so there is nothing to brute-force. */
export function hashBuilderKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateBuilderKey(): string {
  return `dk_${randomBytes(32).toString('base64url')}`;
}

const NEGATIVE_TTL_MS = 2_000;

/** Builder apps and their keys: creation, lookup with a short in-memory cache, revocation. */
export class BuilderKeyService {
  private readonly cache: LRUCache<string, { tenant: Tenant | null }>;

  constructor(
    private readonly keys: BuilderKeyRepository,
    cacheMs: number,
    private readonly clock: Clock,
  ) {
    this.cache = new LRUCache({ max: 10_000, ttl: Math.max(cacheMs, 1), ttlAutopurge: false });
  }

  /** Creates a key, in a new builder app unless `builderAppId` names an existing one. */
  async create(input: {
    name: string;
    tier: BuilderTier;
    builderAppId?: string;
    appName?: string;
    key?: string;
  }): Promise<CreatedKey> {
    const key = input.key ?? generateBuilderKey();
    const row = await this.keys.insert({
      keyId: randomUUID(),
      name: input.name,
      tier: input.tier,
      keyHash: hashBuilderKey(key),
      keyPrefix: key.slice(0, 10),
      app: input.builderAppId ? { id: input.builderAppId } : { newId: randomUUID(), name: input.appName ?? input.name },
      createdAt: new Date(this.clock.now()),
    });
    if (!row) throw new DomainError('NOT_FOUND', `No builder app ${input.builderAppId}`);
    return { key, tenant: { keyId: row.id, builderAppId: row.builderAppId, keyName: row.name, tier: row.tier } };
  }

  /** The tenant of a key, or null when the key is unknown or revoked. */
  async resolve(key: string): Promise<Tenant | null> {
    const hash = hashBuilderKey(key);
    const cached = this.cache.get(hash);
    if (cached) return cached.tenant;
    const row = await this.keys.byHash(hash);
    const tenant =
      row && !row.revoked ? { keyId: row.id, builderAppId: row.builderAppId, keyName: row.name, tier: row.tier } : null;
    this.cache.set(hash, { tenant }, tenant ? {} : { ttl: NEGATIVE_TTL_MS });
    return tenant;
  }

  async revoke(keyId: string): Promise<void> {
    await this.keys.revoke(keyId);
    this.cache.clear();
  }

  /**
   * On first start with no keys at all, creates one development key (tier `team`) so a fresh
   * clone works. Returns the plaintext when it created one.
   */
  async ensureDevKey(devKey: string | undefined): Promise<CreatedKey | null> {
    if ((await this.keys.count()) > 0) return null;
    return this.create({
      name: 'development',
      tier: 'team',
      appName: 'development',
      ...(devKey ? { key: devKey } : {}),
    });
  }
}
