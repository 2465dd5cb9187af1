import { EntitySchema } from '@mikro-orm/core';

export type BuilderTier = 'team' | 'selfserve';

/** A builder application: the tenant every user, market and key belongs to. */
export interface BuilderApp {
  id: string;
  name: string;
  createdAt: Date;
}

/** An API key of a builder app, stored as a SHA-256 hash (keys are 256-bit random). */
export interface BuilderKey {
  id: string;
  builderApp: BuilderApp;
  name: string;
  tier: BuilderTier;
  keyHash: string;
  keyPrefix: string;
  revoked: boolean;
  createdAt: Date;
}

export const BuilderAppEntity = new EntitySchema<BuilderApp>({
  name: 'BuilderApp',
  tableName: 'builder_apps',
  properties: {
    id: { type: 'uuid', primary: true },
    name: { type: 'string', length: 200 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export const BuilderKeyEntity = new EntitySchema<BuilderKey>({
  name: 'BuilderKey',
  tableName: 'builder_keys',
  properties: {
    id: { type: 'uuid', primary: true },
    builderApp: { kind: 'm:1', entity: () => BuilderAppEntity, deleteRule: 'cascade' },
    name: { type: 'string', length: 200 },
    tier: { type: 'string', length: 16 },
    keyHash: { type: 'string', length: 64, unique: true },
    keyPrefix: { type: 'string', length: 16 },
    revoked: { type: 'boolean', default: false },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
