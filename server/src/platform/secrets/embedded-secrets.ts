import { createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The secrets an embedded instance generates instead of requiring them. */
export interface EmbeddedSecrets {
  /** HMAC key of user and admin JWTs (and signed bet estimates). */
  readonly jwtSecret: string;
  /** AES-256-GCM key of managed wallet keys and TOTP secrets, 0x hex. */
  readonly walletMasterKey: string;
  /** Operator account of the embedded chain. */
  readonly operatorKey: `0x${string}`;
  /** Credential of the markets host's calls to the tournaments host's internal admin routes. */
  readonly serviceToken: string;
}

const SecretsFileSchema = z
  .object({
    jwtSecret: z.string().min(32),
    walletMasterKey: z.string().regex(/^0x[0-9a-f]{64}$/),
    operatorKey: z.string().regex(/^0x[0-9a-f]{64}$/),
    serviceToken: z.string().min(32).optional(),
  })
  .strict();

export const SECRETS_FILE = 'secrets.json';

function generate(): EmbeddedSecrets {
  return {
    jwtSecret: randomBytes(32).toString('base64url'),
    walletMasterKey: `0x${randomBytes(32).toString('hex')}`,
    operatorKey: `0x${randomBytes(32).toString('hex')}`,
    serviceToken: randomBytes(32).toString('base64url'),
  };
}

/**
 * Secrets of an embedded instance, never a constant from the source: generated at its first start
 * and kept in `<dataDir>/secrets.json` (readable by the owner only), so a restart on the same
 * data directory can still verify its tokens and decrypt its wallets; without a data directory
 * they live in memory, like the database.
 */
export function loadEmbeddedSecrets(dataDir: string | undefined): EmbeddedSecrets {
  if (!dataDir) return generate();
  const path = join(dataDir, SECRETS_FILE);
  let text: string | null = null;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (text !== null) {
    const parsed = SecretsFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${path} is not a Duelkit secrets file; move it away to start afresh`);
    // Files written before the service credential existed: derived from their own JWT secret, so
    // it stays secret and stable across restarts without rewriting the file.
    const serviceToken =
      parsed.data.serviceToken ??
      createHmac('sha256', parsed.data.jwtSecret).update('duelkit:service-token').digest('base64url');
    return { ...parsed.data, operatorKey: parsed.data.operatorKey as `0x${string}`, serviceToken };
  }
  const secrets = generate();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written whole to a private temporary file, then linked into place: the link fails if another
  // process got there first, and nobody ever reads a half-written file.
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadEmbeddedSecrets(dataDir);
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  return secrets;
}
