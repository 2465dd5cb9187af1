import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, DuelkitClient } from '@duelkit/sdk';
import { type ServerProcess, signedInClient, startServer, until } from './support.js';

const UNIT = 10n ** 18n;
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ DUEL_PRIVATE_LEAD_SECONDS: '0', INDEXER_INTERVAL_MS: '200', JOBS_ENABLED: 'true' });
}, 120_000);
afterAll(() => server?.stop());

const signedIn = (username: string) => signedInClient(server, username);

/** The error code a call fails with (the test fails when it succeeds). */
async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.code}`;
    throw err;
  }
  throw new Error('expected the call to fail');
}

type Client = DuelkitClient;
const quote = (client: Client, duelId: string) =>
  client.bets.estimateBuy({
    body: { duelId, optionIndex: 0, betAmountUsdc: (10n * UNIT).toString(), slippageBps: 100 },
  });

const times = () => ({
  startTime: new Date(Date.now() + 60_000).toISOString(),
  endTime: new Date(Date.now() + 3_600_000).toISOString(),
});

describe('private markets through the SDK', () => {
  it('hides a private duel from outsiders until they join with a valid code; bad codes fail with their reason', async () => {
    const alice = await signedIn('pm_alice');
    const bob = await signedIn('pm_bob');
    const carol = await signedIn('pm_carol');
    const { duelId } = await alice.client.duels.create({
      body: { question: 'Private: will Bob join?', category: 'Friends', isPrivate: true, ...times() },
    });
    // The creator always sees and trades their own private market.
    const own = await until(
      () => quote(alice.client, duelId),
      (q) => q.success,
    );
    expect(own.success).toBe(true);
    expect((await alice.client.duels.participants({ params: { duelId } })).duelId).toBe(duelId);

    // Outsiders: absent from public lists, 403 on detail and on quotes.
    const list = await bob.client.duels.publicAll({ query: { limit: 100 } });
    expect(list.data.map((d) => d.duelId)).not.toContain(duelId);
    expect(await codeOf(bob.client.duels.getById({ params: { duelId }, query: {} }))).toBe('403 PRIVATE_MARKET');
    expect(await codeOf(quote(bob.client, duelId))).toBe('403 PRIVATE_MARKET');
    expect(await codeOf(bob.client.duels.participants({ params: { duelId } }))).toBe('403 PRIVATE_MARKET');

    // A valid code makes it visible and tradeable.
    const invite = await alice.client.invitations.create({ body: { duelId, maxUses: 1 } });
    const code = invite.inviteCode as string;
    expect(await bob.client.invitations.validateInvite({ body: { inviteCode: code } })).toMatchObject({
      valid: true,
      duelId,
      remainingUses: 1,
    });
    const joined = await bob.client.invitations.userJoin({ body: { inviteCode: code } });
    // Accepted is not final: the answer says where the join stood when it was given (usually pending).
    expect(joined).toMatchObject({ duelId, userAddress: bob.address, via: 'invite' });
    expect(['pending', 'confirmed']).toContain(joined.chainState);
    const bobQuote = await quote(bob.client, duelId);
    if (!bobQuote.success) throw new Error(bobQuote.message);
    const bet = await bob.client.bets.create({
      body: {
        estimate: bobQuote.estimate,
        duelId,
        duelType: 'PREDICTION',
        bet: 'YES',
        optionIndex: 0,
        betAmount: bobQuote.estimate.amountIn,
        betAmountUsdc: bobQuote.estimate.amountIn,
        slippageBps: 100,
        tokenDecimals: 18,
      },
    });
    expect(bet.expectedSharesOut).toBe(bobQuote.estimate.sharesOut);
    const seen = await until(
      () => bob.client.duels.participants({ params: { duelId } }),
      (p) => p.participants.length === 1,
    );
    expect(seen.participants[0]?.userAddress).toBe(bob.address);
    expect(await bob.client.invitations.membership({ params: { duelId, userAddress: bob.address } })).toMatchObject({
      isMember: true,
    });
    const memberships = await until(
      () => bob.client.invitations.memberships({ params: { userAddress: bob.address }, query: {} }),
      (m) => m.data[0]?.chainState === 'confirmed',
    );
    expect(memberships.data.map((m) => m.duelId)).toEqual([duelId]);

    // Exhausted (maxUses 1 is taken by Bob), revoked and expired codes fail with their reason.
    expect(await codeOf(carol.client.invitations.userJoin({ body: { inviteCode: code } }))).toBe(
      '409 INVITE_EXHAUSTED',
    );
    expect(await carol.client.invitations.validateInvite({ body: { inviteCode: code } })).toEqual({
      valid: false,
      reason: 'exhausted',
    });
    await alice.client.invitations.create({ body: { duelId, inviteCode: 'pm-revoked' } });
    const revoked = await alice.client.invitations.revoke({ body: { inviteCode: 'pm-revoked' } });
    expect(revoked.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await codeOf(carol.client.invitations.userJoin({ body: { inviteCode: 'pm-revoked' } }))).toBe(
      '409 INVITE_REVOKED',
    );
    expect(await carol.client.invitations.validateInvite({ body: { inviteCode: 'pm-revoked' } })).toEqual({
      valid: false,
      reason: 'revoked',
    });
    await alice.client.invitations.create({
      body: { duelId, inviteCode: 'pm-expiring', expiresAt: new Date(server.now() + 1_500).toISOString() },
    });
    await server.advanceTime(2);
    expect(await codeOf(carol.client.invitations.userJoin({ body: { inviteCode: 'pm-expiring' } }))).toBe(
      '409 INVITE_EXPIRED',
    );
    expect(await carol.client.invitations.validateInvite({ body: { inviteCode: 'pm-expiring' } })).toEqual({
      valid: false,
      reason: 'expired',
    });
    expect(await codeOf(carol.client.invitations.userJoin({ body: { inviteCode: 'pm-unknown' } }))).toBe(
      '404 INVITE_NOT_FOUND',
    );
    expect(await codeOf(quote(carol.client, duelId))).toBe('403 PRIVATE_MARKET');
    // On chain: Bob is a member, Carol is not.
    expect(await carol.client.invitations.membership({ params: { duelId, userAddress: carol.address } })).toEqual({
      duelId,
      userAddress: carol.address,
      isMember: false,
      isCreator: false,
      source: 'chain',
    });
  }, 90_000);

  it('shows a parent market’s private sub-markets to members who joined with the parent code, and to nobody else', async () => {
    const alice = await signedIn('pm_parent_alice');
    const dave = await signedIn('pm_dave');
    const erin = await signedIn('pm_erin');
    const created = await alice.client.parentMarkets.create({
      body: {
        question: 'Office cup 2026',
        category: 'Football',
        isPrivate: true,
        markets: [
          { question: 'Will Team A win the final?', ...times() },
          { question: 'Will the final go to penalties?', ...times() },
          {
            question: 'Starts in the past',
            startTime: new Date(Date.now() - 60_000).toISOString(),
            endTime: times().endTime,
          },
        ],
      },
    });
    expect(created.createdCount).toBe(2);
    expect(created.results[2]).toMatchObject({ index: 2, status: 'failed', code: 'START_TIME_TOO_SOON' });
    const childIds = created.results.flatMap((r) => (r.status === 'created' ? [r.duelId] : []));
    const mine = await until(
      () => alice.client.parentMarkets.accessible({ query: {} }),
      (p) => p.data[0]?.duels.every((d) => d.chainState === 'confirmed') === true,
    );
    expect(mine.data[0]?.duels.map((d) => d.duelId)).toEqual(childIds);

    // Outsiders see neither the parent nor its sub-markets.
    expect((await erin.client.parentMarkets.accessible({ query: {} })).data).toEqual([]);
    expect(await codeOf(erin.client.parentMarkets.get({ params: { id: created.parentMarketId }, query: {} }))).toBe(
      '403 PRIVATE_MARKET',
    );
    for (const duelId of childIds) expect(await codeOf(quote(dave.client, duelId))).toBe('403 PRIVATE_MARKET');

    const invitation = await alice.client.parentMarkets.createInvitation({
      body: { parentMarketId: created.parentMarketId, maxUses: 5 },
    });
    expect(
      await dave.client.parentMarkets.validateInvite({ body: { inviteCode: invitation.inviteCode } }),
    ).toMatchObject({ valid: true, parentMarketId: created.parentMarketId, privateDuelCount: 2 });
    const joined = await dave.client.parentMarkets.join({ body: { inviteCode: invitation.inviteCode } });
    expect(joined.duels.map((d) => [d.duelId, d.result])).toEqual(childIds.map((id) => [id, 'added']));
    expect(await codeOf(dave.client.parentMarkets.join({ body: { inviteCode: invitation.inviteCode } }))).toBe(
      '409 ALREADY_MEMBER',
    );

    // Members see every sub-market and can trade them; outsiders still see none.
    const visible = await dave.client.parentMarkets.accessible({ query: {} });
    expect(visible.data.map((p) => [p.id, p.duels.map((d) => d.duelId), p.hiddenDuelCount])).toEqual([
      [created.parentMarketId, childIds, 0],
    ]);
    for (const duelId of childIds) expect((await quote(dave.client, duelId)).success).toBe(true);
    const members = await alice.client.parentMarkets.invitations({ params: { id: created.parentMarketId } });
    expect(members.invitations.map((i) => [i.inviteCode, i.uses])).toEqual([[invitation.inviteCode, 1]]);
    expect(await codeOf(dave.client.parentMarkets.invitations({ params: { id: created.parentMarketId } }))).toBe(
      '403 FORBIDDEN',
    );
    expect((await erin.client.parentMarkets.accessible({ query: {} })).data).toEqual([]);
    for (const duelId of childIds) expect(await codeOf(quote(erin.client, duelId))).toBe('403 PRIVATE_MARKET');

    // A public parent shows its public sub-markets to everyone and hides the private ones.
    const mixed = await alice.client.parentMarkets.create({
      body: {
        question: 'Mixed group',
        category: 'Football',
        markets: [
          {
            question: 'Public side question?',
            // Public markets need the longer lead (about 31 minutes).
            startTime: new Date(Date.now() + 45 * 60_000).toISOString(),
            endTime: new Date(Date.now() + 90 * 60_000).toISOString(),
          },
          { question: 'Private side question?', isPrivate: true, ...times() },
        ],
      },
    });
    expect(mixed.createdCount).toBe(2);
    const forErin = await erin.client.parentMarkets.get({ params: { id: mixed.parentMarketId }, query: {} });
    expect(forErin.duels.map((d) => d.question)).toEqual(['Public side question?']);
    expect(forErin.hiddenDuelCount).toBe(1);
  }, 90_000);

  it('answers 400 ALL_CHILDREN_FAILED when no sub-market could be created, and keeps nothing', async () => {
    const frank = await signedIn('pm_frank');
    const past = { startTime: new Date(Date.now() - 60_000).toISOString(), endTime: times().endTime };
    const err = await frank.client.parentMarkets
      .create({ body: { question: 'Nothing works', category: 'Test', markets: [{ question: 'Too late?', ...past }] } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('ALL_CHILDREN_FAILED');
    expect((await frank.client.parentMarkets.accessible({ query: {} })).data.map((p) => p.question)).not.toContain(
      'Nothing works',
    );
  });
});
