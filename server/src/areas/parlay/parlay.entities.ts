import { EntitySchema } from '@mikro-orm/core';

/** The pool's one row: its lock serialises every exposure check (quotes reserve under it). */
export interface ParlayPoolRow {
  id: number;
}

export const ParlayPoolEntity = new EntitySchema<ParlayPoolRow>({
  name: 'ParlayPool',
  tableName: 'parlay_pool',
  properties: { id: { type: 'integer', primary: true, autoincrement: false } },
});

/** A signed quote and the exposure it holds on the pool until it expires or becomes a ticket. */
export interface ParlayQuoteRow {
  id: string;
  bettor: string;
  nonce: string;
  stake: string;
  fee: string;
  odds: string;
  payout: string;
  exposure: string;
  expectedLiability: string;
  legs: unknown;
  typedData: unknown;
  signature: string;
  status: string;
  expiresAt: Date;
  createdAt: Date;
}

export const ParlayQuoteEntity = new EntitySchema<ParlayQuoteRow>({
  name: 'ParlayQuote',
  tableName: 'parlay_quotes',
  uniques: [{ name: 'parlay_quotes_bettor_nonce_key', properties: ['bettor', 'nonce'] }],
  indexes: [{ name: 'parlay_quotes_live_idx', properties: ['status', 'expiresAt'] }],
  properties: {
    id: { type: 'string', length: 40, primary: true },
    bettor: { type: 'string', length: 42 },
    nonce: { type: 'bigint' },
    stake: { type: 'decimal', columnType: 'numeric(78,0)' },
    fee: { type: 'decimal', columnType: 'numeric(78,0)' },
    odds: { type: 'decimal', columnType: 'numeric(78,0)' },
    payout: { type: 'decimal', columnType: 'numeric(78,0)' },
    exposure: { type: 'decimal', columnType: 'numeric(78,0)' },
    expectedLiability: { type: 'decimal', columnType: 'numeric(78,0)' },
    legs: { type: 'json' },
    typedData: { type: 'json' },
    signature: { type: 'string', length: 132 },
    status: { type: 'string', length: 16, default: 'quoted' },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** One leg of a quote: where its exposure counts (per outcome, per game). */
export interface ParlayQuoteLegRow {
  quoteId: string;
  legIndex: number;
  conditionId: string;
  outcomeId: number;
  fixtureId: string;
}

export const ParlayQuoteLegEntity = new EntitySchema<ParlayQuoteLegRow>({
  name: 'ParlayQuoteLeg',
  tableName: 'parlay_quote_legs',
  indexes: [
    { name: 'parlay_quote_legs_outcome_idx', properties: ['conditionId', 'outcomeId'] },
    { name: 'parlay_quote_legs_fixture_idx', properties: ['fixtureId'] },
  ],
  properties: {
    quoteId: { type: 'string', length: 40, primary: true },
    legIndex: { type: 'integer', primary: true },
    conditionId: { type: 'string', length: 66 },
    outcomeId: { type: 'integer' },
    fixtureId: { type: 'bigint' },
  },
});

/** The liquidity pool's ledger: deposits and withdrawals of an LP, and realised ticket results (no account). */
export interface LpMovementRow {
  id: string;
  account: string | null;
  kind: string;
  assets: string;
  shares: string;
  at: Date;
  txHash: string | null;
  logIndex: number | null;
}

export const LpMovementEntity = new EntitySchema<LpMovementRow>({
  name: 'LpMovement',
  tableName: 'lp_movements',
  indexes: [{ name: 'lp_movements_account_idx', properties: ['account', 'at'] }],
  uniques: [{ name: 'lp_movements_log_key', properties: ['txHash', 'logIndex'] }],
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    account: { type: 'string', length: 42, nullable: true },
    kind: { type: 'string', length: 16 },
    assets: { type: 'decimal', columnType: 'numeric(78,0)' },
    shares: { type: 'decimal', columnType: 'numeric(78,0)' },
    at: { type: 'Date', columnType: 'timestamptz' },
    txHash: { type: 'string', length: 66, nullable: true },
    logIndex: { type: 'integer', nullable: true },
  },
});

/** A ticket placed on ParlayBook, as the indexer reads it: open → won | lost | void → claimed. */
export interface ParlayTicketRow {
  ticketId: string;
  bettor: string;
  nonce: string;
  quoteId: string | null;
  stake: string;
  fee: string;
  payout: string;
  liability: string;
  legs: unknown;
  status: string;
  outcome: string | null;
  owed: string;
  poolResult: string | null;
  placedTx: string;
  claimTx: string | null;
  placedAt: Date;
  settledAt: Date | null;
  claimedAt: Date | null;
}

export const ParlayTicketEntity = new EntitySchema<ParlayTicketRow>({
  name: 'ParlayTicket',
  tableName: 'parlay_tickets',
  indexes: [
    { name: 'parlay_tickets_bettor_idx', properties: ['bettor', 'placedAt'] },
    { name: 'parlay_tickets_status_idx', properties: ['status'] },
  ],
  properties: {
    ticketId: { type: 'string', length: 66, primary: true },
    bettor: { type: 'string', length: 42 },
    nonce: { type: 'bigint' },
    quoteId: { type: 'string', length: 40, nullable: true },
    stake: { type: 'decimal', columnType: 'numeric(78,0)' },
    fee: { type: 'decimal', columnType: 'numeric(78,0)' },
    payout: { type: 'decimal', columnType: 'numeric(78,0)' },
    liability: { type: 'decimal', columnType: 'numeric(78,0)' },
    legs: { type: 'json' },
    status: { type: 'string', length: 16 },
    outcome: { type: 'string', length: 8, nullable: true },
    owed: { type: 'decimal', columnType: 'numeric(78,0)', default: 0 },
    poolResult: { type: 'decimal', columnType: 'numeric(78,0)', nullable: true },
    placedTx: { type: 'string', length: 66 },
    claimTx: { type: 'string', length: 66, nullable: true },
    placedAt: { type: 'Date', columnType: 'timestamptz' },
    settledAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    claimedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** A condition's result as posted on ParlayBook. */
export interface ParlayResultRow {
  conditionId: string;
  isVoid: boolean;
  winningOutcome: number;
  postedAt: Date;
}

export const ParlayResultEntity = new EntitySchema<ParlayResultRow>({
  name: 'ParlayResult',
  tableName: 'parlay_results',
  properties: {
    conditionId: { type: 'string', length: 66, primary: true },
    isVoid: { type: 'boolean' },
    winningOutcome: { type: 'integer' },
    postedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** The parlay and liquidity-pool tables. */
export const parlayEntities: readonly EntitySchema[] = [
  ParlayPoolEntity,
  ParlayQuoteEntity,
  ParlayQuoteLegEntity,
  LpMovementEntity,
  ParlayTicketEntity,
  ParlayResultEntity,
];
