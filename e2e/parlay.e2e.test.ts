import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, DuelkitClient } from '@duelkit/sdk';
import {
  createWalletClient,
  erc20Abi,
  getAddress,
  http,
  maxUint256,
  parseAbi,
  type Address,
  type Hash,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type ServerProcess, UNIT, signedInClient, startServer, until } from './support.js';

/** What a wallet calls on the book: the ERC-4626 pool and `place(quote, signature)`. */
const BOOK_ABI = parseAbi([
  'struct Leg { bytes32 conditionId; uint64 outcomeId; uint256 odds; }',
  'struct Quote { address bettor; Leg[] legs; uint256 stake; uint256 payout; uint256 nonce; uint64 expiresAt; }',
  'function place(Quote q, bytes signature) returns (bytes32)',
  'function ticketIdOf(address bettor, uint256 nonce) pure returns (bytes32)',
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function asset() view returns (address)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
]);

const DEPOSIT = 10_000n * UNIT;
const STAKE = 10n * UNIT;
const NET = STAKE - STAKE / 100n;

/** What the LP's shares redeem for at `nav`: ERC-4626 rounds down, with one virtual share and asset. */
const valueOf = (shares: bigint, nav: bigint, totalShares: bigint) => (shares * (nav + 1n)) / (totalShares + 1n);

let server: ServerProcess;

beforeAll(async () => {
  // The test polls the indexer's reads every 100 ms until they catch up: above the team tier's
  // default rate, and, when settlement takes over half a minute on a busy machine, above the
  // tournaments host's per-IP limit (the parlay routes live there). Neither limiter is under test.
  server = await startServer({ RATE_LIMIT_TEAM_PER_MIN: '100000', TOURNAMENTS_IP_LIMIT_PER_MIN: '100000' });
}, 120_000);
afterAll(() => server?.stop());

/** A fresh EOA with gas on the embedded chain and `credits` of collateral. */
async function fundedWallet(credits: bigint): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await server.fundGas(account.address);
  await server.grantCredits(account.address, credits);
  return account;
}

/** Sends `functionName` from `account` and waits for a successful receipt. */
async function send(
  account: PrivateKeyAccount,
  address: Address,
  abi: readonly unknown[],
  functionName: string,
  args: readonly unknown[],
) {
  const wallet = createWalletClient({ account, transport: http(server.rpcUrl) });
  const { request } = await server.chain.simulateContract({ address, abi, functionName, args, account } as never);
  const hash = await wallet.writeContract({ ...(request as object), account, chain: null } as never);
  const receipt = await server.chain.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe('success');
}

