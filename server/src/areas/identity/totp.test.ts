import { describe, expect, it } from 'vitest';
import { newTotpSecret, totpCodeAt, totpStepOf, TOTP_STEP_SECONDS } from './totp.js';

const STEP_MS = TOTP_STEP_SECONDS * 1000;
const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

describe('totpStepOf', () => {
  const { secret } = newTotpSecret('ops@example.com', 'Duelkit');

  it('names the step a code belongs to, for the current step and one either side', () => {
    const step = Math.floor(T0 / STEP_MS);
    expect(totpStepOf(totpCodeAt(secret, T0), secret, T0)).toBe(step);
    expect(totpStepOf(totpCodeAt(secret, T0 - STEP_MS), secret, T0)).toBe(step - 1);
    expect(totpStepOf(totpCodeAt(secret, T0 + STEP_MS), secret, T0)).toBe(step + 1);
  });

  it('refuses codes two steps away, codes of another secret and malformed codes', () => {
    expect(totpStepOf(totpCodeAt(secret, T0 - 2 * STEP_MS), secret, T0)).toBeNull();
    const other = newTotpSecret('x@example.com', 'Duelkit').secret;
    const foreign = totpCodeAt(other, T0);
    // One in a million chance the two secrets agree at T0; then the codes are equal too.
    if (foreign !== totpCodeAt(secret, T0)) expect(totpStepOf(foreign, secret, T0)).toBeNull();
    expect(totpStepOf('12345', secret, T0)).toBeNull();
    expect(totpStepOf('abcdef', secret, T0)).toBeNull();
  });

  it('gives a code the same step whenever it is checked within the window, so a later check cannot renew it', () => {
    const code = totpCodeAt(secret, T0);
    const step = totpStepOf(code, secret, T0);
    expect(totpStepOf(code, secret, T0 + STEP_MS - 1)).toBe(step);
    expect(totpStepOf(code, secret, T0 + STEP_MS + 1)).toBe(step);
    expect(totpStepOf(code, secret, T0 - 1)).toBe(step);
  });
});
