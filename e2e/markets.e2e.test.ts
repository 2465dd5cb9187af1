import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuelkitClient } from '@duelkit/sdk';
import { type ServerProcess, signedInClient, startServer, until } from './support.js';

const UNIT = 10n ** 18n;
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ DUEL_PUBLIC_LEAD_SECONDS: '60', INDEXER_INTERVAL_MS: '200', JOBS_ENABLED: 'true' });
}, 120_000);
afterAll(() => server?.stop());

const signedIn = (username: string) => signedInClient(server, username);

/** `client`'s trades on `duelId` from its portfolio history (buys and sells, newest first). */
const tradesOn = async (client: DuelkitClient, address: string, duelId: string) =>
  (await client.portfolio.historyTable({ body: { userAddress: address, collateralStack: 'credits', limit: 100 } })).data
    .filter((t) => t.duelId === duelId)
    .map((t) => t.side);

describe('markets through the SDK', () => {
  it('creates a market, bets with an idempotency key, sells, and sees every step after indexing', async () => {
    const { client, address } = await signedIn('mk_alice');
    const start = new Date(Date.now() + 5 * 60_000).toISOString();
    const end = new Date(Date.now() + 60 * 60_000).toISOString();
    const created = await client.duels.create({
      body: {
        question: 'Will the e2e suite pass?',
        category: 'Football',
        startTime: start,
        endTime: end,
        collateralStack: 'credits',
      },
    });
    expect(created.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const duel = await until(
      () => client.duels.getById({ params: { duelId: created.duelId }, query: {} }),
      (d) => d.chainState === 'confirmed',
    );
    expect(duel.creatorAddress).toBe(address);
    expect(duel.options).toEqual(['YES', 'NO']);
    expect(duel.yesPercentage).toBe(50);

    const { client: bob, address: bobAddress } = await signedIn('mk_bob');
    const quote = await bob.bets.estimateBuy({
      body: { duelId: created.duelId, optionIndex: 0, betAmountUsdc: (20n * UNIT).toString(), slippageBps: 100 },
    });
    if (!quote.success) throw new Error(quote.message);
    const { estimate } = quote;
    expect(BigInt(estimate.minSharesOut)).toBeLessThanOrEqual(BigInt(estimate.sharesOut));
    const bet = {
      estimate,
      duelId: created.duelId,
      duelType: 'PREDICTION' as const,
      bet: 'YES',
      optionIndex: 0,
      betAmount: estimate.amountIn,
      betAmountUsdc: estimate.amountIn,
      slippageBps: 100,
      tokenDecimals: 18,
    };
    const first = await bob.bets.create.withResponse({ body: bet }, { idempotencyKey: 'e2e-bet-1' });
    const replay = await bob.bets.create.withResponse({ body: bet }, { idempotencyKey: 'e2e-bet-1' });
    expect(replay.data).toEqual(first.data);
    expect(replay.meta.replayed).toBe(true);
    expect(first.data.expectedSharesOut).toBe(estimate.sharesOut);

    const shares = await until(
      () => bob.bets.userShares({ params: { duelId: created.duelId, address: bobAddress } }),
      (s) => s.shares[0]?.shares !== '0',
    );
    expect(shares.shares[0]?.shares).toBe(estimate.sharesOut);
    expect(await tradesOn(bob, bobAddress, created.duelId)).toEqual(['buy']);

    const half = (BigInt(estimate.sharesOut) / 2n).toString();
    const sellQuote = await bob.bets.estimateSell({
      body: { duelId: created.duelId, optionIndex: 0, shares: half, slippageBps: 100 },
    });
    if (!sellQuote.success) throw new Error(sellQuote.message);
    const sold = await bob.bets.sell({
      body: { estimate: sellQuote.estimate, duelId: created.duelId, optionIndex: 0, shares: half, slippageBps: 100 },
    });
    expect(sold.expectedAmountOut).toBe(sellQuote.estimate.amountOut);
    const after = await until(
      () => bob.bets.userShares({ params: { duelId: created.duelId, address: bobAddress } }),
      (s) => s.shares[0]?.shares !== estimate.sharesOut,
    );
    expect(BigInt(after.shares[0]?.shares ?? '0')).toBe(
      BigInt(estimate.sharesOut) - BigInt(sellQuote.estimate.sharesIn),
    );
    expect(
      await until(
        () => tradesOn(bob, bobAddress, created.duelId),
        (t) => t.length === 2,
      ),
    ).toEqual(['sell', 'buy']);

    const detail = await client.duels.getById({
      params: { duelId: created.duelId },
      query: { userAddress: bobAddress },
    });
    expect(detail.userParticipated).toBe(true);
    expect(detail.yesPercentage).toBeGreaterThan(50);
    expect(BigInt(detail.totalVolume)).toBe(20n * UNIT + BigInt(sellQuote.estimate.amountOut));

    // The portfolio and the leaderboard reflect the trades.
    const portfolio = await bob.portfolio.positions({ params: { address: bobAddress }, query: {} });
    const held = portfolio.positions.find((p) => p.duelId === created.duelId);
    expect(held?.options.map((o) => o.shares)).toEqual([after.shares[0]?.shares]);
    const traders = await until(
      () => bob.leaderboard.traders({ query: { limit: 100 } }),
      (t) => t.data.some((row) => row.address === bobAddress),
      10_000,
    );
    const row = traders.data.find((r) => r.address === bobAddress);
    expect(row?.trades).toBe(2);
    expect(BigInt(row?.volume ?? '0')).toBe(20n * UNIT + BigInt(sellQuote.estimate.amountOut));
  }, 90_000);
});

describe('examples/trade.ts', () => {
  it('creates a market and places a bet against a running server', async () => {
    const key = generatePrivateKey();
    const client = new DuelkitClient({
      marketsUrl: server.marketsUrl,
      tournamentsUrl: server.tournamentsUrl,
      builderApiKey: server.builderKey,
      signer: privateKeyToAccount(key),
    });
    const session = await client.auth.signIn({ username: 'example_trader' });
    await server.grantCredits(session.user?.address as `0x${string}`, 500n * UNIT);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--conditions=duelkit-source', 'examples/trade.ts'],
      {
        cwd: fileURLToPath(new URL('../', import.meta.url)),
        env: {
          ...process.env,
          DUELKIT_BUILDER_KEY: server.builderKey,
          DUELKIT_PRIVATE_KEY: key,
          DUELKIT_MARKETS_URL: server.marketsUrl,
          DUELKIT_TOURNAMENTS_URL: server.tournamentsUrl,
        },
      },
    );
    const printed = JSON.parse(stdout) as { duelId: string; yesShares: string };
    expect(BigInt(printed.yesShares)).toBeGreaterThan(0n);
    expect((await client.duels.getById({ params: { duelId: printed.duelId }, query: {} })).uniqueParticipants).toBe(1);
  }, 90_000);
});
