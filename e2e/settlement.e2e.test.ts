import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, DuelkitClient } from '@duelkit/sdk';
import { bet, chainNow, type ServerProcess, signedInAdmin, startServer, until } from './support.js';

const UNIT = 10n ** 18n;
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({
    DUEL_PUBLIC_LEAD_SECONDS: '0',
    // Longer than any run of a test takes: the server's time also moves with the wall clock, and
    // the tests file contests inside the period; they pass its end by moving the clock.
    DUEL_CONTEST_PERIOD_SECONDS: '3600',
    INDEXER_INTERVAL_MS: '200',
    JOBS_ENABLED: 'true',
    // The suite polls markets and statuses closely; the default 120/min would throttle it.
    RATE_LIMIT_TEAM_PER_MIN: '1000',
  });
}, 120_000);
afterAll(() => server?.stop());

function newClient() {
  return new DuelkitClient({
    marketsUrl: server.marketsUrl,
    tournamentsUrl: server.tournamentsUrl,
    builderApiKey: server.builderKey,
    signer: privateKeyToAccount(generatePrivateKey()),
    maxRetries: 0,
  });
}

async function signedIn(username: string) {
  const client = newClient();
  const session = await client.auth.signIn({ username });
  const address = session.user?.address as `0x${string}`;
  await server.grantCredits(address, 1_000n * UNIT);
  return { client, address };
}

/** Deadlines are passed by moving the server's and the chain's time, never by waiting for them. */
const passDeadline = (t: number) => server.advanceTo(t);

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

async function market(client: DuelkitClient, startInMs: number, endInMs: number) {
  const now = await chainNow(server);
  const startTime = now + startInMs;
  const endTime = now + endInMs;
  const created = await client.duels.create({
    body: {
      question: 'Will the settlement suite pass?',
      category: 'Football',
      startTime: new Date(startTime).toISOString(),
      endTime: new Date(endTime).toISOString(),
      collateralStack: 'credits',
    },
  });
  await until(
    () => client.duels.getById({ params: { duelId: created.duelId }, query: {} }),
    (d) => d.chainState === 'confirmed',
  );
  return { duelId: created.duelId, endTime };
}

/** Traders the indexer has counted on the market (public read). */
async function participants(client: DuelkitClient, duelId: string) {
  return (await client.duels.getById({ params: { duelId }, query: {} })).uniqueParticipants;
}

const balance = (address: `0x${string}`) => server.balance(address);