describe('parlays through the SDK', () => {
  it('walks the catalogue, validates legs, and is refused a quote by an empty pool', async () => {
    const { client, address } = await signedInClient(server, 'parlay_e2e');
    const { markets } = await client.parlay.markets();
    const open = markets.filter((m) => m.status === 'open');
    expect(open.length).toBeGreaterThanOrEqual(2);

    const legs = [];
    for (const m of open.slice(0, 2)) {
      const detail = await client.parlay.market({ params: { marketId: m.marketId } });
      const result = detail.conditions.find((c) => c.kind === 'FULL_TIME_RESULT');
      expect(result?.outcomes).toHaveLength(3);
      // The SDK sends the id as the catalogue gives it; a shorter hex would be left-padded by the server.
      legs.push({ conditionId: result!.conditionId, outcomeId: 1 });
    }
    const checked = await client.parlay.validateLegs({ body: { legs } });
    expect(checked.valid).toBe(true);
    expect(checked.combinedOdds).toMatch(/^[1-9][0-9]*\.[0-9]{2,}$/);

    const duplicate = await client.parlay
      .validateLegs({ body: { legs: [legs[0]!, legs[0]!] } })
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(ApiError);
    expect((duplicate as ApiError).code).toBe('LEGS_INVALID');

    // No LP has deposited: the pool cannot carry any payout.
    const refused = await client.parlay
      .quote({ body: { bettor: address, legs, stake: STAKE.toString() } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('EXPOSURE_LIMIT');

    expect(await client.parlay.nonce({ params: { address } })).toMatchObject({ nonce: '0' });
    const pool = await client.lp.pool();
    expect(pool).toMatchObject({ cash: '0', nav: '0', sharePrice: '1.000000000000000000' });
    const add = await client.lp.addLiquidityQuote({ body: { amount: (100n * UNIT).toString() } });
    expect(add.shares).toBe((100n * UNIT).toString());
    const preview = await client.parlay.feesPreview({ params: { amount: STAKE.toString() } });
    expect(preview).toMatchObject({ fee: (STAKE / 100n).toString(), netStake: NET.toString() });
  }, 90_000);

  it('pools an LP deposit, places quoted tickets from the bettor wallet, settles them after the games and pays the claim once', async () => {
    // The book is deployed at boot: the RPC's contracts answer names it, and its pool takes the credits.
    const book = server.contracts.parlayBook!;
    expect(book).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const collateral = await server.chain.readContract({ address: book, abi: BOOK_ABI, functionName: 'asset' });
    expect(getAddress(collateral)).toBe(getAddress(server.contracts.credits));

    // An LP deposits into the ERC-4626 pool from its own wallet.
    const lp = await fundedWallet(DEPOSIT);
    await send(lp, collateral, erc20Abi, 'approve', [book, maxUint256]);
    await send(lp, book, BOOK_ABI, 'deposit', [DEPOSIT, lp.address]);
    const observer = new DuelkitClient({
      marketsUrl: server.marketsUrl,
      tournamentsUrl: server.tournamentsUrl,
      builderApiKey: server.builderKey,
      maxRetries: 0,
    });
    const pooled = await until(
      () => observer.lp.pool(),
      (p) => p.cash === DEPOSIT.toString(),
    );
    expect(pooled).toMatchObject({ nav: DEPOSIT.toString(), totalShares: DEPOSIT.toString() });
    expect(await observer.lp.position({ params: { address: lp.address } })).toMatchObject({
      shares: DEPOSIT.toString(),
      value: DEPOSIT.toString(),
      deposited: DEPOSIT.toString(),
      pnl: '0',
    });

    // The bettor signs in with its own key and places from that wallet (msg.sender == bettor).
    const bettor = await fundedWallet(1_000n * UNIT);
    const client = new DuelkitClient({
      marketsUrl: server.marketsUrl,
      tournamentsUrl: server.tournamentsUrl,
      builderApiKey: server.builderKey,
      signer: bettor,
      maxRetries: 0,
    });
    await client.auth.signIn({ username: 'parlay_bettor' });
    await send(bettor, collateral, erc20Abi, 'approve', [book, maxUint256]);

    const { markets } = await client.parlay.markets();
    const games = markets.filter((m) => m.status === 'open').slice(0, 2);
    const conditions: Hex[] = [];
    let lastKickoff = 0;
    for (const m of games) {
      const detail = await client.parlay.market({ params: { marketId: m.marketId } });
      conditions.push(detail.conditions.find((c) => c.kind === 'FULL_TIME_RESULT')!.conditionId as Hex);
      lastKickoff = Math.max(lastKickoff, Date.parse(detail.startsAt));
    }

    // Every pair of full-time results, one ticket each: whatever the games end as, one ticket wins.
    const placed: { ticketId: Hex; payout: bigint }[] = [];
    for (const home of [0, 1, 2]) {
      for (const away of [0, 1, 2]) {
        const legs = [
          { conditionId: conditions[0]!, outcomeId: home },
          { conditionId: conditions[1]!, outcomeId: away },
        ];
        expect((await client.parlay.validateLegs({ body: { legs } })).valid).toBe(true);
        const quote = await client.parlay.quote({ body: { bettor: bettor.address, legs, stake: STAKE.toString() } });
        expect(getAddress(quote.typedData.domain.verifyingContract)).toBe(getAddress(book));
        const m = quote.typedData.message as {
          legs: { conditionId: Hex; outcomeId: number; odds: string }[];
          stake: string;
          payout: string;
          nonce: string;
          expiresAt: number;
        };
        const q = {
          bettor: bettor.address,
          legs: m.legs.map((l) => ({
            conditionId: l.conditionId,
            outcomeId: BigInt(l.outcomeId),
            odds: BigInt(l.odds),
          })),
          stake: BigInt(m.stake),
          payout: BigInt(m.payout),
          nonce: BigInt(m.nonce),
          expiresAt: BigInt(m.expiresAt),
        };
        await send(bettor, book, BOOK_ABI, 'place', [q, quote.signature]);
        const ticketId = await server.chain.readContract({
          address: book,
          abi: BOOK_ABI,
          functionName: 'ticketIdOf',
          args: [bettor.address, q.nonce],
        });
        placed.push({ ticketId, payout: q.payout });
      }
    }

    for (const { ticketId, payout } of placed) {
      const status = await until(
        () => client.parlay.status({ params: { ticketId } }).catch(() => undefined),
        (s) => s?.status === 'open',
      );
      expect(status).toMatchObject({ legs: 2, legsResulted: 0 });
      expect(await client.parlay.ticket({ params: { ticketId } })).toMatchObject({
        status: 'open',
        payout: payout.toString(),
        claimable: false,
      });
    }
    const openPool = await observer.lp.pool();
    expect(openPool.cash).toBe((DEPOSIT + 9n * NET).toString());
    expect(openPool.openTickets).toBe(9);

    // The games end: the results job posts both results and settles every ticket.
    await server.advanceTo(lastKickoff + 3 * 3_600_000);
    const settled = [];
    for (const { ticketId } of placed) {
      settled.push(
        await until(
          () => client.parlay.ticket({ params: { ticketId } }),
          (t) => t.status !== 'open',
          60_000,
        ),
      );
    }
    expect(settled.every((t) => ['won', 'lost', 'refunded'].includes(t.status))).toBe(true);
    const won = settled.filter((t) => t.status === 'won');
    expect(won.length).toBeGreaterThanOrEqual(1);
    expect(settled.filter((t) => t.status === 'lost').every((t) => t.owed === '0' && !t.claimable)).toBe(true);

    // The pool keeps every net stake and pays every won payout (a refund hands back the net stake).
    let expectedCash = DEPOSIT;
    for (const t of settled) {
      expectedCash += NET;
      if (t.status === 'won') expectedCash -= BigInt(t.owed);
      if (t.status === 'refunded') expectedCash -= NET;
    }
    const settledPool = await until(
      () => observer.lp.pool(),
      (p) => p.openTickets === 0 && p.cash === expectedCash.toString(),
    );
    expect(settledPool.nav).toBe(expectedCash.toString());
    const lpValue = valueOf(DEPOSIT, expectedCash, DEPOSIT);
    expect(
      await server.chain.readContract({
        address: book,
        abi: BOOK_ABI,
        functionName: 'convertToAssets',
        args: [DEPOSIT],
      }),
    ).toBe(lpValue);
    expect(await observer.lp.position({ params: { address: lp.address } })).toMatchObject({
      shares: DEPOSIT.toString(),
      value: lpValue.toString(),
      deposited: DEPOSIT.toString(),
      pnl: (lpValue - DEPOSIT).toString(),
    });

    // The won ticket's claim pays exactly what it is owed; a retry under the same key replays it.
    const winner = won[0]!;
    expect(winner.claimable).toBe(true);
    const owed = BigInt(winner.owed);
    expect(owed).toBeGreaterThan(0n);
    const before = await server.balance(bettor.address);
    const claim = await client.parlay.claim(
      { params: { ticketId: winner.ticketId }, body: {} },
      { idempotencyKey: `claim-${winner.ticketId}` },
    );
    expect(claim).toMatchObject({ ticketId: winner.ticketId, amount: owed.toString(), status: 'submitted' });
    const replay = await client.parlay.claim(
      { params: { ticketId: winner.ticketId }, body: {} },
      { idempotencyKey: `claim-${winner.ticketId}` },
    );
    expect(replay.txHash).toBe(claim.txHash);
    const receipt = await server.chain.waitForTransactionReceipt({ hash: claim.txHash as Hash, pollingInterval: 50 });
    expect(receipt.status).toBe('success');
    expect((await server.balance(bettor.address)) - before).toBe(owed);

    await until(
      () => client.parlay.status({ params: { ticketId: winner.ticketId } }),
      (s) => s.status === 'claimed',
    );
    const again = await client.parlay
      .claim({ params: { ticketId: winner.ticketId }, body: {} })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ApiError);
    expect((again as ApiError).code).toBe('ALREADY_CLAIMED');
    // A claim moves owed money out of the book, not the pool's: cash and the LP's value stay put.
    expect(await observer.lp.pool()).toMatchObject({ cash: expectedCash.toString(), nav: expectedCash.toString() });
    expect((await observer.lp.position({ params: { address: lp.address } })).value).toBe(lpValue.toString());
  }, 90_000);
});
