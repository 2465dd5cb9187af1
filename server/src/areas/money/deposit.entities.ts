import { EntitySchema } from '@mikro-orm/core';

export type DepositStatus = 'received' | 'credited';

/** One bridge deposit event, unique by the provider's event id: the dedupe of its retries. */
export interface BridgeDepositRow {
  eventId: string;
  userId: string;
  address: string;
  collateralStack: 'usdc' | 'credits';
  amount: string;
  status: DepositStatus;
  txHash: string | null;
  payloadSha256: string;
  receivedAt: Date;
  creditedAt: Date | null;
  /** Deliveries refused for reusing the event id with a different payload. */
  conflictingDeliveries: number;
  lastConflictAt: Date | null;
}

export const BridgeDepositEntity = new EntitySchema<BridgeDepositRow>({
  name: 'BridgeDeposit',
  tableName: 'bridge_deposits',
  indexes: [{ name: 'bridge_deposits_status_idx', properties: ['status', 'receivedAt'] }],
  properties: {
    eventId: { type: 'string', length: 200, primary: true },
    userId: { type: 'uuid' },
    address: { type: 'string', length: 42 },
    collateralStack: { type: 'string', length: 8 },
    amount: { type: 'decimal', columnType: 'numeric(78,0)' },
    status: { type: 'string', length: 10 },
    txHash: { type: 'string', length: 66, nullable: true },
    payloadSha256: { type: 'string', length: 64 },
    receivedAt: { type: 'Date', columnType: 'timestamptz' },
    creditedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    conflictingDeliveries: { type: 'integer', default: 0 },
    lastConflictAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** The notifications outbox: recorded once (unique key), delivered at least once. */
export interface NotificationOutboxRow {
  id: string;
  dedupeKey: string;
  userId: string;
  kind: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'delivered';
  attempts: number;
  lockedUntil: Date | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

export const NotificationOutboxEntity = new EntitySchema<NotificationOutboxRow>({
  name: 'NotificationOutbox',
  tableName: 'notification_outbox',
  uniques: [{ name: 'notification_outbox_dedupe_unique', properties: ['dedupeKey'] }],
  indexes: [{ name: 'notification_outbox_status_idx', properties: ['status', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    dedupeKey: { type: 'string', length: 250 },
    userId: { type: 'uuid' },
    kind: { type: 'string', length: 40 },
    payload: { type: 'json' },
    status: { type: 'string', length: 10 },
    attempts: { type: 'integer', default: 0 },
    lockedUntil: { type: 'Date', columnType: 'timestamptz', nullable: true },
    lastError: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
