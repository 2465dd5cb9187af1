import { EntitySchema } from '@mikro-orm/core';
import { UserEntity, type UserRecord } from '../identity/identity.entities.js';

/*
 * The external-market area's tables. The repository (extmarket.repository.ts) reads and writes them
 * with SQL; these schemas exist so that the migration check compares them with what the migrations create.
 */

interface ExtMarketAccountRow {
  user: UserRecord;
  signerAddress: string;
  signerKeyCiphertext: string;
  credentialsCiphertext: string | null;
  credentialsNonce: number;
  walletKind: string;
  tradingWallet: string;
  createdAt: Date;
  updatedAt: Date;
}

const ExtMarketAccountEntity = new EntitySchema<ExtMarketAccountRow>({
  name: 'ExtMarketAccount',
  tableName: 'ext_market_accounts',
  properties: {
    user: {
      kind: '1:1',
      entity: () => UserEntity,
      primary: true,
      owner: true,
      fieldName: 'user_id',
      deleteRule: 'cascade',
      updateRule: 'no action',
      foreignKeyName: 'ext_market_accounts_user_fk',
    },
    signerAddress: { type: 'string', length: 42 },
    signerKeyCiphertext: { type: 'text' },
    credentialsCiphertext: { type: 'text', nullable: true },
    credentialsNonce: { type: 'integer', default: 0 },
    walletKind: { type: 'string', length: 8 },
    tradingWallet: { type: 'string', length: 42 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

interface ExtMarketOperationRow {
  id: string;
  userId: string;
  kind: string;
  details: unknown;
  createdAt: Date;
}

const ExtMarketOperationEntity = new EntitySchema<ExtMarketOperationRow>({
  name: 'ExtMarketOperation',
  tableName: 'ext_market_operations',
  indexes: [{ name: 'ext_market_operations_user_idx', properties: ['userId', 'createdAt'] }],
  properties: {
    id: { type: 'string', length: 128, primary: true },
    userId: { type: 'uuid' },
    kind: { type: 'string', length: 32 },
    details: { type: 'json' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

interface ExtMarketOrderIntentRow {
  userId: string;
  idempotencyKey: string;
  orderId: string;
  payload: unknown;
  createdAt: Date;
}

const ExtMarketOrderIntentEntity = new EntitySchema<ExtMarketOrderIntentRow>({
  name: 'ExtMarketOrderIntent',
  tableName: 'ext_market_order_intents',
  properties: {
    userId: { type: 'uuid', primary: true },
    idempotencyKey: { type: 'string', length: 300, primary: true },
    orderId: { type: 'string', length: 66 },
    payload: { type: 'json' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

interface ExtMarketRelayerIntentRow {
  writeKey: string;
  userId: string;
  operation: string;
  request: unknown;
  details: unknown;
  transactionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const ExtMarketRelayerIntentEntity = new EntitySchema<ExtMarketRelayerIntentRow>({
  name: 'ExtMarketRelayerIntent',
  tableName: 'ext_market_relayer_intents',
  properties: {
    writeKey: { type: 'string', length: 300, primary: true },
    userId: { type: 'uuid' },
    operation: { type: 'string', length: 32 },
    request: { type: 'json' },
    details: { type: 'json' },
    transactionId: { type: 'string', length: 128, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** The external-market area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const extmarketEntities = [
  ExtMarketAccountEntity,
  ExtMarketOperationEntity,
  ExtMarketOrderIntentEntity,
  ExtMarketRelayerIntentEntity,
] as const;
