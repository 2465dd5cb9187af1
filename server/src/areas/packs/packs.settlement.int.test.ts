import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsApi } from '../../../test/support/http.js';
import { OffsetClock } from '../../platform/clock.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { createLogger } from '../../logger.js';
import { verifyLeaf } from '../../platform/merkle/merkle-tree.js';
import { PackClaimRelayer } from './pack-claim-relayer.js';
import { PackClaimRunRepository } from './pack-claim-run.repository.js';
import { PackRepository } from './pack.repository.js';
import {
  adminToken,
  chainNow,
  enterConfirmed,
  FEE,
  newMarket,
  PACK_TEST_ENV,
  packUser,
  publishedPack,
  travelPast,
  until,
  type Body,
} from './packs.test-kit.js';

let server: TestServer;
/** The server's clock: moved forward alone past deadlines only the server judges, with the chain past a market's end. */
const clock = new OffsetClock();
let admin: string;
const api = marketsApi(() => server);
const balance = (a: string) => server.container.chain.collateralBalance('credits', a as Address);

beforeAll(async () => {
  server = await startTestServer(PACK_TEST_ENV, { clock });
  admin = await adminToken(server, api);
}, 120_000);
afterAll(() => server?.close());

type User = Awaited<ReturnType<typeof packUser>>;

/** A published pack whose markets end `endInMs` from now; picks close `lockInMs` from now. */
async function pack(creator: User, markets: number, lockInMs: number, endInMs: number) {
  const now = await chainNow(server);
  const made = await publishedPack(api, creator, {
    lockAt: now + lockInMs,
    markets: Array.from({ length: markets }, (_, i) => newMarket(`Market ${i + 1}?`, now, 8_000, endInMs)),
  });
  return { ...made, endsAt: now + endInMs };
}

const pick = (packId: string, user: User, picks: [string, number][]) =>
  api(`/svc/packs/${packId}/picks`, {
    token: user.token,
    body: { picks: picks.map(([marketId, optionIndex]) => ({ marketId, optionIndex })) },
  });

const adminPost = (path: string, body: Body = {}) => api(`/svc/packs/admin/packs${path}`, { token: admin, body });

