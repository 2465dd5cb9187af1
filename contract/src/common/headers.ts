import { z } from 'zod';

/** Header names used on both hosts. */
export const HEADER = {
  builderApiKey: 'x-builder-api-key',
  idempotencyKey: 'idempotency-key',
  requestId: 'x-request-id',
  idempotentReplayed: 'idempotent-replayed',
  retryAfter: 'retry-after',
  walletAddress: 'x-wallet-address',
  walletSignature: 'x-wallet-signature',
  walletTimestamp: 'x-wallet-timestamp',
} as const;

/** A client-chosen Idempotency-Key: 1–255 printable ASCII characters. */
export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'must be 1-255 printable ASCII characters without spaces')
  .describe('Idempotency-Key: the same key and body replays the stored response for 24 h');

/** A client-sent request id is accepted when it looks sane; otherwise the server makes one. */
export const RequestIdSchema = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/);
