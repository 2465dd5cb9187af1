import { randomBytes } from 'node:crypto';
import { keccak256, toHex } from 'viem';
import { DomainError } from '../../errors.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Length of a generated code: 16 base32 characters carry 80 bits, far beyond guessing. */
export const GENERATED_CODE_LENGTH = 16;

/**
 * A fresh invite code of 16 characters from the RFC 4648 base32 alphabet (80 random bits).
 * @example generateInviteCode() // 'K7Q2MZ4XW3DPA6RB'
 */
export function generateInviteCode(random: (n: number) => Buffer = randomBytes): string {
  const bytes = random(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** What the chain stores for a code: keccak256 of its UTF-8 bytes, lower-case hex. */
export function codeHashOf(code: string): `0x${string}` {
  return keccak256(toHex(code));
}

/** State of an invitation at `now`, from its counters and dates. */
export type InvitationState = 'active' | 'expired' | 'exhausted' | 'revoked';

export function invitationState(
  row: { revokedAt: Date | string | null; expiresAt: Date | string | null; maxUses: number; uses: number },
  now: number,
): InvitationState {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && new Date(row.expiresAt).getTime() <= now) return 'expired';
  if (row.maxUses !== 0 && row.uses >= row.maxUses) return 'exhausted';
  return 'active';
}

/** The error a join with an unusable code gets; `details` say why. */
export function inviteUnusable(
  state: Exclude<InvitationState, 'active'>,
  row: { maxUses: number; expiresAt: Date | string | null },
): DomainError {
  switch (state) {
    case 'revoked':
      return new DomainError('INVITE_REVOKED', 'The invite code was revoked');
    case 'expired':
      return new DomainError('INVITE_EXPIRED', 'The invite code has expired', {
        details: { expiresAt: row.expiresAt ? new Date(row.expiresAt).toISOString() : null },
      });
    case 'exhausted':
      return new DomainError('INVITE_EXHAUSTED', 'The invite code has no uses left', {
        details: { maxUses: row.maxUses },
      });
  }
}

/** Validates a requested expiry: absent or null means never; otherwise strictly in the future. */
export function expiryOf(expiresAt: string | null | undefined, now: number): Date | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const at = new Date(expiresAt);
  if (at.getTime() <= now) {
    throw new DomainError('VALIDATION_FAILED', 'The expiry must be in the future', {
      fieldErrors: { 'body.expiresAt': ['must be in the future'] },
    });
  }
  return at;
}

/** Remaining joins, or null when unlimited. */
export function remainingUses(row: { maxUses: number; uses: number }): number | null {
  return row.maxUses === 0 ? null : Math.max(0, row.maxUses - row.uses);
}

/** True for a PostgreSQL unique violation (SQLSTATE 23505), however the driver wrapped it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
    if (e instanceof Error && e.name === 'UniqueConstraintViolationException') return true;
  }
  return false;
}
