/**
 * Sign in to Duelkit with a private-key wallet and print the user.
 *
 *   DUELKIT_BUILDER_KEY=dk_… pnpm --filter @duelkit/examples quickstart
 *
 * DUELKIT_PRIVATE_KEY (0x…) picks the wallet (a new one otherwise); DUELKIT_MARKETS_URL and
 * DUELKIT_TOURNAMENTS_URL default to the local server (http://localhost:3000 and :3001).
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DuelkitClient, isApiError } from '@duelkit/sdk';

if (!process.env['DUELKIT_BUILDER_KEY']) {
  console.error('Set DUELKIT_BUILDER_KEY to your builder key (the server logs a development key on first start).');
  process.exit(2);
}
const account = privateKeyToAccount(
  (process.env['DUELKIT_PRIVATE_KEY'] as `0x${string}` | undefined) ?? generatePrivateKey(),
);

// The builder key and both URLs come from DUELKIT_BUILDER_KEY, DUELKIT_MARKETS_URL and
// DUELKIT_TOURNAMENTS_URL (the URLs default to the local server).
const client = new DuelkitClient({ signer: account });

try {
  // Registers the wallet on first use (usernames: 3–20 letters, digits or _, starting with a letter).
  const session = await client.auth.signIn({ username: `user_${account.address.slice(2, 10).toLowerCase()}` });
  console.log(JSON.stringify({ wallet: account.address, user: session.user, expiresAt: session.expiresAt }, null, 2));
} catch (err) {
  if (isApiError(err)) console.error(`${err.status} ${err.code}: ${err.message} (request ${err.requestId})`);
  else console.error(err);
  process.exit(1);
}
