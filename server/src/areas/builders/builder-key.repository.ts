import type { Orm } from '../../platform/db/orm.js';
import { BuilderAppEntity, BuilderKeyEntity, type BuilderTier } from './builder-key.entity.js';

/** A key row as authentication reads it. */
export interface BuilderKeyRow {
  readonly id: string;
  readonly builderAppId: string;
  readonly name: string;
  readonly tier: BuilderTier;
  readonly revoked: boolean;
}

/** Builder apps and their API keys (stored as hashes). */
export class BuilderKeyRepository {
  constructor(private readonly orm: Orm) {}

  /**
   * Inserts a key, into the existing app `builderAppId` or into a new app; null when the named app
   * does not exist.
   */
  async insert(input: {
    keyId: string;
    name: string;
    tier: BuilderTier;
    keyHash: string;
    keyPrefix: string;
    app: { id: string } | { newId: string; name: string };
    createdAt: Date;
  }): Promise<BuilderKeyRow | null> {
    const em = this.orm.em.fork();
    const app =
      'newId' in input.app
        ? em.create(BuilderAppEntity, { id: input.app.newId, name: input.app.name, createdAt: input.createdAt })
        : await em.findOne(BuilderAppEntity, { id: input.app.id });
    if (!app) return null;
    const record = em.create(BuilderKeyEntity, {
      id: input.keyId,
      builderApp: app,
      name: input.name,
      tier: input.tier,
      keyHash: input.keyHash,
      keyPrefix: input.keyPrefix,
      revoked: false,
      createdAt: input.createdAt,
    });
    await em.flush();
    return { id: record.id, builderAppId: app.id, name: record.name, tier: record.tier, revoked: false };
  }

  async byHash(keyHash: string): Promise<BuilderKeyRow | null> {
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string; builder_app_id: string; name: string; tier: BuilderTier; revoked: boolean }[]>(
        'select id, builder_app_id, name, tier, revoked from builder_keys where key_hash = ?',
        [keyHash],
      );
    const row = rows[0];
    return row
      ? { id: row.id, builderAppId: row.builder_app_id, name: row.name, tier: row.tier, revoked: row.revoked }
      : null;
  }

  async revoke(keyId: string): Promise<void> {
    await this.orm.em.fork().nativeUpdate(BuilderKeyEntity, { id: keyId }, { revoked: true });
  }

  async count(): Promise<number> {
    return this.orm.em.fork().count(BuilderKeyEntity, {});
  }
}
