import { z } from 'zod';
import { PaginationQuerySchema, paginated } from '../common/pagination.js';
import {
  AddressSchema,
  AmountSchema,
  CollateralStackSchema,
  TimestampSchema,
  TxHashSchema,
} from '../common/primitives.js';

/** Body of POST /svc/user/withdraw, pre-validate and create withdrawal request. */
export const WithdrawRequestSchema = z
  .object({
    collateralStack: CollateralStackSchema,
    amount: AmountSchema.describe('Base units to send; more than 0 and at most the managed wallet’s balance'),
    toAddress: AddressSchema.describe('External address that receives the collateral (not the managed wallet itself)'),
  })
  .strict();
export type WithdrawRequest = z.infer<typeof WithdrawRequestSchema>;

/** Where the rolling 24 h withdrawal limit of one user and collateral stands. */
export const DailyLimitSchema = z
  .object({
    user: AddressSchema.describe('The managed wallet the limit applies to'),
    collateralStack: CollateralStackSchema,
    limit: AmountSchema,
    used: AmountSchema.describe('Direct withdrawals (not failed) of the last 24 h'),
    remaining: AmountSchema,
    windowSeconds: z.literal(86_400),
    resetsAt: TimestampSchema.nullable().describe('When the oldest use leaves the window (null: nothing used)'),
  })
  .strict();
export type DailyLimit = z.infer<typeof DailyLimitSchema>;

/** `reserved` (counted, not sent yet) → `submitted` (sent) → `completed`, or `failed` (not counted). */
export const WithdrawalStatusSchema = z.enum(['reserved', 'submitted', 'completed', 'failed']);

export const WithdrawalSchema = z
  .object({
    id: z.string().uuid(),
    collateralStack: CollateralStackSchema,
    amount: AmountSchema,
    toAddress: AddressSchema,
    status: WithdrawalStatusSchema,
    txHash: TxHashSchema.nullable(),
    createdAt: TimestampSchema,
    dailyLimit: DailyLimitSchema.describe('The limit after this withdrawal'),
  })
  .strict();
export type Withdrawal = z.infer<typeof WithdrawalSchema>;

/** One reason a withdrawal would fail, with the error code it would carry. */
export const ValidationReasonSchema = z
  .object({
    code: z.string().describe('The error code the withdrawal would fail with'),
    field: z.string().nullable(),
    message: z.string(),
  })
  .strict();

export const PreValidateResponseSchema = z
  .object({
    valid: z.boolean().describe('True when a withdrawal request with this body would be recorded'),
    withinDailyLimit: z.boolean().describe('True when a direct withdrawal of this amount fits the 24 h limit now'),
    reasons: z.array(ValidationReasonSchema).describe('Every reason the request would fail, not only the first'),
    balance: AmountSchema,
    dailyLimit: DailyLimitSchema,
  })
  .strict();
export type PreValidateResponse = z.infer<typeof PreValidateResponseSchema>;

export const DailyLimitQuerySchema = z
  .object({
    user: AddressSchema.describe('Your managed wallet (or the EOA you sign in with)'),
    collateralStack: CollateralStackSchema,
    collateralMode: CollateralStackSchema.describe('The same collateral as `collateralStack`'),
  })
  .strict();
export type DailyLimitQuery = z.infer<typeof DailyLimitQuerySchema>;

/** pending → approved → executing → completed | failed; pending → rejected. */
export const WithdrawalRequestStatusSchema = z.enum([
  'pending',
  'approved',
  'rejected',
  'executing',
  'completed',
  'failed',
]);

export const WithdrawalDecisionSchema = z
  .object({
    decision: z.enum(['approve', 'reject']),
    reason: z.string().nullable(),
    adminEmail: z.string(),
    decidedAt: TimestampSchema,
  })
  .strict();

export const WithdrawalRequestSchema = z
  .object({
    id: z.string().uuid(),
    user: AddressSchema.describe('The managed wallet the collateral leaves from'),
    collateralStack: CollateralStackSchema,
    amount: AmountSchema,
    toAddress: AddressSchema,
    note: z.string().nullable(),
    status: WithdrawalRequestStatusSchema,
    decision: WithdrawalDecisionSchema.nullable(),
    txHash: TxHashSchema.nullable(),
    failureReason: z.string().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .strict();
export type WithdrawalRequestDto = z.infer<typeof WithdrawalRequestSchema>;

export const CreateWithdrawalRequestSchema = WithdrawRequestSchema.extend({
  note: z.string().trim().max(500).optional().describe('Why you ask (shown to the reviewing admin)'),
}).strict();
export type CreateWithdrawalRequest = z.infer<typeof CreateWithdrawalRequestSchema>;

export const WithdrawalRequestListQuerySchema = PaginationQuerySchema.extend({
  status: WithdrawalRequestStatusSchema.optional(),
}).strict();
export type WithdrawalRequestListQuery = z.infer<typeof WithdrawalRequestListQuerySchema>;

export const AdminWithdrawalRequestListQuerySchema = WithdrawalRequestListQuerySchema.extend({
  user: AddressSchema.optional(),
}).strict();
export type AdminWithdrawalRequestListQuery = z.infer<typeof AdminWithdrawalRequestListQuerySchema>;

export const WithdrawalRequestListResponseSchema = paginated(WithdrawalRequestSchema);
export type WithdrawalRequestList = z.infer<typeof WithdrawalRequestListResponseSchema>;

export const WithdrawalRequestIdParamsSchema = z.object({ requestId: z.string().uuid() }).strict();

export const DecideWithdrawalRequestSchema = z
  .object({
    decision: z.enum(['approve', 'reject']),
    reason: z.string().trim().min(3).max(500).optional().describe('Required to reject; kept in the audit trail'),
  })
  .strict();
export type DecideWithdrawalRequest = z.infer<typeof DecideWithdrawalRequestSchema>;
