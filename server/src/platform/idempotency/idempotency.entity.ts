import { EntitySchema } from '@mikro-orm/core';

/**
 * One Idempotency-Key as used by one caller of one tenant on one route. `state` is `in_flight`
 * while the first request runs and `completed` once its response is stored. `effectStartedAt` is
 * the recovery point: set in the same transaction that records a signed chain write, it means the
 * key can never be released or run again; `pendingStatus`/`pendingBody` is the answer the request
 * gives once that write is accepted, known before it is broadcast.
 */
export interface IdempotencyRecord {
  id: string;
  tenantId: string;
  caller: string;
  route: string;
  idempotencyKey: string;
  fingerprint: string;
  state: 'in_flight' | 'completed';
  responseStatus: number | null;
  responseBody: unknown;
  responseHeaders: Record<string, string> | null;
  effectStartedAt: Date | null;
  pendingStatus: number | null;
  pendingBody: unknown;
  lockedAt: Date;
  createdAt: Date;
  expiresAt: Date;
}

export const IdempotencyRecordEntity = new EntitySchema<IdempotencyRecord>({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_keys',
  uniques: [{ properties: ['tenantId', 'caller', 'route', 'idempotencyKey'] }],
  indexes: [{ properties: ['expiresAt'] }],
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    tenantId: { type: 'uuid' },
    caller: { type: 'string', length: 200 },
    route: { type: 'string', length: 300 },
    idempotencyKey: { type: 'string', length: 255 },
    fingerprint: { type: 'string', length: 64 },
    state: { type: 'string', length: 16 },
    responseStatus: { type: 'integer', nullable: true },
    // json keeps the answer's text as sent (jsonb would reorder keys on replay).
    responseBody: { type: 'json', columnType: 'json', nullable: true },
    responseHeaders: { type: 'json', nullable: true },
    effectStartedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    pendingStatus: { type: 'integer', nullable: true },
    pendingBody: { type: 'json', columnType: 'json', nullable: true },
    lockedAt: { type: 'Date', columnType: 'timestamptz' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
