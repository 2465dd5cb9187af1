import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViemChainAdapter } from '../adapters/chain/viem-chain.adapter.js';
import { startTestServer, type TestServer } from '../../test/support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('pnpm credits:grant', () => {
  it('mints credits on the running server’s embedded chain', async () => {
    const user = privateKeyToAccount(generatePrivateKey()).address;
    const rpc = (server.container.chain as ViemChainAdapter).embeddedRpcUrl as string;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=duelkit-source',
        'src/cli/credits-grant.ts',
        '--address',
        user,
        '--units',
        '250',
        '--rpc',
        rpc,
      ],
      { cwd: fileURLToPath(new URL('../../', import.meta.url)) },
    );
    expect(stdout).toContain('minted 250000000000000000000 base units of credits');
    expect(await server.container.chain.collateralBalance('credits', user)).toBe(250n * 10n ** 18n);
  }, 60_000);
});
