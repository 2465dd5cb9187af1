import { randomBytes } from 'node:crypto';
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuelkitClient } from '@duelkit/sdk';
import {
  calmHour,
  type ServerProcess,
  signedInAdmin,
  signedInClient,
  startServer,
  TOURNAMENT_ENV,
  UNIT,
  until,
} from './support.js';

const HOUR = 3_600_000;
let server: ServerProcess;
let ops: DuelkitClient;
/** The stage's hour 0 (its fixtures kick off at hours 2, 4 and 6, none cancelled). */
let T0: number;
const at = (h: number) => new Date(T0 + h * HOUR).toISOString();

beforeAll(async () => {
  server = await startServer({
    JOBS_ENABLED: 'true',
    TOURNAMENT_RESULTS_INTERVAL_MS: '300',
    TOURNAMENT_AUTOMATION_INTERVAL_MS: '500',
    ...TOURNAMENT_ENV,
    TOURNAMENT_FIXTURES_PER_STAGE: '2',
  });
  T0 = await calmHour(server);
  await server.advanceTo(T0);
  ops = await signedInAdmin(server, 'tce_ops');
}, 120_000);
afterAll(() => server?.stop());

type Outcome = 'HOME' | 'DRAW' | 'AWAY';

describe('closing a tournament through the SDK', () => {
  it('result → dispute rejected → stage settled by the automation → final window → root on the vault → claim → confirm', async () => {
    const creator = await signedInClient(server, 'tce_creator');
    const alice = await signedInClient(server, 'tce_alice');
    await creator.client.tournaments.catalog.depositBond({ body: { execute: true } });
    const tournamentId = randomBytes(12).toString('hex');
    const deposit = await creator.client.tournaments.play.deposit({
      params: { tournamentId },
      body: { stakeAsset: 'credits', amount: (10n * UNIT).toString(), execute: true },
    });
    await creator.client.tournaments.catalog.create({
      body: {
        name: 'SDK final',
        stakeAsset: 'credits',
        format: 'KNOCKOUT',
        clientTournamentId: tournamentId,
        creatorDepositTxHash: deposit.txHash as string,
        totalStages: 1,
        stages: [
          { stageIndex: 1, buyinUsdc: (10n * UNIT).toString(), isFinal: true, startTime: at(1), endTime: at(7) },
        ],
        config: { minEntriesToActivate: 2 },
      },
    });
    const entry = await alice.client.tournaments.play.deposit({ params: { tournamentId }, body: { execute: true } });
    await alice.client.tournaments.play.enter({
      params: { tournamentId },
      body: { depositTxHash: entry.txHash as string },
    });
    await until(
      () => alice.client.tournaments.play.myStatus({ params: { tournamentId }, query: {} }),
      (s) => s.hasEntry,
    );
    const { stages } = await alice.client.tournaments.play.get({ params: { tournamentId } });
    const stage = stages[0];
    const f1 = stage?.fixtures[0];
    if (!stage || !f1) throw new Error('a stage with a fixture expected');
    const script = await server.sportsScript({ fixtureIds: [f1.providerFixtureId] });
    const right = script.fixtures[0]?.outcome as Outcome;
    const wrong: Outcome = right === 'HOME' ? 'AWAY' : 'HOME';
    await alice.client.tournaments.play.createPick({
      params: { tournamentId, stageId: stage.id },
      body: { fixtureId: f1.id, outcome: right, stake: 500 },
    });

    await server.advanceTo(T0 + 7 * HOUR);
    await until(
      () => alice.client.tournaments.play.get({ params: { tournamentId } }),
      (d) => d.tournament.status === 'COMPLETED',
    );
    const disputeable = await creator.client.tournaments.disputes.disputeableMarkets({
      params: { tournamentId, stageId: stage.id },
    });
    expect(disputeable.markets.map((m) => m.marketId)).toContain(f1.id);
    const { dispute } = await creator.client.tournaments.disputes.fileMarketDispute({
      params: { tournamentId, marketId: f1.id },
      body: { reason: 'The score I saw was different', proposedResult: wrong },
    });
    const decided = await ops.tournaments.admin.resolveDispute({
      params: { disputeId: dispute.id },
      body: { decision: 'REJECT', note: 'The official result stands' },
    });
    expect(decided).toMatchObject({ changed: false, dispute: { status: 'REJECTED' } });

    // Past the stage's window: the automation job settles it; then the final window runs.
    await server.advanceTo(T0 + 32 * HOUR);
    const settled = await until(
      () => ops.tournaments.admin.canProceed({ params: { stageId: stage.id } }),
      (p) => p.settled,
    );
    expect(settled.canProceed).toBe(true);
    const status = await ops.tournaments.admin.automationStatus({ params: { tournamentId } });
    expect(status.payout).toMatchObject({ ready: false, rootStatus: 'none' });
    expect(status.payout.reasons.map((r) => r.code)).toEqual(['FINAL_WINDOW_OPEN']);
    await ops.tournaments.admin.setFinalDisputeWindow({ params: { tournamentId }, body: { endsAt: at(20) } });

    const built = await ops.tournaments.admin.setRoot({ params: { tournamentId }, body: {} });
    // Two entrants of 10: the champion takes 60 % + the 15 % a one-round bracket cannot pay, the runner-up 25 %.
    const aliceShare = 15n * UNIT;
    expect(built).toMatchObject({ status: 'built', total: (20n * UNIT).toString(), leafCount: 2 });
    expect(built.payouts).toMatchObject([
      { wallet: alice.address, amount: aliceShare.toString(), placement: 1 },
      { wallet: creator.address, amount: (5n * UNIT).toString(), placement: 2 },
    ]);
    await ops.tournaments.admin.setPayoutRootOnchain({ params: { tournamentId }, body: {} });

    const proof = await until(
      () => alice.client.tournaments.payouts.claimProof({ params: { tournamentId }, query: {} }),
      (p) => p.published,
    );
    // Anyone with gas may send the vault's claim; the money goes to the leaf's account.
    const sender = privateKeyToAccount(generatePrivateKey());
    await server.fundGas(sender.address);
    const before = await server.balance(alice.address);
    const hash = await createWalletClient({ transport: http(server.rpcUrl), account: sender }).sendTransaction({
      to: proof.call.to as Address,
      data: proof.call.data as Hex,
      chain: null,
    });
    await server.chain.waitForTransactionReceipt({ hash });
    const confirmed = await alice.client.tournaments.payouts.confirmClaim({
      params: { tournamentId },
      body: { txHash: hash },
    });
    expect(confirmed).toMatchObject({ claimed: true, recorded: true, amount: aliceShare.toString() });
    expect((await server.balance(alice.address)) - before).toBe(aliceShare);
    const payoutStatus = await alice.client.tournaments.payouts.payoutStatus({ params: { tournamentId } });
    expect(payoutStatus).toMatchObject({ rootOnChain: true, complete: false, leavesClaimed: 1 });
    expect(payoutStatus.leaves.find((l) => l.wallet === alice.address)).toMatchObject({
      claimed: true,
      claimTxHash: hash,
    });
  }, 120_000);
});
