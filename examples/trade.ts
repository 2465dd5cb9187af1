/**
 * Create a market, then buy into it with `client.trade.buy` (quote and bet under one idempotency
 * key) and wait until the chain has the bet.
 *
 *   DUELKIT_BUILDER_KEY=dk_… DUELKIT_PRIVATE_KEY=0x… pnpm --filter @duelkit/examples trade
 *
 * The wallet's managed account needs credits: on the embedded defaults run
 * `pnpm credits:grant --address <managed address> --units 500` (the address is printed on failure).
 */
import { privateKeyToAccount } from 'viem/accounts';
import { DuelkitClient, isApiError, QuoteRejectedError } from '@duelkit/sdk';

const privateKey = process.env['DUELKIT_PRIVATE_KEY'] as `0x${string}` | undefined;
if (!process.env['DUELKIT_BUILDER_KEY'] || !privateKey) {
  console.error('Set DUELKIT_BUILDER_KEY and DUELKIT_PRIVATE_KEY (0x…).');
  process.exit(2);
}
const account = privateKeyToAccount(privateKey);
// The builder key and the URLs come from DUELKIT_BUILDER_KEY, DUELKIT_MARKETS_URL and DUELKIT_TOURNAMENTS_URL.
const client = new DuelkitClient({ signer: account });

/** Writes are accepted, not final: poll the read until the chain caught up. */
async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 60; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error('the chain did not confirm in time');
}

let managed: string | undefined;
try {
  const session = await client.auth.signIn({ username: `trader_${account.address.slice(2, 10).toLowerCase()}` });
  managed = session.user?.address;
  const { duelId } = await client.duels.create({
    body: {
      question: 'Will it rain in Lisbon tomorrow?',
      category: 'Weather',
      startTime: new Date(Date.now() + 40 * 60_000).toISOString(),
      endTime: new Date(Date.now() + 24 * 3_600_000).toISOString(),
      collateralStack: 'credits',
    },
  });
  await poll(
    () => client.duels.getById({ params: { duelId }, query: {} }),
    (d) => d.chainState !== 'pending',
  );

  // Quote, then place from that quote, under one Idempotency-Key: one call, at most one bet.
  // The stake is paid by the managed wallet (session.user.address), not by the signer.
  const { bet, wait } = await client.trade.buy({ duelId, option: 'YES', amount: '10', maxSlippageBps: 100 });
  // Accepted, not final: wait (bounded) until the position is indexed.
  const position = await wait({ timeoutMs: 60_000 });
  console.log(JSON.stringify({ duelId, txHash: bet.txHash, yesShares: position.shares }, null, 2));
} catch (err) {
  if (err instanceof QuoteRejectedError) console.error(`Not quoted: ${err.code}`);
  else if (isApiError(err)) {
    console.error(`${err.status} ${err.code}: ${err.message} (request ${err.requestId})`);
    if (err.code === 'INSUFFICIENT_CREDITS')
      console.error(`Fund ${managed}: pnpm credits:grant --address ${managed} --units 500`);
  } else console.error(err);
  process.exit(1);
}
