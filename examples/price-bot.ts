/**
 * A price bot: follows a market's price on the builder event stream (`client.events.stream` with
 * the price channel) and, when the price of YES crosses a threshold, buys NO once and exits.
 *
 *   DUELKIT_BUILDER_KEY=dk_… DUELKIT_PRIVATE_KEY=0x… DUELKIT_DUEL_ID=0x… PRICE_THRESHOLD_BPS=5500 \
 *     pnpm --filter @duelkit/examples price-bot
 *
 * The wallet's managed account needs credits: on the embedded defaults run
 * `pnpm credits:grant --address <managed address> --units 500`.
 */
import { privateKeyToAccount } from 'viem/accounts';
import { DuelkitClient, isApiError, QuoteRejectedError } from '@duelkit/sdk';

const privateKey = process.env['DUELKIT_PRIVATE_KEY'] as `0x${string}` | undefined;
const duelId = process.env['DUELKIT_DUEL_ID'];
const threshold = Number(process.env['PRICE_THRESHOLD_BPS'] ?? '5500');
const stake = process.env['STAKE_UNITS'] ?? '5';
if (!process.env['DUELKIT_BUILDER_KEY'] || !privateKey || !duelId || !Number.isInteger(threshold)) {
  console.error(
    'Set DUELKIT_BUILDER_KEY, DUELKIT_PRIVATE_KEY (0x…), DUELKIT_DUEL_ID and PRICE_THRESHOLD_BPS (0-10000).',
  );
  process.exit(2);
}
const account = privateKeyToAccount(privateKey);
// The builder key and the URLs come from DUELKIT_BUILDER_KEY, DUELKIT_MARKETS_URL and DUELKIT_TOURNAMENTS_URL.
const client = new DuelkitClient({ signer: account });

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

try {
  await client.auth.signIn({ username: `bot_${account.address.slice(2, 10).toLowerCase()}` });
  // Where the price starts: the bot acts on a move from below the threshold to it or above.
  const duel = await client.duels.getById({ params: { duelId }, query: {} });
  let below = duel.yesPercentage * 100 < threshold;
  console.error(`watching ${duelId}: YES at ${duel.yesPercentage}%, threshold ${threshold / 100}%`);
  // Coalesced price updates (at most 2 a second per market) beside the market's confirmed trades.
  const updates = client.events.stream({
    types: ['bet.confirmed'],
    duelIds: [duelId],
    prices: true,
    signal: controller.signal,
  });
  for await (const update of updates) {
    if (update.type !== 'price') continue;
    const { yesBps } = update.data;
    if (yesBps < threshold) {
      below = true;
      continue;
    }
    if (!below) continue;
    // Crossed: bet against the move, once, under one Idempotency-Key (quote and bet in one call).
    console.error(`YES crossed to ${yesBps / 100}%: buying NO with ${stake} units`);
    const { bet, wait } = await client.trade.buy({ duelId, option: 'NO', amount: stake, maxSlippageBps: 200 });
    const position = await wait({ timeoutMs: 60_000 });
    console.log(JSON.stringify({ duelId, yesBps, txHash: bet.txHash, noShares: position.shares }));
    break; // leaving the loop closes the stream
  }
} catch (err) {
  if (err instanceof QuoteRejectedError) console.error(`Not quoted: ${err.code}`);
  else if (isApiError(err)) console.error(`${err.status} ${err.code}: ${err.message} (request ${err.requestId})`);
  else console.error(err);
  process.exit(1);
}
