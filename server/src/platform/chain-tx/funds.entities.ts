import { EntitySchema } from '@mikro-orm/core';

/** One row per (chain, wallet, token): its lock serialises the funding checks of that wallet. */
export interface FundWalletRow {
  chainId: number;
  account: string;
  token: string;
}

export const FundWalletEntity = new EntitySchema<FundWalletRow>({
  name: 'FundWallet',
  tableName: 'fund_wallets',
  properties: {
    chainId: { type: 'integer', primary: true },
    account: { type: 'string', length: 42, primary: true },
    token: { type: 'string', length: 42, primary: true },
  },
});

/**
 * A pending debit: what one chain write will spend of a wallet's token, keyed like the write. It
 * counts against the wallet until the chain's balance reflects the write (see FundsRepository).
 */
export interface FundReservationRow {
  writeKey: string;
  chainId: number;
  account: string;
  token: string;
  amount: string;
  createdAt: Date;
}

export const FundReservationEntity = new EntitySchema<FundReservationRow>({
  name: 'FundReservation',
  tableName: 'fund_reservations',
  indexes: [{ name: 'fund_reservations_wallet_idx', properties: ['chainId', 'account', 'token', 'createdAt'] }],
  properties: {
    writeKey: { type: 'string', length: 300, primary: true },
    chainId: { type: 'integer' },
    account: { type: 'string', length: 42 },
    token: { type: 'string', length: 42 },
    amount: { type: 'decimal', columnType: 'numeric(78,0)' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