describe('resolution, contests and payouts through the SDK', () => {
  it('resolves after the end, takes contests in the period, finalizes and pays winners exactly what they are owed', async () => {
    const { client: alice, address: aliceAddress } = await signedIn('st_alice');
    const { client: bob, address: bobAddress } = await signedIn('st_bob');
    const { client: carol, address: carolAddress } = await signedIn('st_carol');
    const { client: dave } = await signedIn('st_dave');
    const { duelId, endTime } = await market(alice, 3_000, 600_000);
    await bet(bob, duelId, 0, 20n);
    await bet(carol, duelId, 1, 10n);
    await until(
      () => participants(alice, duelId),
      (n) => n === 2,
    );

    const early = await failure(alice.resolution.resolve({ body: { duelIds: [{ duelId, winningOptionIndex: 0 }] } }));
    expect(early.status).toBe(409);
    expect(early.code).toBe('INVALID_STATE');
    expect(early.details?.status).toBe('open');
    expect(early.message).toMatch(/open/);
    const notCreator = await failure(
      bob.resolution.resolve({ body: { duelIds: [{ duelId, winningOptionIndex: 0 }] } }),
    );
    expect(notCreator.status).toBe(403);
    const tooEarly = await failure(
      carol.resolution.submitContest({ body: { duelId, reason: 'The match has not even been played yet' } }),
    );
    expect(tooEarly.status).toBe(409);

    await passDeadline(endTime + 1_000);
    const resolved = await alice.resolution.resolve({ body: { duelIds: [{ duelId, winningOptionIndex: 0 }] } });
    expect(resolved.results).toEqual([
      { duelId, success: true, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), chainState: 'pending' },
    ]);
    const inContest = await until(
      () => alice.duels.getById({ params: { duelId }, query: {} }),
      (d) => d.status === 'pending_contest',
    );
    expect(inContest.winningOptionIndex).toBe(0);

    const beforePeriodEnd = await failure(alice.resolution.finalizeContest({ body: { duelId } }));
    expect(beforePeriodEnd.status).toBe(409);
    expect(beforePeriodEnd.details?.contestEndsAt).toBeTruthy();
    const outsider = await failure(
      dave.resolution.submitContest({ body: { duelId, reason: 'I never traded but I disagree' } }),
    );
    expect(outsider.status).toBe(403);
    expect(outsider.code).toBe('NOT_PARTICIPANT');

    const contest = await carol.resolution.submitContest({
      body: { duelId, reason: 'The official result was NO after the review', proposedOptionIndex: 1 },
    });
    expect(contest.userAddress).toBe(carolAddress);
    const again = await failure(
      carol.resolution.submitContest({ body: { duelId, reason: 'Filing a second time to be sure' } }),
    );
    expect(again.code).toBe('CONTEST_EXISTS');
    const publicList = await newClient().resolution.contests({ params: { duelId }, query: {} });
    expect(publicList.data).toHaveLength(1);
    expect(publicList.data[0]).not.toHaveProperty('userAddress');
    expect((await carol.resolution.myContest({ params: { duelId } })).contest?.id).toBe(contest.id);
    expect((await alice.resolution.creatorContests({ params: { duelId }, query: {} })).data[0]?.userAddress).toBe(
      carolAddress,
    );
    expect((await failure(bob.resolution.creatorContests({ params: { duelId }, query: {} }))).status).toBe(403);

    await passDeadline(Date.parse(String(beforePeriodEnd.details?.contestEndsAt)) + 1_000);
    const late = await failure(
      bob.resolution.submitContest({ body: { duelId, reason: 'Too late, but still filing' } }),
    );
    expect(late.status).toBe(409);
    // What settlement on option 0 owes: Bob's winning shares, and Alice (the creator) the pool's balance of it.
    const owedBob = await server.sharesOf(duelId, bobAddress, 0);
    const [owedAlice = 0n] = await server.poolBalances(duelId);
    expect(owedBob).toBeGreaterThan(20n * UNIT);
    const [bobBefore, aliceBefore, carolBefore] = await Promise.all([
      balance(bobAddress),
      balance(aliceAddress),
      balance(carolAddress),
    ]);
    const finalized = await alice.resolution.finalizeContest({ body: { duelId } });
    expect(finalized).toMatchObject({ duelId, winningOptionIndex: 0, corrected: false, contests: 1 });
    await until(
      () => alice.duels.getById({ params: { duelId }, query: {} }),
      (d) => d.status === 'settled',
    );

    // Settlement pays its winners by itself (a durable job per holder): no admin call.
    await until(
      () => balance(aliceAddress),
      (b) => b === aliceBefore + owedAlice,
      60_000,
    );
    expect(await balance(bobAddress)).toBe(bobBefore + owedBob);
    expect(await balance(carolAddress)).toBe(carolBefore);
    expect(await server.paid(duelId, bobAddress)).toBe(true);

    const ops = await signedInAdmin(server, 'settle_ops_discard');
    const status = await until(
      () => ops.adminMarket.discardStatus({ params: { duelId } }),
      (s) => s.complete && BigInt(s.totalPaid) === owedBob + owedAlice,
    );
    expect(status).toMatchObject({ kind: 'payout', participants: 2, paid: 2, failed: 0 });
    const distributed = await ops.adminMarket.autoDistribute({ body: { duelIds: [duelId] } });
    expect(distributed.duels[0]).toMatchObject({ duelId, enqueued: true, participants: 2, queued: 0 });

    // A second run pays nobody twice.
    await ops.adminMarket.autoDistribute({ body: { duelIds: [duelId] } });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await balance(bobAddress)).toBe(bobBefore + owedBob);

    const contests = await ops.adminMarket.duelContests({ params: { duelId }, query: {} });
    expect(contests.data[0]?.userAddress).toBe(carolAddress);
    const people = await ops.adminMarket.duelParticipants({ params: { duelId }, query: {} });
    expect(people.data.map((p) => p.userAddress).sort()).toEqual([aliceAddress, bobAddress, carolAddress].sort());
    expect(people.data.find((p) => p.userAddress === bobAddress)?.distribution?.status).toBe('paid');
  }, 120_000);

  it('discards a market with a reason and refunds every participant once, the creator last', async () => {
    const { client: alice, address: aliceAddress } = await signedIn('st_erin');
    const { client: bob, address: bobAddress } = await signedIn('st_frank');
    const { duelId } = await market(alice, 60_000, 120_000);
    await bet(bob, duelId, 0, 15n);
    await until(
      () => participants(alice, duelId),
      (n) => n === 1,
    );
    const [bobBefore, aliceBefore] = await Promise.all([balance(bobAddress), balance(aliceAddress)]);
    const ops = await signedInAdmin(server, 'settle_ops_payout');
    const notAdmin = await failure(
      alice.adminMarket.discard({ body: { duelIds: [duelId], reason: 'not allowed for users' } }),
    );
    expect(notAdmin.status).toBe(401);

    const discarded = await ops.adminMarket.discard({ body: { duelIds: [duelId], reason: 'duplicate market' } });
    expect(discarded.results[0]).toMatchObject({ duelId, success: true });
    const status = await until(
      () => ops.adminMarket.discardStatus({ params: { duelId } }),
      (s) => s.complete,
    );
    expect(status).toMatchObject({ kind: 'refund', participants: 2, paid: 2, duelStatus: 'cancelled' });
    expect(status.cancellation).toMatchObject({ source: 'discard', reason: 'duplicate market' });
    expect(await balance(bobAddress)).toBe(bobBefore + 15n * UNIT);
    expect(await balance(aliceAddress)).toBe(aliceBefore + 100n * UNIT);
    const again = await failure(ops.adminMarket.discard({ body: { duelIds: [duelId], reason: 'twice' } }));
    expect(again.status).toBe(409);
    expect(again.details?.status).toBe('cancelled');

    const cancelled = await ops.adminMarket.cancelled({ query: {} });
    expect(cancelled.data.find((c) => c.duelId === duelId)?.refunds).toEqual({
      participants: 2,
      paid: 2,
      pending: 0,
      failed: 0,
    });
    const timings = await ops.adminMarket.duration({ body: { contestPeriodSeconds: 5 } });
    expect(timings).toMatchObject({ contestPeriodSeconds: 5, publicLeadSeconds: 0 });
    expect(await ops.adminMarket.pendingDuelsCount()).toMatchObject({ awaitingResolution: expect.any(Number) });
  }, 90_000);

  it('lets an admin settle a contested market with a corrected outcome, once the period is over', async () => {
    const { client: alice } = await signedIn('st_gina');
    const { client: bob } = await signedIn('st_hank');
    const { client: carol } = await signedIn('st_ivy');
    const ops = await signedInAdmin(server, 'settle_ops_contest');
    // The previous test left a 5 s period: the contest below is filed inside the period however slowly
    // the steps before it run (see DUEL_CONTEST_PERIOD_SECONDS).
    await ops.adminMarket.duration({ body: { contestPeriodSeconds: 3_600 } });
    const { duelId, endTime } = await market(alice, 3_000, 600_000);
    await bet(bob, duelId, 0, 10n);
    await bet(carol, duelId, 1, 10n);
    await passDeadline(endTime + 1_000);
    await alice.resolution.resolve({ body: { duelIds: [{ duelId, winningOptionIndex: 0 }] } });
    await until(
      () => alice.duels.getById({ params: { duelId }, query: {} }),
      (d) => d.status === 'pending_contest',
    );
    await carol.resolution.submitContest({
      body: { duelId, reason: 'The result was reversed on review', proposedOptionIndex: 1 },
    });

    const early = await failure(ops.adminMarket.finalizeContest({ body: { duelId, winningOptionIndex: 1 } }));
    expect([early.status, early.code]).toEqual([409, 'INVALID_STATE']);
    const asUser = await failure(alice.adminMarket.finalizeContest({ body: { duelId } }));
    expect(asUser.status).toBe(401);

    await passDeadline(Date.parse(String(early.details?.contestEndsAt)) + 1_000);
    const finalized = await ops.adminMarket.finalizeContest({ body: { duelId, winningOptionIndex: 1 } });
    expect(finalized).toMatchObject({
      duelId,
      winningOptionIndex: 1,
      resolvedOptionIndex: 0,
      corrected: true,
      contests: 1,
      chainState: 'pending',
    });
    const settled = await until(
      () => alice.duels.getById({ params: { duelId }, query: {} }),
      (d) => d.status === 'settled',
    );
    expect(settled.winningOptionIndex).toBe(1);
    const twice = await failure(ops.adminMarket.finalizeContest({ body: { duelId } }));
    expect(twice.status).toBe(409);
  }, 90_000);

  it('cancels markets that missed their bootstrap threshold: a dry run lists them, a run cancels them', async () => {
    const { client: alice } = await signedIn('st_jane');
    const { duelId } = await market(alice, 2_000, 60_000);
    const ops = await signedInAdmin(server, 'settle_ops_expired');
    const asUser = await failure(alice.adminMarket.cancelExpired({ body: { dryRun: true } }));
    expect(asUser.status).toBe(401);

    // Nobody but the creator traded before the start: below the two participants required.
    const dry = await until(
      () => ops.adminMarket.cancelExpired({ body: { dryRun: true } }),
      (r) => r.results.some((x) => x.duelId === duelId),
    );
    expect(dry).toMatchObject({ batchId: null, dryRun: true });
    expect(dry.results.find((x) => x.duelId === duelId)).toEqual({
      duelId,
      reason: 'bootstrap_threshold',
      success: true,
      txHash: null,
    });
    expect((await alice.duels.getById({ params: { duelId }, query: {} })).status).toBe('open');

    const run = await ops.adminMarket.cancelExpired({ body: {} });
    expect(run.dryRun).toBe(false);
    expect(run.batchId).toEqual(expect.any(String));
    expect(run.results.find((x) => x.duelId === duelId)).toMatchObject({
      reason: 'bootstrap_threshold',
      success: true,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    await until(
      () => alice.duels.getById({ params: { duelId }, query: {} }),
      (d) => d.status === 'cancelled',
    );
    const after = await ops.adminMarket.cancelExpired({ body: { dryRun: true } });
    expect(after.results.some((x) => x.duelId === duelId)).toBe(false);
  }, 90_000);
});
