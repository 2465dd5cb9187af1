import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** How the operator commands reach a running server: its loopback URL and a bearer token. */
export interface OperatorCredential {
  readonly url: string;
  readonly token: string;
  readonly pid: number;
}

const CredentialSchema = z.object({ url: z.string().url(), token: z.string().min(32), pid: z.number().int() }).strict();

/** One file per bound operator port, so it names the process that holds that port. */
export function credentialPath(dir: string, port: number): string {
  return join(dir, `operator-${port}.json`);
}

export function newOperatorToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison of a presented token with the expected one (hashing evens the lengths). */
export function tokenMatches(presented: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Refuses a directory other users could read or plant files in (a shared /tmp). */
function assertPrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((stat.mode & 0o077) !== 0) throw new Error(`${dir} is readable by other users (chmod 700 it)`);
}

/** Writes the credential readable by this user only, atomically (a command never reads half a file). */
export function writeCredential(dir: string, port: number, credential: OperatorCredential): string {
  assertPrivateDir(dir);
  const path = credentialPath(dir, port);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(credential)}\n`, { mode: 0o600 });
  renameSync(temp, path);
  return path;
}

export function readCredential(dir: string, port: number): OperatorCredential | null {
  try {
    const parsed = CredentialSchema.safeParse(JSON.parse(readFileSync(credentialPath(dir, port), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Removes the file if it is still this process's (another instance may have taken the port since). */
export function removeCredential(dir: string, port: number, token: string): void {
  const current = readCredential(dir, port);
  if (current && tokenMatches(current.token, token)) rmSync(credentialPath(dir, port), { force: true });
}
