import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  http,
  parseAbi,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type DuelkitClient } from '@duelkit/sdk';
import {
  chainNow as chainNowOf,
  type ServerProcess,
  signedInAdmin,
  signedInClient,
  startServer,
  UNIT,
  until,
} from './support.js';

const FEE = 10n * UNIT;
let server: ServerProcess;
let ops: DuelkitClient;

beforeAll(async () => {
  server = await startServer({
    DUEL_PUBLIC_LEAD_SECONDS: '0',
    DUEL_CONTEST_PERIOD_SECONDS: '0',
    INDEXER_INTERVAL_MS: '200',
    JOBS_ENABLED: 'true',
    PACK_FEE_BPS: '500',
  });
  ops = await signedInAdmin(server, 'pe_ops');
}, 120_000);
afterAll(() => server?.stop());

/** What a claim submitter needs of the PrizeVault: its claim and the errors it reverts with. */
const PrizeVaultAbi = parseAbi([
  'function claim(bytes32 poolId, uint8 kind, address account, uint256 amount, bytes32[] proof)',
  'error AlreadyClaimed(bytes32 poolId, uint8 kind, address account)',
  'error DistributionExhausted(uint256 remaining, uint256 needed)',
  'error InsufficientPoolBalance(uint256 available, uint256 needed)',
  'error InvalidProof()',
  'error RootNotSet(bytes32 poolId, uint8 kind)',
  'error UnknownKind(uint8 kind)',
  'error ZeroAmount()',
]);

const rpcUrl = () => server.rpcUrl;
const balance = (a: string) => server.balance(a as Address);
const chainNow = () => chainNowOf(server);

/** Deadlines are passed by moving the server's and the chain's time, never by waiting for them. */
const passDeadline = (t: number) => server.advanceTo(t);

/** Someone with gas and no stake in the pack: anyone may submit a claim, the vault pays the leaf's account. */
async function relayer() {
  const account = privateKeyToAccount(generatePrivateKey());
  const wallet = createWalletClient({ transport: http(rpcUrl()), account });
  const pub = createPublicClient({ transport: http(rpcUrl()) });
  await server.fundGas(account.address);
  return {
    /** Sends the served claim call as it is: undefined when it was mined and succeeded. */
    async send(call: { to: string; data: string }) {
      const hash = await wallet.sendTransaction({ to: call.to as Address, data: call.data as Hex, chain: null });
      const receipt = await pub.waitForTransactionReceipt({ hash });
      return receipt.status === 'success' ? undefined : 'reverted';
    },
    /** Submits PrizeVault.claim; the revert's error name, or undefined when it was mined. */
    async claim(proof: {
      vaultAddress: string;
      poolId: string;
      kindIndex: number;
      account: string;
      amount: string;
      proof: string[];
    }) {
      try {
        const { request } = await pub.simulateContract({
          address: proof.vaultAddress as Address,
          abi: PrizeVaultAbi,
          functionName: 'claim',
          args: [
            proof.poolId as Hex,
            proof.kindIndex,
            proof.account as Address,
            BigInt(proof.amount),
            proof.proof as Hex[],
          ],
          account,
        });
        const receipt = await pub.waitForTransactionReceipt({ hash: await wallet.writeContract(request) });
        return receipt.status === 'success' ? undefined : 'reverted';
      } catch (err) {
        const revert = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
        if (revert instanceof ContractFunctionRevertedError) return revert.data?.errorName ?? 'reverted';
        throw err;
      }
    },
  };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

/** A published pack of `creator` with `count` new markets ending `endInMs` from now. */
async function publishedPack(creator: DuelkitClient, count: number, lockInMs: number, endInMs: number) {
  const now = await chainNow();
  const pack = await creator.packs.create({
    body: {
      title: 'Sunday pack',
      category: 'Football',
      entryFee: FEE.toString(),
      lockAt: new Date(now + lockInMs).toISOString(),
    },
  });
  const marketIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const added = await creator.packs.addMarket({
      params: { packId: pack.id },
      body: {
        source: 'new',
        market: {
          question: `Match ${i + 1}: home win?`,
          startTime: new Date(now + 8_000).toISOString(),
          endTime: new Date(now + endInMs).toISOString(),
        },
      },
    });
    marketIds.push(added.market.marketId);
  }
  // Accepted, not final: publish once the chain confirmed every market.
  await until(
    () => creator.packs.publish({ params: { packId: pack.id }, body: {} }).catch((e: unknown) => e),
    (r) => !(r instanceof Error),
  );
  return { packId: pack.id, marketIds, endsAt: now + endInMs };
}

async function enter(client: DuelkitClient, packId: string) {
  const entry = await client.packs.enter({ params: { packId }, body: {} });
  expect(entry.status === 'pending' || entry.status === 'confirmed').toBe(true);
  await until(
    () => client.packs.me({ params: { packId } }),
    (me) => me.entry?.status === 'confirmed',
  );
}

