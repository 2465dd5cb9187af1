import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { TestServer } from '../server/test/support/test-server.js';
import { DuelkitClient } from '@duelkit/sdk';

export { until, UNIT } from '../server/test/support/market-fixtures.js';

/** A client signed in as a new wallet (registered under `username`), its managed wallet funded. */
export async function signedInClient(server: TestServer, username: string, credits = 1_000n * 10n ** 18n) {
  const client = new DuelkitClient({
    marketsUrl: server.marketsUrl,
    tournamentsUrl: server.tournamentsUrl,
    builderApiKey: server.builderKey,
    signer: privateKeyToAccount(generatePrivateKey()),
    maxRetries: 0,
  });
  const session = await client.auth.signIn({ username });
  const address = session.user?.address as `0x${string}`;
  if (credits > 0n) await server.container.chain.mint('credits', address, credits);
  return { client, address, userId: session.user?.id as string };
}
