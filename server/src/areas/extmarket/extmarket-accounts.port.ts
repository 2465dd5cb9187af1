import { getAddress, type Address, type LocalAccount } from 'viem';
import type {
  ExtCredentials,
  ExtPreparedRelayerTx,
  ExtSession,
  ExternalExchange,
} from '../../adapters/extmarket/external-exchange.port.js';
import { depositWalletAddressOf, safeAddressOf } from '../../adapters/extmarket/extmarket.protocol.js';
import { DomainError } from '../../errors.js';
import { createManagedWallet, managedSigner } from '../identity/managed-wallet.js';
import type { SecretBox } from '../identity/secret-box.js';
import type { ExtAccountRow, ExtOperationRow, ExtRelayerIntentRow } from './extmarket.repository.js';

/** What the services need of storage (the repository, or an in-memory fake in unit tests). */
export interface ExtMarketStore {
  account(userId: string): Promise<ExtAccountRow | undefined>;
  createAccount(
    row: Omit<ExtAccountRow, 'credentialsCiphertext' | 'credentialsNonce'>,
    now: Date,
  ): Promise<ExtAccountRow>;
  setCredentials(userId: string, ciphertext: string, nonce: number, now: Date): Promise<void>;
  recordOperation(op: ExtOperationRow): Promise<void>;
  operation(id: string, userId: string): Promise<ExtOperationRow | undefined>;
  orderIntent(userId: string, key: string): Promise<{ orderId: string; payload: Record<string, unknown> } | undefined>;
  keepOrderIntent(
    userId: string,
    key: string,
    orderId: string,
    payload: Record<string, unknown>,
    now: Date,
  ): Promise<{ orderId: string; payload: Record<string, unknown> }>;
  relayerIntent(writeKey: string): Promise<ExtRelayerIntentRow | undefined>;
  keepRelayerIntent(
    row: Omit<ExtRelayerIntentRow, 'transactionId'>,
    idempotencyRecordId: string | undefined,
    now: Date,
  ): Promise<ExtRelayerIntentRow>;
  replaceRelayerRequest(writeKey: string, request: ExtPreparedRelayerTx, now: Date): Promise<void>;
  setRelayerTransaction(writeKey: string, transactionId: string, now: Date): Promise<void>;
}

/** The caller of an external-market route: the user and their managed wallet. */
export interface ExtCaller {
  readonly userId: string;
  readonly managedAddress: string;
}

export interface ExtDeps {
  readonly store: ExtMarketStore;
  readonly exchange: ExternalExchange;
  readonly box: SecretBox;
}

export type WalletKind = 'deposit-wallet' | 'safe';
export const kindOf = (row: ExtAccountRow): WalletKind => (row.walletKind === 'SAFE' ? 'safe' : 'deposit-wallet');
export const relayerKindOf = (kind: WalletKind) => (kind === 'safe' ? ('SAFE' as const) : ('WALLET' as const));

/** The account, the signer and the credentials of callers; secrets are opened only while used. */
export class ExtAccounts {
  constructor(private readonly deps: ExtDeps) {}

  async find(caller: ExtCaller): Promise<ExtAccountRow | undefined> {
    return this.deps.store.account(caller.userId);
  }

  /** The caller's account; 409 EXTMARKET_NO_CREDENTIALS until derive-credentials made one. */
  async require(caller: ExtCaller): Promise<ExtAccountRow> {
    const row = await this.find(caller);
    if (!row)
      throw new DomainError('EXTMARKET_NO_CREDENTIALS', 'Derive the exchange credentials first (derive-credentials)');
    return row;
  }

  /** Creates the signer and chooses the trading wallet on first use. */
  async ensure(caller: ExtCaller, kind: WalletKind, now: Date): Promise<ExtAccountRow> {
    const existing = await this.find(caller);
    if (existing) return existing;
    const { address, ciphertext } = createManagedWallet(this.deps.box);
    const signer = getAddress(address);
    return this.deps.store.createAccount(
      {
        userId: caller.userId,
        signerAddress: signer,
        signerKeyCiphertext: ciphertext,
        walletKind: kind === 'safe' ? 'SAFE' : 'WALLET',
        tradingWallet: kind === 'safe' ? safeAddressOf(signer) : depositWalletAddressOf(signer),
      },
      now,
    );
  }

  signer(row: ExtAccountRow): LocalAccount {
    return managedSigner(this.deps.box, row.signerKeyCiphertext, row.signerAddress);
  }

  credentials(row: ExtAccountRow): ExtCredentials | undefined {
    return row.credentialsCiphertext
      ? (JSON.parse(this.deps.box.open(row.credentialsCiphertext)) as ExtCredentials)
      : undefined;
  }

  async storeCredentials(row: ExtAccountRow, creds: ExtCredentials, nonce: number, now: Date): Promise<void> {
    await this.deps.store.setCredentials(row.userId, this.deps.box.seal(JSON.stringify(creds)), nonce, now);
  }

  /** A CLOB session for the caller; 409 EXTMARKET_NO_CREDENTIALS when none are stored. */
  async session(caller: ExtCaller): Promise<{ row: ExtAccountRow; session: ExtSession }> {
    const row = await this.require(caller);
    const creds = this.credentials(row);
    if (!creds)
      throw new DomainError('EXTMARKET_NO_CREDENTIALS', 'Derive the exchange credentials first (derive-credentials)');
    return {
      row,
      session: {
        signer: this.signer(row),
        creds,
        signatureType: row.walletKind === 'SAFE' ? 2 : 3,
        funder: getAddress(row.tradingWallet),
      },
    };
  }

  walletOf(row: ExtAccountRow, kind: WalletKind): Address {
    const signer = getAddress(row.signerAddress);
    return kind === 'safe' ? safeAddressOf(signer) : depositWalletAddressOf(signer);
  }
}
