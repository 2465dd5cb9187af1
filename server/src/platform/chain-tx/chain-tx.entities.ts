import { EntitySchema } from '@mikro-orm/core';

/** Where a chain transaction is in its life. `signed` and `broadcast` are the only open states. */
export type ChainTxStatus = 'signed' | 'broadcast' | 'mined' | 'reverted' | 'failed';

/**
 * One chain write, recorded before it is broadcast: the intent (kind, key, expected effect), the
 * nonce it was given and the signed bytes. The reconciler finishes whatever is still open.
 */
export interface ChainTxRow {
  id: string;
  chainId: number;
  /** One live write per key; a failed attempt gives its key up (kept in `retiredKey`). */
  intentKey: string | null;
  retiredKey: string | null;
  kind: string;
  account: string;
  toAddress: string | null;
  data: string;
  value: string;
  gasLimit: string;
  nonce: string;
  rawTx: string;
  txHash: string;
  status: ChainTxStatus;
  /** What the write is for, in domain terms (e.g. `{ duelId }`): read by outcome handlers and people. */
  effect: Record<string, unknown> | null;
  idempotencyRecordId: string | null;
  broadcasts: number;
  lastError: string | null;
  blockNumber: string | null;
  createdAt: Date;
  broadcastAt: Date | null;
  finalAt: Date | null;
  updatedAt: Date;
}

export const ChainTxEntity = new EntitySchema<ChainTxRow>({
  name: 'ChainTx',
  tableName: 'chain_txs',
  uniques: [
    { name: 'chain_txs_intent_key_unique', properties: ['intentKey'] },
    { name: 'chain_txs_tx_hash_unique', properties: ['txHash'] },
  ],
  indexes: [
    { name: 'chain_txs_status_idx', properties: ['status', 'chainId'] },
    { name: 'chain_txs_account_nonce_idx', properties: ['chainId', 'account', 'nonce'] },
  ],
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    chainId: { type: 'integer' },
    intentKey: { type: 'string', length: 300, nullable: true },
    retiredKey: { type: 'string', length: 300, nullable: true },
    kind: { type: 'string', length: 64 },
    account: { type: 'string', length: 42 },
    toAddress: { type: 'string', length: 42, nullable: true },
    data: { type: 'text' },
    value: { type: 'decimal', columnType: 'numeric(78,0)' },
    gasLimit: { type: 'decimal', columnType: 'numeric(78,0)' },
    nonce: { type: 'bigint' },
    rawTx: { type: 'text' },
    txHash: { type: 'string', length: 66 },
    status: { type: 'string', length: 16 },
    effect: { type: 'json', nullable: true },
    idempotencyRecordId: { type: 'bigint', nullable: true },
    broadcasts: { type: 'integer', default: 0 },
    lastError: { type: 'text', nullable: true },
    blockNumber: { type: 'bigint', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    broadcastAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    finalAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** The next nonce of one signing account on one chain; its row lock serialises every allocator. */
export interface ChainAccountRow {
  chainId: number;
  address: string;
  nextNonce: string;
  updatedAt: Date;
}

export const ChainAccountEntity = new EntitySchema<ChainAccountRow>({
  name: 'ChainAccount',
  tableName: 'chain_accounts',
  properties: {
    chainId: { type: 'integer', primary: true },
    address: { type: 'string', length: 42, primary: true },
    nextNonce: { type: 'bigint' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/**
 * The chain this database was written against, recorded on first boot and checked on every boot:
 * a database never silently meets a different chain.
 */
export interface ChainIdentityRow {
  id: string;
  mode: 'embedded' | 'rpc';
  chainId: number;
  genesisHash: string;
  /** Seconds since the epoch. */
  genesisTime: string;
  contracts: Record<string, string>;
  deploymentBlock: string | null;
  /** A block known to belong to this chain (its number and hash): two chains with one genesis part there. */
  anchorBlock: string;
  anchorHash: string;
  createdAt: Date;
}

export const ChainIdentityEntity = new EntitySchema<ChainIdentityRow>({
  name: 'ChainIdentity',
  tableName: 'chain_identity',
  properties: {
    id: { type: 'string', length: 16, primary: true },
    mode: { type: 'string', length: 16 },
    chainId: { type: 'integer' },
    genesisHash: { type: 'string', length: 66 },
    genesisTime: { type: 'bigint' },
    contracts: { type: 'json' },
    deploymentBlock: { type: 'bigint', nullable: true },
    anchorBlock: { type: 'bigint' },
    anchorHash: { type: 'string', length: 66 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export type ChainJournalKind = 'block' | 'set_balance';

/**
 * The embedded chain's history, in order: every block with its raw transactions and timestamp,
 * and the state changes made outside transactions (`hardhat_setBalance`). Replayed at boot.
 */
export interface ChainJournalRow {
  seq: string;
  kind: ChainJournalKind;
  blockNumber: string | null;
  blockHash: string | null;
  /** Block time, seconds since the epoch. */
  timestamp: string | null;
  payload: unknown;
  createdAt: Date;
}

export const ChainJournalEntity = new EntitySchema<ChainJournalRow>({
  name: 'ChainJournal',
  tableName: 'chain_journal',
  properties: {
    seq: { type: 'bigint', primary: true, autoincrement: true },
    kind: { type: 'string', length: 16 },
    blockNumber: { type: 'bigint', nullable: true },
    blockHash: { type: 'string', length: 66, nullable: true },
    timestamp: { type: 'bigint', nullable: true },
    // json keeps raw transactions as written; nothing queries inside it.
    payload: { type: 'json', columnType: 'json' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
