import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ViemChainAdapter } from '../server/src/adapters/chain/viem-chain.adapter.js';
import { UNIT } from '../server/test/support/market-fixtures.js';
import type { TestServer } from '../server/test/support/test-server.js';
import { DuelkitClient } from '@duelkit/sdk';

export { until, UNIT } from '../server/test/support/market-fixtures.js';

/**
 * Now on the server's embedded chain, in ms. Automined blocks take the wall clock but never repeat
 * a second, so a burst of transactions runs the chain's clock ahead of ours: market times are set
 * from it.
 */
export async function chainNow(server: TestServer): Promise<number> {
  const url = (server.container.chain as ViemChainAdapter).embeddedRpcUrl;
  const block = await createPublicClient({ transport: http(url) }).getBlock();
  return Math.max(Date.now(), Number(block.timestamp) * 1000);
}

/** Quote, then place, `units` of credits on `optionIndex` with 1 % slippage. */
export async function bet(client: DuelkitClient, duelId: string, optionIndex: number, units: bigint): Promise<void> {
  const quote = await client.bets.estimateBuy({
    body: { duelId, optionIndex, betAmountUsdc: (units * UNIT).toString(), slippageBps: 100 },
  });
  if (!quote.success) throw new Error(quote.message);
  await client.bets.create({
    body: {
      estimate: quote.estimate,
      duelId,
      duelType: 'PREDICTION',
      bet: optionIndex === 0 ? 'YES' : 'NO',
      optionIndex,
      betAmount: quote.estimate.amountIn,
      betAmountUsdc: quote.estimate.amountIn,
      slippageBps: 100,
      tokenDecimals: 18,
    },
  });
}

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

/** A client signed in as a new admin (no second factor), with its admin token set. */
export async function signedInAdmin(server: TestServer, username: string): Promise<DuelkitClient> {
  const email = `${username}-${Date.now()}@example.com`;
  const password = `${username} admin password`;
  await server.container.identity.admins.create(email, password);
  const { client } = await signedInClient(server, username);
  const login = await client.adminAuth.login({ body: { email, password } });
  if (login.status !== 'authenticated') throw new Error('admin 2FA unexpectedly on');
  return client.withOptions({ adminToken: login.token });
}
