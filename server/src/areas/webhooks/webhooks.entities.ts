import { EntitySchema } from '@mikro-orm/core';

/** A builder app's webhook endpoint; its secrets are sealed (SecretBox), never stored in clear. */
export interface WebhookEndpointRow {
  id: string;
  builderAppId: string;
  url: string;
  description: string | null;
  /** Null: every event type. */
  types: string[] | null;
  secretSealed: string;
  /** The secret before the last rotation, still signed with until `previousSecretExpiresAt`. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  secretRotatedAt: Date | null;
  status: string;
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: Date;
}

export const WebhookEndpointEntity = new EntitySchema<WebhookEndpointRow>({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  indexes: [{ name: 'webhook_endpoints_app_idx', properties: ['builderAppId', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    builderAppId: { type: 'uuid' },
    url: { type: 'text' },
    description: { type: 'string', length: 200, nullable: true },
    types: { type: 'string[]', columnType: 'text[]', nullable: true },
    secretSealed: { type: 'text' },
    previousSecretSealed: { type: 'text', nullable: true },
    previousSecretExpiresAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    secretRotatedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    status: { type: 'string', length: 10 },
    disabledReason: { type: 'string', length: 300, nullable: true },
    consecutiveFailures: { type: 'integer', default: 0 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** One event to one endpoint: `pending` until an attempt succeeds or the horizon passes. */
export interface WebhookDeliveryRow {
  id: string;
  endpointId: string;
  eventId: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

export const WebhookDeliveryEntity = new EntitySchema<WebhookDeliveryRow>({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  uniques: [{ name: 'webhook_deliveries_endpoint_event_unique', properties: ['endpointId', 'eventId'] }],
  indexes: [
    {
      name: 'webhook_deliveries_due_idx',
      expression: `create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where "status" = 'pending'`,
    },
    { name: 'webhook_deliveries_endpoint_idx', properties: ['endpointId', 'createdAt'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    endpointId: { type: 'uuid' },
    eventId: { type: 'uuid' },
    status: { type: 'string', length: 10 },
    attempts: { type: 'integer', default: 0 },
    nextAttemptAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** Every attempt of a delivery, as the endpoint answered it. */
export interface WebhookAttemptRow {
  id: string;
  deliveryId: string;
  attempt: number;
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export const WebhookAttemptEntity = new EntitySchema<WebhookAttemptRow>({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempts',
  indexes: [{ name: 'webhook_attempts_delivery_idx', properties: ['deliveryId', 'attempt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    deliveryId: { type: 'uuid' },
    attempt: { type: 'integer' },
    at: { type: 'Date', columnType: 'timestamptz' },
    statusCode: { type: 'smallint', nullable: true },
    error: { type: 'string', length: 500, nullable: true },
    durationMs: { type: 'integer' },
  },
});

export const webhookEntities = [WebhookEndpointEntity, WebhookDeliveryEntity, WebhookAttemptEntity] as const;
