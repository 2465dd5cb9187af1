/**
 * Print every open public market, page after page, without writing the paging loop.
 *
 *   DUELKIT_BUILDER_KEY=dk_… pnpm --filter @duelkit/examples list-markets
 */
import { DuelkitClient, isApiError } from '@duelkit/sdk';

const client = new DuelkitClient();

try {
  let count = 0;
  // Awaiting the call gives one page; iterating it walks every page (the next one is asked for
  // when the current one is used up).
  for await (const duel of client.duels.publicAll({ query: { status: 'open', limit: 50 } })) {
    count += 1;
    console.log(`${duel.duelId}  ${duel.status.padEnd(8)} ${duel.question}`);
  }
  console.log(`${count} open markets`);
} catch (err) {
  if (isApiError(err)) console.error(`${err.status} ${err.code}: ${err.message} (request ${err.requestId})`);
  else console.error(err);
  process.exit(1);
}
