import { z } from 'zod';

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/**
 * An EVM address. Accepted in any letter case; the server normalises to the EIP-55 checksum
 * form in every response.
 */
export const AddressSchema = z
  .string()
  .regex(ADDRESS_RE, 'must be a 0x-prefixed 20-byte hex address')
  .describe('EVM address (0x + 40 hex); responses use the EIP-55 checksum form');
export type Address = z.infer<typeof AddressSchema>;

/** A 32-byte transaction hash. */
export const TxHashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex hash')
  .describe('Transaction hash (0x + 64 hex)');
export type TxHash = z.infer<typeof TxHashSchema>;

/** On-chain duel id: 32 bytes as 0x-prefixed hex. Never the database row id. */
export const DuelIdSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be the on-chain duelId (0x + 64 hex), not the database id')
  .describe('On-chain duel id (0x + 64 hex)');
export type DuelId = z.infer<typeof DuelIdSchema>;

/**
 * An amount in base units (18 decimals) as a decimal string. On the wire it is always a string so
 * no JSON number ever loses precision; in code it is a bigint.
 */
export const AmountSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, 'must be a non-negative integer in base units, as a decimal string')
  .describe('Amount in base units (18 decimals) as a decimal string, e.g. "5000000000000000000" = 5 units');
export type Amount = z.infer<typeof AmountSchema>;

/** Parses a wire amount into a bigint; the schema has already guaranteed the format. */
export function parseAmount(amount: Amount): bigint {
  return BigInt(amount);
}

/** Formats a bigint as a wire amount. */
export function formatAmount(amount: bigint): Amount {
  if (amount < 0n) throw new RangeError('amounts are never negative');
  return amount.toString(10);
}

/** A signed base-unit value (profit and loss) as a decimal string. */
export const SignedAmountSchema = z
  .string()
  .regex(/^(0|-?[1-9][0-9]{0,77})$/, 'must be an integer in base units, as a decimal string')
  .describe('Signed amount in base units (18 decimals) as a decimal string');

/** ISO-8601 timestamp with offset, e.g. 2026-11-22T12:00:00.000Z. */
export const TimestampSchema = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO-8601 timestamp, e.g. 2026-11-22T12:00:00Z' })
  .describe('ISO-8601 timestamp');
export type Timestamp = z.infer<typeof TimestampSchema>;

/** Collateral a market settles in: `usdc` is geo-gated, `credits` never is. */
export const CollateralStackSchema = z
  .enum(['usdc', 'credits'])
  .describe('Collateral: usdc (geo-gated) or credits (never gated)');
export type CollateralStack = z.infer<typeof CollateralStackSchema>;

/** 32 bytes as 0x-prefixed hex: a Solidity `bytes32` (a pool id, a Merkle root or proof node). */
export const Bytes32Schema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x-prefixed 32-byte hex')
  .describe('bytes32 (0x + 64 hex)');

/** 0x-prefixed hex bytes of any length. */
export const HexSchema = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, 'must be 0x-prefixed hex bytes')
  .describe('0x-prefixed hex bytes');
