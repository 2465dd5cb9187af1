import { keccak256, stringToBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import { codeHashOf, expiryOf, generateInviteCode, invitationState, remainingUses } from './invite-code.js';

describe('invite codes', () => {
  it('generates 16 base32 characters carrying all 80 random bits', () => {
    expect(generateInviteCode(() => Buffer.alloc(10, 0))).toBe('AAAAAAAAAAAAAAAA');
    expect(generateInviteCode(() => Buffer.alloc(10, 0xff))).toBe('7777777777777777');
    const codes = new Set(Array.from({ length: 1_000 }, () => generateInviteCode()));
    expect(codes.size).toBe(1_000);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{16}$/);
  });

  it('hashes the UTF-8 bytes of the code, as the contract expects', () => {
    expect(codeHashOf('friends-only')).toBe(keccak256(stringToBytes('friends-only')));
    expect(codeHashOf('Abc1')).not.toBe(codeHashOf('abc1'));
  });

  it('derives the state from revocation, expiry and uses, in that order', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const base = { revokedAt: null, expiresAt: null, maxUses: 2, uses: 0 };
    expect(invitationState(base, now)).toBe('active');
    expect(invitationState({ ...base, uses: 2 }, now)).toBe('exhausted');
    expect(invitationState({ ...base, maxUses: 0, uses: 10_000 }, now)).toBe('active');
    expect(invitationState({ ...base, uses: 2, expiresAt: new Date(now) }, now)).toBe('expired');
    expect(invitationState({ ...base, uses: 2, expiresAt: new Date(now), revokedAt: new Date(now) }, now)).toBe(
      'revoked',
    );
    expect(remainingUses({ maxUses: 0, uses: 5 })).toBeNull();
    expect(remainingUses({ maxUses: 3, uses: 1 })).toBe(2);
  });

  it('accepts no expiry, or one strictly in the future', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(expiryOf(undefined, now)).toBeNull();
    expect(expiryOf(null, now)).toBeNull();
    expect(expiryOf('2026-11-23T12:00:01Z', now)?.toISOString()).toBe('2026-11-23T12:00:01.000Z');
    expect(() => expiryOf('2026-11-23T12:00:00Z', now)).toThrow(/future/);
  });
});
