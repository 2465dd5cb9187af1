import { authenticator } from 'otplib';

/** RFC 6238 parameters every authenticator app uses: 30-second steps, 6 digits, SHA-1. */
export const TOTP_STEP_SECONDS = 30;

/** Codes of the step before and after the current one are accepted too (clock drift, typing time). */
const DRIFT_STEPS = 1;

/** A new base32 TOTP secret (160 bits) and the `otpauth://` URI an authenticator app scans. */
export function newTotpSecret(account: string, issuer: string): { secret: string; otpauthUri: string } {
  const secret = authenticator.generateSecret(20);
  return { secret, otpauthUri: authenticator.keyuri(account, issuer, secret) };
}

/**
 * The time step a 6-digit code belongs to, if it is valid within ±1 step of `nowMs`; null when it
 * is not. Steps count from the Unix epoch, so a later code always has a larger step.
 */
export function totpStepOf(code: string, secret: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = authenticator
    .clone({ epoch: nowMs, step: TOTP_STEP_SECONDS, window: DRIFT_STEPS })
    .checkDelta(code, secret);
  return delta === null ? null : Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS) + delta;
}

/** The code of the step holding `nowMs` (tests and the CLI). */
export function totpCodeAt(secret: string, nowMs: number): string {
  return authenticator.clone({ epoch: nowMs, step: TOTP_STEP_SECONDS }).generate(secret);
}