describe('packs through the SDK', () => {
  it('create → 3 markets → publish → enter and pick → lock → resolve two, void one → settle → claim on chain once', async () => {
    const { client: creator } = await signedInClient(server, 'pe_creator');
    const { client: alice, address: aliceAddress } = await signedInClient(server, 'pe_alice');
    const { client: bob, address: bobAddress } = await signedInClient(server, 'pe_bob');
    const { packId, marketIds, endsAt } = await publishedPack(creator, 3, 300_000, 360_000);
    const [a, b, c] = marketIds as [string, string, string];
    expect((await creator.packs.get({ params: { packId } })).status).toBe('published');

    await enter(alice, packId);
    await enter(bob, packId);
    const estimate = await alice.packs.estimatePicks({
      params: { packId },
      body: { picks: [{ marketId: a, optionIndex: 0 }] },
    });
    expect(estimate.picks[0]?.pointsIfCorrect).toBe(5_000);
    await alice.packs.picks({
      params: { packId },
      body: {
        picks: [
          { marketId: a, optionIndex: 0 },
          { marketId: b, optionIndex: 1 },
          { marketId: c, optionIndex: 0 },
        ],
      },
    });
    const bobPicks = await bob.packs.picks({
      params: { packId },
      body: {
        picks: [
          { marketId: a, optionIndex: 0 },
          { marketId: b, optionIndex: 0 },
        ],
      },
    });
    expect(bobPicks.final).toBe(false);

    await ops.packsAdmin.lock({ params: { packId }, body: {} });
    const lockedOut = await failure(
      bob.packs.picks({ params: { packId }, body: { picks: [{ marketId: c, optionIndex: 1 }] } }),
    );
    expect(lockedOut.code).toBe('PACK_LOCKED');
    await ops.packsAdmin.voidMarket({ params: { packId, marketId: c }, body: { reason: 'fixture abandoned' } });
    await passDeadline(endsAt + 1_500);
    await ops.packsAdmin.resolveMarket({ params: { packId, marketId: a }, body: { winningOptionIndex: 0 } });
    await ops.packsAdmin.resolveMarket({ params: { packId, marketId: b }, body: { winningOptionIndex: 1 } });
    await until(
      () => ops.packsAdmin.settlementPreview({ params: { packId } }),
      (p) => p.ready,
    );
    const settlement = await ops.packsAdmin.settle({ params: { packId }, body: {} });
    expect(settlement.standings.map((s) => [s.userAddress, s.rank, s.points])).toEqual([
      [aliceAddress, 1, 10_000],
      [bobAddress, 2, 5_000],
    ]);
    const root = await ops.packsAdmin.submitPayoutRoot({ params: { packId }, body: {} });
    expect(root.root).toBe(settlement.root);

    const aliceProof = await alice.packs.payoutProof({ params: { packId }, query: {} });
    const bobProof = await bob.packs.payoutProof({ params: { packId }, query: {} });
    expect([aliceProof.account, bobProof.account]).toEqual([aliceAddress, bobAddress]);
    expect(BigInt(aliceProof.amount) + BigInt(bobProof.amount) + BigInt(settlement.fee)).toBe(2n * FEE);

    const submitter = await relayer();
    // Bob's address with Alice's proof, or his own leaf with a tampered amount: refused on chain.
    expect(await submitter.claim({ ...aliceProof, account: bobAddress })).toBe('InvalidProof');
    expect(await submitter.claim({ ...bobProof, amount: (BigInt(bobProof.amount) + 1n).toString() })).toBe(
      'InvalidProof',
    );

    const [aliceBefore, bobBefore] = [await balance(aliceAddress), await balance(bobAddress)];
    expect(await submitter.claim(aliceProof)).toBeUndefined();
    expect(await submitter.claim(bobProof)).toBeUndefined();
    expect(await balance(aliceAddress)).toBe(aliceBefore + BigInt(aliceProof.amount));
    expect(await balance(bobAddress)).toBe(bobBefore + BigInt(bobProof.amount));
    expect(await submitter.claim(aliceProof)).toBe('AlreadyClaimed');
    expect(await balance(aliceAddress)).toBe(aliceBefore + BigInt(aliceProof.amount));

    const summary = await alice.packs.payoutSummary({ params: { packId }, query: {} });
    expect(summary.mine).toMatchObject({ claimed: true, amount: aliceProof.amount });
    expect(summary.claimedAmount).toBe(summary.total);
    await ops.packsAdmin.scheduleTick({ body: {} });
    expect((await alice.packs.get({ params: { packId } })).status).toBe('claimed');
    const me = await bob.packs.me({ params: { packId } });
    expect(me).toMatchObject({ rank: 2, payout: bobProof.amount });
  }, 180_000);

  it('cancel-refund after entries: every entrant claims back exactly the entry fee', async () => {
    const { client: creator } = await signedInClient(server, 'pe_host');
    const { client: carol, address: carolAddress } = await signedInClient(server, 'pe_carol');
    const { client: dave, address: daveAddress } = await signedInClient(server, 'pe_dave');
    const { packId } = await publishedPack(creator, 1, 600_000, 900_000);
    await enter(carol, packId);
    await enter(dave, packId);
    await ops.packsAdmin.cancelRefund({ params: { packId }, body: { reason: 'the round was postponed' } });
    await ops.packsAdmin.submitRefundRoot({ params: { packId }, body: {} });
    const submitter = await relayer();
    for (const [client, address] of [
      [carol, carolAddress],
      [dave, daveAddress],
    ] as const) {
      const proof = await client.packs.refundProof({ params: { packId }, query: {} });
      expect([proof.kind, proof.kindIndex, proof.account, proof.amount]).toEqual([
        'refund',
        1,
        address,
        FEE.toString(),
      ]);
      expect([proof.collateralStack, proof.call.to]).toEqual(['credits', proof.vaultAddress]);
      const before = await balance(address);
      // The served call, sent as it is, pays the leaf.
      expect(await submitter.send(proof.call)).toBeUndefined();
      expect(await balance(address)).toBe(before + FEE);
      expect(await submitter.claim(proof)).toBe('AlreadyClaimed');
    }
    const summary = await ops.packsAdmin.refundClaimStatus({ params: { packId } });
    expect(summary).toMatchObject({ complete: true, claimedOnChain: (2n * FEE).toString() });
  }, 120_000);
});
