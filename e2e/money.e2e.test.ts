import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@duelkit/sdk';
import { bet, chainNow, type ServerProcess, signedInClient, startServer, UNIT, until } from './support.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({
    DUEL_PUBLIC_LEAD_SECONDS: '0',
    DUEL_CONTEST_PERIOD_SECONDS: '0',
    INDEXER_INTERVAL_MS: '200',
    JOBS_ENABLED: 'true',
    WITHDRAW_DAILY_LIMIT_CREDITS: (50n * UNIT).toString(),
    // The per-key limit is not under test here; polling for confirmations on a slow machine can pass
    // the default 120 requests a minute (server/src/http/rate-limit.int.test.ts covers the limits).
    RATE_LIMIT_TEAM_PER_MIN: '100000',
  });
}, 120_000);
afterAll(() => server?.stop());

const balance = (a: `0x${string}`) => server.balance(a);

describe('money through the SDK', () => {
  it('bets, settles, claims winnings and creator fees once, and withdraws within the daily limit', async () => {
    const { client: alice, address: aliceAddress } = await signedInClient(server, 'mn_alice');
    const { client: bob, address: bobAddress } = await signedInClient(server, 'mn_bob');
    const { client: carol } = await signedInClient(server, 'mn_carol');
    const now = await chainNow(server);
    const endTime = now + 600_000;
    const { duelId } = await alice.duels.create({
      body: {
        question: 'Will the money suite pass?',
        category: 'Football',
        startTime: new Date(now + 1_000).toISOString(),
        endTime: new Date(endTime).toISOString(),
        collateralStack: 'credits',
      },
    });
    await until(
      () => alice.duels.getById({ params: { duelId }, query: {} }),
      (d) => d.chainState === 'confirmed',
    );
    await bet(bob, duelId, 0, 20n);
    await bet(carol, duelId, 1, 10n);
    const early = await bob.money.claimWinnings({ body: { duelId } }).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(ApiError);
    expect((early as ApiError).code).toBe('INVALID_STATE');

    await server.advanceTo(endTime + 1_000);
    await until(
      async () => {
        const d = await alice.duels.getById({ params: { duelId }, query: {} });
        return d.status;
      },
      (s) => s === 'pending',
    );
    const bobBefore = await balance(bobAddress);
    const shares = await server.sharesOf(duelId, bobAddress, 0);
    await alice.resolution.resolve({ body: { duelIds: [{ duelId, winningOptionIndex: 0 }] } });
    await until(
      () => alice.duels.getById({ params: { duelId }, query: {} }),
      (d) => d.status === 'settled',
    );

    // The winner pulls the payout; the settlement job may have sent it first: either way, once.
    const claimed = await bob.money.claimWinnings({ body: { duelId } });
    expect(['submitted', 'already_paid']).toContain(claimed.claims[0]?.status);
    await until(
      () => balance(bobAddress),
      (b) => b === bobBefore + shares,
    );
    const again = await bob.money.claimWinnings({ body: { duelId } });
    expect(again.claims[0]?.status).toMatch(/submitted|already_paid/);
    expect(await balance(bobAddress)).toBe(bobBefore + shares);

    const fees = await alice.money.creatorFees({ query: { collateralStack: 'credits', collateralMode: 'credits' } });
    const row = fees.data.find((m) => m.duelId === duelId);
    expect(row).toMatchObject({ status: 'claimable', accrued: ((30n * UNIT) / 100n).toString() });
    const paid = await alice.money.claimFees({ body: { collateralStack: 'credits', duelId } });
    expect(paid.claims[0]).toMatchObject({ status: 'submitted', amount: ((30n * UNIT) / 100n).toString() });

    const to = privateKeyToAccount(generatePrivateKey()).address;
    const sent = await alice.withdrawals.withdraw({
      body: { collateralStack: 'credits', amount: (40n * UNIT).toString(), toAddress: to },
    });
    expect(sent.dailyLimit.remaining).toBe((10n * UNIT).toString());
    const over = await alice.withdrawals
      .withdraw({ body: { collateralStack: 'credits', amount: (20n * UNIT).toString(), toAddress: to } })
      .catch((e: unknown) => e);
    expect((over as ApiError).code).toBe('DAILY_LIMIT_EXCEEDED');
    const limit = await alice.withdrawals.dailyLimit({
      query: { user: aliceAddress, collateralStack: 'credits', collateralMode: 'credits' },
    });
    expect(limit.used).toBe((40n * UNIT).toString());
  }, 120_000);
});
