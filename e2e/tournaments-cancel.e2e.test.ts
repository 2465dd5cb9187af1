import { randomBytes } from 'node:crypto';
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type DuelkitClient } from '@duelkit/sdk';
import {
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
const at = (h: number) => new Date(server.now() + h * HOUR).toISOString();

beforeAll(async () => {
  server = await startServer({
    ...TOURNAMENT_ENV,
    TOURNAMENT_FIXTURES_PER_STAGE: '2',
  });
  ops = await signedInAdmin(server, 'tce_ops');
}, 120_000);
afterAll(() => server?.stop());

const balance = (a: string) => server.balance(a as Address);

async function enter(client: DuelkitClient, tournamentId: string) {
  const deposit = await client.tournaments.play.deposit({ params: { tournamentId }, body: { execute: true } });
  await client.tournaments.play.enter({ params: { tournamentId }, body: { depositTxHash: deposit.txHash as string } });
}

describe('tournament cancellation through the SDK', () => {
  it('create → enter → ask to cancel → admin cancels → refund root on chain → the entrant sends the served claim call', async () => {
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
        name: 'Cancelled cup',
        stakeAsset: 'credits',
        format: 'GROUP_KNOCKOUT',
        clientTournamentId: tournamentId,
        creatorDepositTxHash: deposit.txHash as string,
        totalStages: 2,
        stages: [
          { stageIndex: 1, buyinUsdc: (10n * UNIT).toString(), isFinal: false, startTime: at(1), endTime: at(7) },
          { stageIndex: 2, buyinUsdc: '0', multiplier: 2, isFinal: true, startTime: at(7), endTime: at(15) },
        ],
        config: { minEntriesToActivate: 2 },
      },
    });
    await enter(alice.client, tournamentId);

    const request = await alice.client.tournaments.cancellation.requestCancel({
      params: { tournamentId },
      body: { reason: 'The fixtures were moved' },
    });
    expect(request).toMatchObject({ status: 'OPEN', role: 'entrant', wallet: alice.address });
    const again = await alice.client.tournaments.cancellation
      .requestCancel({ params: { tournamentId }, body: { reason: 'Asking twice' } })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ApiError);
    expect((again as ApiError).code).toBe('CANCEL_REQUEST_EXISTS');

    const open = await ops.tournaments.admin.cancelRequests({ query: { tournamentId, status: 'OPEN' } });
    expect(open.requests.map((r) => r.id)).toEqual([request.id]);
    const status = await ops.parlayTournamentsAdmin.configStatus();
    expect(status).toMatchObject({ mode: 'in-process', reachable: true });

    const cancelled = await ops.tournaments.admin.cancel({
      params: { tournamentId },
      body: { reason: 'Fixtures moved' },
    });
    expect(cancelled).toMatchObject({ status: 'CANCELED', acceptedRequests: 1, refund: { leafCount: 2 } });
    expect(
      await alice.client.tournaments.cancellation.cancelRequest({ params: { tournamentId }, query: {} }),
    ).toMatchObject({
      request: { status: 'ACCEPTED' },
    });
    await ops.tournaments.admin.setRefundRootOnchain({ params: { tournamentId }, body: {} });

    const proof = await until(
      () => alice.client.tournaments.cancellation.refundProof({ params: { tournamentId }, query: {} }),
      (p) => p.published,
    );
    expect(proof).toMatchObject({ account: alice.address, amount: (10n * UNIT).toString(), claimed: false });

    // Anyone may send the claim; the vault pays the leaf's wallet.
    const sender = privateKeyToAccount(generatePrivateKey());
    await server.fundGas(sender.address);
    const wallet = createWalletClient({ transport: http(server.rpcUrl), account: sender });
    const before = await balance(alice.address);
    const hash = await wallet.sendTransaction({
      to: proof.call.to as Address,
      data: proof.call.data as Hex,
      chain: null,
    });
    const receipt = await server.chain.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect((await balance(alice.address)) - before).toBe(10n * UNIT);
    expect(
      (await alice.client.tournaments.cancellation.refundProof({ params: { tournamentId }, query: {} })).claimed,
    ).toBe(true);
  });
});
