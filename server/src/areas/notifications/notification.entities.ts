import { EntitySchema } from '@mikro-orm/core';

const timestamptz = { type: 'Date', columnType: 'timestamptz' } as const;

/** A device a user registered for push; `token_sha256` keys it (a token belongs to one user at a time). */
export const PushDeviceEntity = new EntitySchema<Record<string, unknown>>({
  name: 'PushDevice',
  tableName: 'push_devices',
  uniques: [{ name: 'push_devices_token_unique', properties: ['provider', 'tokenSha256'] }],
  indexes: [{ name: 'push_devices_user_idx', properties: ['userId', 'status'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    userId: { type: 'uuid' },
    provider: { type: 'string', length: 10 },
    token: { type: 'text' },
    tokenSha256: { type: 'string', length: 64 },
    label: { type: 'string', length: 100, nullable: true },
    /** `active`, `pruned` (the provider said the token is dead) or `removed` (the user unregistered it). */
    status: { type: 'string', length: 10 },
    prunedReason: { type: 'string', length: 300, nullable: true },
    createdAt: timestamptz,
    updatedAt: timestamptz,
  },
});

/** Every send to a provider, with its answer: what the diagnostics show. */
export const PushDeliveryEntity = new EntitySchema<Record<string, unknown>>({
  name: 'PushDelivery',
  tableName: 'push_deliveries',
  indexes: [
    { name: 'push_deliveries_created_idx', properties: ['createdAt'] },
    { name: 'push_deliveries_notification_idx', properties: ['notificationId'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    notificationId: { type: 'uuid', nullable: true },
    userId: { type: 'uuid', nullable: true },
    deviceId: { type: 'uuid', nullable: true },
    provider: { type: 'string', length: 10 },
    kind: { type: 'string', length: 40 },
    status: { type: 'string', length: 6 },
    error: { type: 'text', nullable: true },
    providerAnswer: { type: 'text', nullable: true },
    pruned: { type: 'boolean', default: false },
    createdAt: timestamptz,
  },
});

/** One run of the pre-match cycle: what it found and recorded. */
export const PrematchRunEntity = new EntitySchema<Record<string, unknown>>({
  name: 'PrematchRun',
  tableName: 'prematch_runs',
  indexes: [{ name: 'prematch_runs_ran_idx', properties: ['ranAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    windowMinutes: { type: 'integer' },
    fixtures: { type: 'integer' },
    candidates: { type: 'integer' },
    enqueued: { type: 'integer' },
    delivered: { type: 'integer' },
    ranAt: timestamptz,
  },
});

/** The push notification tables. */
export const notificationsEntities: readonly EntitySchema[] = [PushDeviceEntity, PushDeliveryEntity, PrematchRunEntity];
