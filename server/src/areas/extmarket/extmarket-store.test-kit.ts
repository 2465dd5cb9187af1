import type { ExtPreparedRelayerTx } from '../../adapters/extmarket/external-exchange.port.js';
import type { ExtMarketStore } from './extmarket-accounts.port.js';
import type { ExtAccountRow, ExtOperationRow, ExtRelayerIntentRow } from './extmarket.repository.js';

/** The external-market store in memory, for the services' unit tests. */
export class MemoryExtStore implements ExtMarketStore {
  rows = new Map<string, ExtAccountRow>();
  ops = new Map<string, ExtOperationRow>();
  intents = new Map<string, { orderId: string; payload: Record<string, unknown> }>();
  relayerIntents = new Map<string, ExtRelayerIntentRow>();
  /** Idempotency records whose effect was marked as started with an intent. */
  effectStarted = new Set<string>();

  async account(userId: string) {
    return this.rows.get(userId);
  }
  async createAccount(row: Omit<ExtAccountRow, 'credentialsCiphertext' | 'credentialsNonce'>) {
    if (!this.rows.has(row.userId))
      this.rows.set(row.userId, { ...row, credentialsCiphertext: null, credentialsNonce: 0 });
    return this.rows.get(row.userId)!;
  }
  async setCredentials(userId: string, ciphertext: string, nonce: number) {
    const r = this.rows.get(userId)!;
    this.rows.set(userId, { ...r, credentialsCiphertext: ciphertext, credentialsNonce: nonce });
  }
  async recordOperation(op: ExtOperationRow) {
    if (!this.ops.has(op.id)) this.ops.set(op.id, op);
  }
  async operation(id: string, userId: string) {
    const op = this.ops.get(id);
    return op?.userId === userId ? op : undefined;
  }
  async orderIntent(userId: string, key: string) {
    return this.intents.get(`${userId}|${key}`);
  }
  async keepOrderIntent(userId: string, key: string, orderId: string, payload: Record<string, unknown>) {
    const k = `${userId}|${key}`;
    if (!this.intents.has(k)) this.intents.set(k, { orderId, payload });
    return this.intents.get(k)!;
  }
  async relayerIntent(writeKey: string) {
    return this.relayerIntents.get(writeKey);
  }
  async keepRelayerIntent(row: Omit<ExtRelayerIntentRow, 'transactionId'>, recordId: string | undefined) {
    if (!this.relayerIntents.has(row.writeKey)) this.relayerIntents.set(row.writeKey, { ...row, transactionId: null });
    if (recordId !== undefined) this.effectStarted.add(recordId);
    return this.relayerIntents.get(row.writeKey)!;
  }
  async replaceRelayerRequest(writeKey: string, request: ExtPreparedRelayerTx) {
    const r = this.relayerIntents.get(writeKey);
    if (r && r.transactionId === null) this.relayerIntents.set(writeKey, { ...r, request });
  }
  async setRelayerTransaction(writeKey: string, transactionId: string) {
    const r = this.relayerIntents.get(writeKey);
    if (r) this.relayerIntents.set(writeKey, { ...r, transactionId });
  }
}
