import { createHash, randomBytes, randomUUID } from 'node:crypto';
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
const CACHE_MAX = 10_000;

interface CachedKey {
  readonly tenant: Tenant | null;
  readonly until: number;
}

/** Builder apps and their keys: creation, lookup with a short in-memory cache, revocation. */
export class BuilderKeyService {
  /**
   * Lookups by the key as sent, so a hit on the request path neither hashes nor allocates; the
   * keys are in this process's memory with every request anyway, and are never stored elsewhere.
   * Insertion order is age order: when full, the oldest entry goes.
   */
  private readonly cache = new Map<string, CachedKey>();
  private readonly cacheMs: number;

  constructor(
    private readonly keys: BuilderKeyRepository,
    cacheMs: number,
    private readonly clock: Clock,
  ) {
    this.cacheMs = Math.max(cacheMs, 0);
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
    const cached = this.cached(key);
    if (cached !== undefined) return cached;
    const row = await this.keys.byHash(hashBuilderKey(key));
    const tenant =
      row && !row.revoked ? { keyId: row.id, builderAppId: row.builderAppId, keyName: row.name, tier: row.tier } : null;
    // A zero window (tests) caches nothing, so every revocation is seen at once.
    if (this.cacheMs === 0) return tenant;
    if (this.cache.size >= CACHE_MAX) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.delete(key);
    this.cache.set(key, { tenant, until: this.clock.now() + (tenant ? this.cacheMs : NEGATIVE_TTL_MS) });
    return tenant;
  }

  /**
   * The tenant of a key looked up within the cache window (null: unknown or revoked), without
   * waiting; undefined when it has to be read (`resolve`).
   */
  cached(key: string): Tenant | null | undefined {
    const entry = this.cache.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= this.clock.now()) {
      this.cache.delete(key);
      return undefined;
    }
    return entry.tenant;
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
