import { z } from 'zod';
import { AddressSchema, AmountSchema, TxHashSchema } from '../common/primitives.js';

/** The bridge provider's deposit-completed event (docs/money.md has a signed example). */
export const BridgeDepositEventSchema = z
  .object({
    eventId: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
      .describe('The provider’s unique event id: retries of one event carry the same id'),
    type: z.literal('deposit.completed'),
    data: z
      .object({
        address: AddressSchema.describe('The managed wallet the deposit is for'),
        amount: AmountSchema.describe('usdc base units (18 decimals) delivered'),
        sourceChain: z.string().max(64).optional(),
        sourceTxHash: z.string().max(200).optional(),
      })
      .strict(),
  })
  .strict();
export type BridgeDepositEvent = z.infer<typeof BridgeDepositEventSchema>;

export const BridgeDepositReceiptSchema = z
  .object({
    eventId: z.string(),
    status: z.enum(['credited', 'duplicate']).describe('`duplicate`: a retry of an event already recorded'),
    address: AddressSchema,
    amount: AmountSchema,
    txHash: TxHashSchema.nullable().describe('The one crediting transaction'),
  })
  .strict();
export type BridgeDepositReceipt = z.infer<typeof BridgeDepositReceiptSchema>;