/** Resolves each market (outcome by index) once it has ended, and waits until the pack reads them resolved. */
async function resolveAll(packId: string, outcomes: [string, number][]) {
  for (const [marketId, outcome] of outcomes) {
    const r = await adminPost(`/${packId}/markets/${marketId}/resolve`, { winningOptionIndex: outcome });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  await until(
    () => api(`/svc/packs/${packId}`),
    (r) =>
      outcomes.every(
        ([id]) => (r.body['markets'] as Body[]).find((m) => m['marketId'] === id)?.['status'] === 'resolved',
      ),
  );
}

describe('pack lifecycle over HTTP, on the chain', () => {
  it('settles exactly as previewed, publishes the payout root and pays every winner once', async () => {
    const creator = await packUser(server, 'ps_creator');
    const alice = await packUser(server, 'ps_alice');
    const bob = await packUser(server, 'ps_bob');
    const carol = await packUser(server, 'ps_carol');
    const { packId, marketIds, endsAt } = await pack(creator, 3, 16_000, 18_000);
    const [a, b, c] = marketIds as [string, string, string];
    await enterConfirmed(api, packId, alice);
    await enterConfirmed(api, packId, bob);
    expect(
      (
        await pick(packId, alice, [
          [a, 0],
          [b, 1],
          [c, 0],
        ])
      ).status,
    ).toBe(201);
    expect(
      (
        await pick(packId, bob, [
          [a, 0],
          [b, 0],
          [c, 1],
        ])
      ).status,
    ).toBe(201);

    const notLocked = await adminPost(`/${packId}/markets/${a}/resolve`, { winningOptionIndex: 0 });
    expect([notLocked.status, notLocked.body['details']['status']]).toEqual([409, 'published']);
    const early = await adminPost(`/${packId}/settle`);
    expect(early.status).toBe(409);
    expect(early.body['details']['blockers']).toEqual(expect.arrayContaining([expect.stringMatching(/published/)]));
    expect((await api(`/svc/packs/admin/packs/${packId}/lock`, { token: alice.token, body: {} })).status).toBe(401);
    expect((await adminPost(`/${packId}/lock`)).body['status']).toBe('locked');

    const notEnded = await adminPost(`/${packId}/markets/${a}/resolve`, { winningOptionIndex: 0 });
    expect([notEnded.status, notEnded.body['code']]).toEqual([409, 'INVALID_STATE']);
    const voided = await adminPost(`/${packId}/markets/${c}/void`, { reason: 'the match was abandoned' });
    expect(voided.status).toBe(200);
    expect(voided.body['market']).toMatchObject({ status: 'voided', voidReason: 'the match was abandoned' });
    expect(voided.body['cancelTxHash']).toMatch(/^0x[0-9a-f]{64}$/);
    const voidAgain = await adminPost(`/${packId}/markets/${c}/void`, { reason: 'the match was abandoned' });
    expect(voidAgain.body['cancelTxHash']).toBe(voided.body['cancelTxHash']);
    expect((await api(`/svc/packs/${packId}`)).body['status']).toBe('resolving');

    await travelPast(server, endsAt + 1_500);
    const onVoided = await adminPost(`/${packId}/markets/${c}/resolve`, { winningOptionIndex: 0 });
    expect([onVoided.status, onVoided.body['code']]).toEqual([409, 'INVALID_STATE']);
    const outside = await adminPost(`/${packId}/markets/0x${'ef'.repeat(32)}/resolve`, { winningOptionIndex: 0 });
    expect(outside.status).toBe(404);
    const badOption = await adminPost(`/${packId}/markets/${a}/resolve`, { winningOptionIndex: 5 });
    expect(badOption.status).toBe(400);
    await resolveAll(packId, [
      [a, 0],
      [b, 1],
    ]);

    // Alice: A right at 0.5 (5000) + B right at 0.5 (5000); Bob: A right (5000), B wrong; C void.
    const preview = await api(`/svc/packs/admin/packs/${packId}/settlement-preview`, { token: admin });
    expect(preview.body).toMatchObject({ ready: true, blockers: [], entrants: 2, pool: (2n * FEE).toString() });
    const prizePool = 2n * FEE - (2n * FEE * 500n) / 10_000n;
    const alicePayout = (prizePool * 2n) / 3n;
    const bobPayout = prizePool / 3n;
    expect(
      (preview.body['standings'] as Body[]).map((s): unknown => [
        s['userAddress'],
        s['rank'],
        s['points'],
        s['payout'],
      ]),
    ).toEqual([
      [alice.address, 1, 10_000, alicePayout.toString()],
      [bob.address, 2, 5_000, bobPayout.toString()],
    ]);
    expect(preview.body['fee']).toBe((2n * FEE - alicePayout - bobPayout).toString());

    const settled = await adminPost(`/${packId}/settle`);
    expect(settled.status).toBe(200);
    for (const key of ['pool', 'fee', 'prizePool', 'entrants', 'standings', 'root', 'markets']) {
      expect(settled.body[key], key).toEqual(preview.body[key]);
    }
    expect(settled.body).toMatchObject({ status: 'settled', feeTxHash: expect.stringMatching(/^0x/) });
    const again = await adminPost(`/${packId}/settle`);
    expect([again.body['root'], again.body['feeTxHash']]).toEqual([settled.body['root'], settled.body['feeTxHash']]);
    expect((await adminPost(`/${packId}/cancel-refund`, { reason: 'too late' })).status).toBe(409);

    const board = await api(`/svc/packs/${packId}/leaderboard`);
    expect(board.body['final']).toBe(true);
    expect((board.body['data'] as Body[]).map((s): unknown => s['payout'])).toEqual([
      alicePayout.toString(),
      bobPayout.toString(),
    ]);
    const me = await api(`/svc/packs/${packId}/me`, { token: alice.token });
    expect(me.body).toMatchObject({ rank: 1, points: 10_000, payout: alicePayout.toString(), refund: null });
    expect((me.body['picks'] as Body[]).map((p): unknown => [p['result'], p['points']])).toEqual([
      ['won', 5_000],
      ['won', 5_000],
      ['void', 0],
    ]);

    const anonymous = await api(`/svc/packs/${packId}/payout-proof`);
    expect([anonymous.status, anonymous.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    const noLeaf = await api(`/svc/packs/${packId}/payout-proof`, { token: carol.token });
    expect(noLeaf.status).toBe(404);
    const refundOnSettled = await api(`/svc/packs/${packId}/refund-proof`, { token: alice.token });
    expect([refundOnSettled.status, refundOnSettled.body['code']]).toEqual([409, 'INVALID_STATE']);
    const unpublished = await api(`/svc/packs/${packId}/payout-proof?account=${bob.address}`);
    expect(unpublished.body).toMatchObject({ account: bob.address, amount: bobPayout.toString(), published: false });
    expect(
      verifyLeaf(unpublished.body['root'] as Hex, unpublished.body['poolId'] as Hex, {
        account: bob.address,
        amount: bobPayout,
        proof: unpublished.body['proof'] as Hex[],
      }),
    ).toBe(true);

    expect(
      (await api(`/svc/packs/admin/packs/${packId}/onchain/submit-refund-root`, { token: admin, body: {} })).status,
    ).toBe(409);
    const early409 = await adminPost(`/${packId}/onchain/auto-claim-payouts`);
    expect([early409.status, early409.body['code']]).toEqual([409, 'INVALID_STATE']);
    const root = await adminPost(`/${packId}/onchain/submit-payout-root`);
    expect(root.body).toMatchObject({ kind: 'payout', root: settled.body['root'], leafCount: 2 });
    expect((await adminPost(`/${packId}/onchain/submit-payout-root`)).body['txHash']).toBe(root.body['txHash']);
    const vault = server.container.prizeVault;
    const poolId = root.body['poolId'] as Hex;
    expect((await vault.distribution('credits', poolId, 'payout')).root).toBe(settled.body['root']);
    // The fee went to the treasury and the payout total is set aside: nothing else is left.
    expect(await vault.poolBalance('credits', poolId)).toBe(0n);

    const summary = await api(`/svc/packs/${packId}/payout-summary`, { token: alice.token });
    expect(summary.body).toMatchObject({
      status: 'published',
      total: (alicePayout + bobPayout).toString(),
      leafCount: 2,
      claimedAmount: '0',
      mine: { account: alice.address, amount: alicePayout.toString(), claimed: false },
    });

    const [aliceBefore, bobBefore] = [await balance(alice.address), await balance(bob.address)];
    const run = await adminPost(`/${packId}/onchain/auto-claim-payouts`);
    expect(run.body).toMatchObject({ status: 'queued', generation: 1 });
    const status = await until(
      () => api(`/svc/packs/admin/packs/${packId}/payout-claim-status`, { token: admin }),
      (r) => r.body['complete'] === true && r.body['run']?.['status'] === 'done',
    );
    expect(status.body).toMatchObject({
      leavesClaimedByRelayer: 2,
      claimedOnChain: (alicePayout + bobPayout).toString(),
    });
    expect(status.body['run']).toMatchObject({ sent: 2, skipped: 0, failed: 0 });
    expect(await balance(alice.address)).toBe(aliceBefore + alicePayout);
    expect(await balance(bob.address)).toBe(bobBefore + bobPayout);
    expect((await api(`/svc/packs/${packId}`)).body['status']).toBe('claimed');
    expect((await api(`/svc/packs/${packId}/payout-summary?account=${bob.address}`)).body['mine']['claimed']).toBe(
      true,
    );

    const rerun = await adminPost(`/${packId}/onchain/auto-claim-payouts`);
    expect(rerun.body['generation']).toBe(2);
    const second = await until(
      () => api(`/svc/packs/admin/packs/${packId}/payout-claim-status`, { token: admin }),
      (r) => r.body['run']?.['status'] === 'done',
    );
    expect(second.body['run']).toMatchObject({ sent: 0, skipped: 2, failed: 0 });
    expect(await balance(alice.address)).toBe(aliceBefore + alicePayout);
  }, 180_000);

  it('cancels a pack with entries and refunds every entrant exactly their fee', async () => {
    const creator = await packUser(server, 'pr_creator');
    const dave = await packUser(server, 'pr_dave');
    const erin = await packUser(server, 'pr_erin');
    const { packId, marketIds } = await pack(creator, 1, 600_000, 900_000);
    await enterConfirmed(api, packId, dave);
    await enterConfirmed(api, packId, erin);
    await pick(packId, dave, [[marketIds[0] as string, 0]]);
    expect((await api(`/svc/packs/${packId}/refund-summary`)).body['status']).toBe('not_ready');
    const cancelled = await adminPost(`/${packId}/cancel-refund`, { reason: 'the fixtures were postponed' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelReason: 'the fixtures were postponed' });
    expect((await adminPost(`/${packId}/cancel-refund`, { reason: 'twice' })).status).toBe(409);
    expect((await api(`/svc/packs/${packId}/enter`, { token: creator.token, body: {} })).body['code']).toBe(
      'PACK_NOT_OPEN',
    );
    expect((await api(`/svc/packs/${packId}/me`, { token: dave.token })).body['refund']).toBe(FEE.toString());
    expect((await adminPost(`/${packId}/onchain/submit-payout-root`)).status).toBe(409);

    const root = await adminPost(`/${packId}/onchain/submit-refund-root`);
    expect(root.body).toMatchObject({ kind: 'refund', total: (2n * FEE).toString(), leafCount: 2 });
    const proof = await api(`/svc/packs/${packId}/refund-proof`, { token: erin.token });
    expect(proof.body).toMatchObject({ kind: 'refund', kindIndex: 1, amount: FEE.toString(), published: true });
    const [daveBefore, erinBefore] = [await balance(dave.address), await balance(erin.address)];
    await adminPost(`/${packId}/onchain/auto-claim-refunds`);
    await until(
      () => api(`/svc/packs/admin/packs/${packId}/refund-claim-status`, { token: admin }),
      (r) => r.body['complete'] === true,
    );
    expect(await balance(dave.address)).toBe(daveBefore + FEE);
    expect(await balance(erin.address)).toBe(erinBefore + FEE);
    const summary = await api(`/svc/packs/${packId}/refund-summary`, { token: dave.token });
    expect(summary.body).toMatchObject({ claimedAmount: (2n * FEE).toString(), mine: { claimed: true } });
  }, 120_000);

  it('locks packs past lockAt on the tick, once', async () => {
    const creator = await packUser(server, 'pt_creator');
    const { packId } = await pack(creator, 1, 3_000, 600_000);
    expect((await api('/svc/packs/admin/packs/schedule-tick', { token: creator.token, body: {} })).status).toBe(401);
    // The lock is the server's deadline alone: its clock moves past it without the chain, then back
    // to the chain's time for the tests after this one (their markets end on the chain).
    const lockAt = Date.parse((await api(`/svc/packs/${packId}`)).body['lockAt'] as string);
    const ahead = Math.max(0, lockAt + 200 - clock.now());
    clock.advance(ahead);
    try {
      const first = await adminPost('/schedule-tick');
      const second = await adminPost('/schedule-tick');
      // The repeating job may have locked it first; either way the second tick changes nothing.
      expect((await api(`/svc/packs/${packId}`)).body['status']).toBe('locked');
      expect(second.body['locked']).not.toContain(packId);
      expect(first.status).toBe(200);
    } finally {
      clock.advance(-ahead);
    }
  }, 60_000);

  it('pays each leaf once when an auto-claim run dies halfway and runs again', async () => {
    const creator = await packUser(server, 'pk_kill_creator');
    const users = [
      await packUser(server, 'pk_kill_1'),
      await packUser(server, 'pk_kill_2'),
      await packUser(server, 'pk_kill_3'),
    ];
    const { packId, marketIds, endsAt } = await pack(creator, 2, 14_000, 16_000);
    const [a, b] = marketIds as [string, string];
    for (const u of users) await enterConfirmed(api, packId, u);
    await pick(packId, users[0]!, [
      [a, 0],
      [b, 0],
    ]);
    await pick(packId, users[1]!, [
      [a, 0],
      [b, 1],
    ]);
    await pick(packId, users[2]!, [
      [a, 1],
      [b, 0],
    ]);
    await adminPost(`/${packId}/lock`);
    await travelPast(server, endsAt + 1_500);
    await resolveAll(packId, [
      [a, 0],
      [b, 0],
    ]);
    const settled = await adminPost(`/${packId}/settle`);
    const owed = new Map(
      (settled.body['standings'] as Body[]).map((s) => [s['userAddress'] as string, BigInt(s['payout'] as string)]),
    );
    expect([...owed.values()].every((v) => v > 0n)).toBe(true);
    await adminPost(`/${packId}/onchain/submit-payout-root`);
    const before = new Map(await Promise.all(users.map(async (u) => [u.address, await balance(u.address)] as const)));

    const poolId = (await api(`/svc/packs/${packId}`)).body['poolId'] as Hex;
    const c = server.container;
    const repo = new PackRepository(c.orm);
    const runs = new PackClaimRunRepository(c.orm);
    const { run } = await runs.startClaimRun(packId, 'payout');
    let sent = 0;
    const dying = new PackClaimRelayer(
      repo,
      runs,
      c.packs.catalog,
      c.distributions,
      c.prizeVault,
      createLogger('silent'),
      {
        faults: {
          afterSubmit: async () => {
            // The second claim is on chain, but the worker dies before recording it.
            if (++sent === 2) throw new Error('worker killed');
          },
        },
      },
    );
    await expect(dying.run(packId, 'payout', run.generation)).rejects.toThrow('worker killed');
    expect((await c.distributions.counts((await c.distributions.find(poolId, 'payout'))!)).claimed).toBe(1);

    const restarted = new PackClaimRelayer(
      repo,
      runs,
      c.packs.catalog,
      c.distributions,
      c.prizeVault,
      createLogger('silent'),
    );
    await restarted.run(packId, 'payout', run.generation);
    for (const u of users)
      expect(await balance(u.address)).toBe((before.get(u.address) as bigint) + (owed.get(u.address) as bigint));
    const onChain = await c.prizeVault.distribution('credits', poolId, 'payout');
    expect(onChain.claimed).toBe(onChain.total);
    const status = await api(`/svc/packs/admin/packs/${packId}/payout-claim-status`, { token: admin });
    expect(status.body).toMatchObject({ complete: true, leavesClaimedByRelayer: 3 });
    expect(status.body['run']).toMatchObject({ status: 'done', failed: 0 });
  }, 120_000);
});
