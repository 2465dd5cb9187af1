import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { loadEmbeddedSecrets, SECRETS_FILE } from './embedded-secrets.js';

const root = mkdtempSync(join(tmpdir(), 'duelkit-secrets-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('embedded secrets', () => {
  it('are generated once per data directory, kept readable by the owner only, and read back on restart', () => {
    const dataDir = join(root, 'a');
    const first = loadConfig({ DUELKIT_DATA_DIR: dataDir });
    const again = loadConfig({ DUELKIT_DATA_DIR: dataDir });
    expect(again.auth.jwtSecret).toBe(first.auth.jwtSecret);
    expect(again.auth.walletMasterKey.equals(first.auth.walletMasterKey)).toBe(true);
    expect(again.chain.operatorKey).toBe(first.chain.operatorKey);
    expect(again.tournamentsLink.serviceToken).toBe(first.tournamentsLink.serviceToken);
    expect(first.tournamentsLink.serviceToken.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dataDir, SECRETS_FILE)).mode & 0o077).toBe(0);
    expect(loadConfig({ DUELKIT_DATA_DIR: join(root, 'b') }).auth.jwtSecret).not.toBe(first.auth.jwtSecret);
  });

  it('generate only what is not set', () => {
    const dataDir = join(root, 'c');
    const config = loadConfig({ DUELKIT_DATA_DIR: dataDir, JWT_SECRET: 's'.repeat(40) });
    expect(config.auth.jwtSecret).toBe('s'.repeat(40));
    expect(config.generatedSecrets).toEqual(['WALLET_MASTER_KEY', 'CHAIN_OPERATOR_KEY', 'TOURNAMENTS_SERVICE_TOKEN']);
    const stored = JSON.parse(readFileSync(join(dataDir, SECRETS_FILE), 'utf8')) as { walletMasterKey: string };
    expect(Buffer.from(stored.walletMasterKey.slice(2), 'hex').equals(config.auth.walletMasterKey)).toBe(true);
  });

  it('derive the service credential of a file written before it existed, the same on every start', () => {
    const dataDir = join(root, 'e');
    const written = loadEmbeddedSecrets(dataDir);
    const { serviceToken: _dropped, ...older } = written;
    writeFileSync(join(dataDir, SECRETS_FILE), JSON.stringify(older));
    const first = loadEmbeddedSecrets(dataDir);
    expect(first.serviceToken.length).toBeGreaterThanOrEqual(32);
    expect(first.serviceToken).not.toBe(written.jwtSecret);
    expect(loadEmbeddedSecrets(dataDir).serviceToken).toBe(first.serviceToken);
    expect(first.jwtSecret).toBe(written.jwtSecret);
  });

  it('refuse a file that is not theirs rather than replace it', () => {
    const dataDir = join(root, 'd');
    loadEmbeddedSecrets(dataDir);
    writeFileSync(join(dataDir, SECRETS_FILE), '{"jwtSecret":"short"}');
    expect(() => loadEmbeddedSecrets(dataDir)).toThrow(/not a Duelkit secrets file/);
  });
});
