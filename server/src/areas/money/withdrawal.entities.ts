import { EntitySchema } from '@mikro-orm/core';

type Stack = 'usdc' | 'credits';
export type WithdrawalStatus = 'reserved' | 'submitted' | 'completed' | 'failed';
export type WithdrawalRequestStatus = 'pending' | 'approved' | 'rejected' | 'executing' | 'completed' | 'failed';

/**
 * One movement of collateral out of a managed wallet. Direct withdrawals count against the rolling
 * 24 h limit while not failed; a request's execution (`requestId`) does not (an admin approved it).
 */
export interface WithdrawalRow {
  id: string;
  userId: string;
  address: string;
  collateralStack: Stack;
  toAddress: string;
  amount: string;
  status: WithdrawalStatus;
  requestId: string | null;
  txHash: string | null;
  bridgeRef: string | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export const WithdrawalEntity = new EntitySchema<WithdrawalRow>({
  name: 'Withdrawal',
  tableName: 'withdrawals',
  uniques: [{ name: 'withdrawals_request_unique', properties: ['requestId'] }],
  indexes: [{ name: 'withdrawals_window_idx', properties: ['address', 'collateralStack', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    userId: { type: 'uuid' },
    address: { type: 'string', length: 42 },
    collateralStack: { type: 'string', length: 8 },
    toAddress: { type: 'string', length: 42 },
    amount: { type: 'decimal', columnType: 'numeric(78,0)' },
    status: { type: 'string', length: 10 },
    requestId: { type: 'uuid', nullable: true },
    txHash: { type: 'string', length: 66, nullable: true },
    bridgeRef: { type: 'string', length: 100, nullable: true },
    failureReason: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** A withdrawal an admin reviews (amounts above the daily limit). */
export interface WithdrawalRequestRow {
  id: string;
  userId: string;
  address: string;
  collateralStack: Stack;
  toAddress: string;
  amount: string;
  note: string | null;
  status: WithdrawalRequestStatus;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const WithdrawalRequestEntity = new EntitySchema<WithdrawalRequestRow>({
  name: 'WithdrawalRequest',
  tableName: 'withdrawal_requests',
  indexes: [
    { name: 'withdrawal_requests_address_idx', properties: ['address', 'createdAt'] },
    { name: 'withdrawal_requests_status_idx', properties: ['status', 'createdAt'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    userId: { type: 'uuid' },
    address: { type: 'string', length: 42 },
    collateralStack: { type: 'string', length: 8 },
    toAddress: { type: 'string', length: 42 },
    amount: { type: 'decimal', columnType: 'numeric(78,0)' },
    note: { type: 'text', nullable: true },
    status: { type: 'string', length: 10 },
    failureReason: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** The audit trail: one decision per request (who, when, what, why). */
export interface WithdrawalDecisionRow {
  id: string;
  requestId: string;
  adminId: string;
  adminEmail: string;
  decision: 'approve' | 'reject';
  reason: string | null;
  createdAt: Date;
}

export const WithdrawalDecisionEntity = new EntitySchema<WithdrawalDecisionRow>({
  name: 'WithdrawalDecision',
  tableName: 'withdrawal_decisions',
  uniques: [{ name: 'withdrawal_decisions_request_unique', properties: ['requestId'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    requestId: { type: 'uuid' },
    adminId: { type: 'uuid' },
    adminEmail: { type: 'string', length: 320 },
    decision: { type: 'string', length: 8 },
    reason: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
