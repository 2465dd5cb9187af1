import { userInfo, tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAddress } from 'viem/accounts';
import type { ParsedEnv } from './env.schema.js';

/**
 * Accounts whose private keys are published (the default test accounts of hardhat and anvil):
 * anyone can sign for them, so production refuses them as the operator.
 */
const PUBLIC_TEST_ACCOUNTS = new Set(
  [
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
    '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
    '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  ].map((a) => a.toLowerCase()),
);

/**
 * What production requires, every missing piece at once: a production server never falls back
 * to an embedded database, an in-process chain, made-up sports data or a generated secret.
 */
export function productionProblems(e: ParsedEnv): string[] {
  const problems: string[] = [];
  const need = (name: keyof ParsedEnv, why: string) => {
    if (!e[name]) problems.push(`${name}: required in production (${why})`);
  };
  need('DATABASE_URL', 'otherwise an embedded database in memory');
  need('REDIS_URL', 'rate limits and caches shared by every instance');
  need('CHAIN_RPC_URL', 'otherwise an in-process test chain');
  need('CHAIN_OPERATOR_KEY', 'the account that deploys, mints and pays gas');
  need('JWT_SECRET', 'signs user and admin tokens');
  need('WALLET_MASTER_KEY', 'encrypts managed wallet keys');
  if (e.SERVE_HOSTS !== 'both') {
    need(
      'TOURNAMENTS_SERVICE_TOKEN',
      'the markets host authenticates to the tournaments host with it when the hosts run apart',
    );
  }
  if (e.SERVE_HOSTS === 'markets') {
    need('TOURNAMENTS_INTERNAL_URL', 'where this markets-only process reaches the tournaments host');
  }
  // With sportmonks, its token is checked in every mode.
  if (e.SPORTS_PROVIDER !== 'sportmonks') {
    problems.push('SPORTS_PROVIDER: must be sportmonks in production (fake serves made-up data)');
  }
  if (e.DUELKIT_DEV_BUILDER_KEY) {
    problems.push('DUELKIT_DEV_BUILDER_KEY: not used in production; create builder keys with keys:create');
  }
  if (e.CHAIN_OPERATOR_KEY && /^0x[0-9a-fA-F]{64}$/.test(e.CHAIN_OPERATOR_KEY)) {
    const address = privateKeyToAddress(e.CHAIN_OPERATOR_KEY as `0x${string}`).toLowerCase();
    if (PUBLIC_TEST_ACCOUNTS.has(address)) {
      problems.push('CHAIN_OPERATOR_KEY: a published test account key; anyone can sign with it');
    }
  }
  return problems;
}

/**
 * A directory only this user can read, for the operator credential when there is no data
 * directory: DUELKIT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/duelkit, else <tmp>/duelkit-<uid>.
 */
export function runtimeDir(e: ParsedEnv): string {
  if (e.DUELKIT_RUNTIME_DIR) return e.DUELKIT_RUNTIME_DIR;
  if (e.XDG_RUNTIME_DIR) return join(e.XDG_RUNTIME_DIR, 'duelkit');
  return join(tmpdir(), `duelkit-${userInfo().uid}`);
}
