import { createPublicClient, createWalletClient, http, type Address, type Hash, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollateralTokenAbi } from '../../adapters/chain/artifacts/CollateralToken.js';
import { ParlayBookAbi } from '../../adapters/chain/artifacts/ParlayBook.js';
import type { ViemChainAdapter } from '../../adapters/chain/viem-chain.adapter.js';
import { ManualClock } from '../../platform/clock.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import type { Body } from '../../../test/support/http.js';
import { TOURNAMENT_ENV, UNIT, tournamentsApi } from '../tournaments/tournaments.test-kit.js';

// The server's clock starts at the wall time: the embedded chain stamps its blocks with the wall
// time, and the contract checks a quote's expiry (the server's time + its TTL) against the block's.
// The fake calendar kicks off a game every even hour, so the next game may have closed already
// (PARLAY_MIN_LEAD_SECONDS before it): the ticket takes open games only.
const T0 = Date.now();
const clock = new ManualClock(T0);
let server: TestServer;
const api = tournamentsApi(() => server);
const bettor = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());
let token: string;
let otherToken: string;
let book: Address;
let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
let ticketId: Hex;

const mined = (hash: Hash) => pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });

async function userWith(eoa: Address, username: string) {
  const c = server.container;
  const tenant = await c.builderKeys.resolve(server.builderKey);
  const user = await c.identity.users.create({ builderAppId: tenant!.builderAppId, eoa, username });
  return (await c.identity.users.session(user)).token;
}

async function send(functionName: string, address: Address, abi: readonly unknown[], args: readonly unknown[]) {
  const { request } = await pub.simulateContract({ address, abi, functionName, args, account: bettor } as never);
  const receipt = await mined(
    await wallet.writeContract({ ...(request as object), account: bettor, chain: null } as never),
  );
  expect(receipt.status).toBe('success');
}

async function index() {
  const indexer = server.container.parlay.indexer!;
  for (let i = 0; i < 5; i++) if ((await indexer.runOnce()).caughtUp) return;
}

beforeAll(async () => {
  server = await startTestServer({ ...TOURNAMENT_ENV }, { clock });
  const c = server.container;
  book = c.chain.addresses.parlayBook!;
  const transport = http((c.chain as unknown as ViemChainAdapter).embeddedRpcUrl);
  pub = createPublicClient({ transport });
  wallet = createWalletClient({ transport });
  [token, otherToken] = await Promise.all([
    userWith(bettor.address, 'ticket_bettor'),
    userWith(other.address, 'ticket_other'),
  ]);
  await mined(await c.chain.mint('credits', bettor.address, 10_000n * UNIT));
  await c.chain.fundGas(bettor.address, 10n ** 18n);
  await send('approve', c.chain.addresses.credits, CollateralTokenAbi, [book, 2n ** 255n]);
  // The bettor is also the pool's LP here: a deposit on the book is indexed into the pool's ledger.
  await send('deposit', book, ParlayBookAbi, [5_000n * UNIT, bettor.address]);
  await index();
}, 120_000);
afterAll(() => server?.close());

describe('parlay tickets over HTTP', () => {
  it('deploys the book at boot: quotes need no configuration, and the pool reads the indexed deposit', async () => {
    const pool = await api('/api/lp/pool');
    expect(pool.body).toMatchObject({ cash: (5_000n * UNIT).toString(), totalShares: (5_000n * UNIT).toString() });
  });

  it('places a quoted ticket on chain, indexes it, settles it from posted results and pays its claim once', async () => {
    const markets = (await api('/api/parlay/markets')).body['markets'] as Body[];
    const legs = [];
    for (const m of markets.filter((x) => x['status'] === 'open').slice(0, 2)) {
      const detail = await api(`/api/parlay/markets/${m['marketId'] as string}`);
      const result = (detail.body['conditions'] as Body[]).find((x) => x['kind'] === 'FULL_TIME_RESULT')!;
      legs.push({ conditionId: result['conditionId'] as Hex, outcomeId: 0 });
    }
    const quoted = await api('/api/parlay/quote', {
      token,
      body: { bettor: bettor.address, legs, stake: (10n * UNIT).toString() },
    });
    expect(quoted.status).toBe(201);
    const message = (quoted.body['typedData'] as Body)['message'] as {
      legs: { conditionId: Hex; outcomeId: number; odds: string }[];
      stake: string;
      payout: string;
      nonce: string;
      expiresAt: number;
    };
    const q = {
      bettor: bettor.address,
      legs: message.legs.map((l) => ({
        conditionId: l.conditionId,
        outcomeId: BigInt(l.outcomeId),
        odds: BigInt(l.odds),
      })),
      stake: BigInt(message.stake),
      payout: BigInt(message.payout),
      nonce: BigInt(message.nonce),
      expiresAt: BigInt(message.expiresAt),
    };
    await send('place', book, ParlayBookAbi, [q, quoted.body['signature']]);
    const placed: unknown = await pub.readContract({
      address: book,
      abi: ParlayBookAbi,
      functionName: 'ticketIdOf',
      args: [bettor.address, q.nonce],
    });
    ticketId = placed as Hex;
    expect((await api(`/api/parlay/ticket/${ticketId}`)).status).toBe(404);
    await index();

    const ticket = await api(`/api/parlay/ticket/${ticketId}`);
    expect(ticket.body).toMatchObject({ status: 'open', payout: message.payout, claimable: false });
    expect((await api(`/api/parlay/${ticketId}`)).body).toEqual(ticket.body);
    expect((await api(`/api/parlay/quote/${quoted.body['quoteId'] as string}`)).body['status']).toBe('placed');
    expect((await api(`/api/parlay/status/${ticketId}`)).body).toMatchObject({
      status: 'open',
      legs: 2,
      legsResulted: 0,
    });
    const mine = await api('/api/parlay/tickets', { token });
    expect((mine.body['data'] as Body[]).map((t): unknown => t['ticketId'])).toEqual([ticketId]);
    expect((await api(`/api/parlay/bettor/${bettor.address}`)).body['pagination']).toMatchObject({ total: 1 });
    expect((await api('/api/parlay/fees/stats')).body).toMatchObject({
      pending: (UNIT / 10n).toString(),
      tickets: 1,
    });
    const compartments = await api('/api/lp/compartments');
    expect((compartments.body['compartments'] as Body[])[0]).toMatchObject({ openTickets: 1 });

    // Refusals before the results: another bettor, then a leg still waiting.
    const foreign = await api(`/api/parlay/claim/${ticketId}`, { method: 'POST', token: otherToken, body: {} });
    expect([foreign.status, foreign.body['code']]).toEqual([403, 'FORBIDDEN']);
    const early = await api(`/api/parlay/claim/${ticketId}`, { method: 'POST', token, body: {} });
    expect([early.status, early.body['code']]).toEqual([409, 'TICKET_NOT_SETTLED']);

    // The first leg wins, the second game is void: the payout is re-priced over the first leg.
    const port = (server.container.chain as unknown as ViemChainAdapter).parlayBook(book);
    await mined(await port.postResult(legs[0]!.conditionId, false, 0, { key: `test:result:${legs[0]!.conditionId}` }));
    await mined(await port.postResult(legs[1]!.conditionId, true, 0, { key: `test:result:${legs[1]!.conditionId}` }));
    await index();
    const settled = await server.container.parlay.settlement!.runOnce();
    expect(settled.settled).toBe(1);
    // The settlement is a chain write: read once the indexer has seen it.
    let won = await api(`/api/parlay/ticket/${ticketId}`);
    for (let i = 0; i < 100 && won.body['status'] === 'open'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await index();
      won = await api(`/api/parlay/ticket/${ticketId}`);
    }
    expect(won.body).toMatchObject({ status: 'won', claimable: true });
    expect((won.body['legs'] as Body[]).map((l): unknown => l['result'])).toEqual(['won', 'void']);
    const owed = BigInt(won.body['owed'] as string);
    expect(owed).toBeLessThan(BigInt(message.payout));

    const before = await pub.readContract({
      address: server.container.chain.addresses.credits,
      abi: CollateralTokenAbi,
      functionName: 'balanceOf',
      args: [bettor.address],
    });
    const claim = await api(`/api/parlay/claim/${ticketId}`, {
      method: 'POST',
      token,
      body: {},
      headers: { 'idempotency-key': 'claim-1' },
    });
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ ticketId, amount: owed.toString(), status: 'submitted' });
    const replay = await api(`/api/parlay/claim/${ticketId}`, {
      method: 'POST',
      token,
      body: {},
      headers: { 'idempotency-key': 'claim-1' },
    });
    expect(replay.body['txHash']).toBe(claim.body['txHash']);
    await mined(claim.body['txHash'] as Hash);
    const after = await pub.readContract({
      address: server.container.chain.addresses.credits,
      abi: CollateralTokenAbi,
      functionName: 'balanceOf',
      args: [bettor.address],
    });
    expect(after - before).toBe(owed);
    await index();
    expect((await api(`/api/parlay/status/${ticketId}`)).body).toMatchObject({ status: 'claimed', claimable: false });
    const again = await api(`/api/parlay/claim/${ticketId}`, { method: 'POST', token, body: {} });
    expect([again.status, again.body['code']]).toEqual([409, 'ALREADY_CLAIMED']);

    const history = await api(`/api/parlay/history?bettor=${bettor.address}`);
    expect((history.body['data'] as Body[]).map((t): unknown => t['status'])).toEqual(['claimed']);
    const winnings = await api('/api/parlay/winnings', { token });
    expect(winnings.body).toMatchObject({ won: owed.toString(), claimed: owed.toString(), unclaimed: '0' });
    const stats = await api(`/api/parlay/users/${bettor.address}/stats`);
    expect(stats.body).toMatchObject({ tickets: 1, won: owed.toString(), pnl: (owed - 10n * UNIT).toString() });
    expect((await api('/api/parlay/fees/stats')).body).toMatchObject({ earned: (UNIT / 10n).toString(), pending: '0' });
    // The pool's cash moved by exactly the ticket's result: net stake in, re-priced payout out.
    const pool = await api('/api/lp/pool');
    expect(pool.body['cash']).toBe((5_000n * UNIT + (10n * UNIT - UNIT / 10n) - owed).toString());
  }, 120_000);

  it('refuses unknown tickets, malformed ids and lists without a bettor', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    expect((await api(`/api/parlay/ticket/${unknown}`)).status).toBe(404);
    expect((await api(`/api/parlay/status/${unknown}`)).status).toBe(404);
    expect((await api(`/api/parlay/${unknown}`)).status).toBe(404);
    expect((await api('/api/parlay/ticket/0x12')).status).toBe(400);
    const anonymous = await api('/api/parlay/tickets');
    expect([anonymous.status, anonymous.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await api('/api/parlay/history')).status).toBe(400);
    expect((await api('/api/parlay/winnings')).status).toBe(400);
    expect((await api('/api/parlay/users/0x12/stats')).status).toBe(400);
    expect((await api('/api/parlay/bettor/nope')).status).toBe(400);
    const claim = await api(`/api/parlay/claim/${unknown}`, { method: 'POST', token, body: {} });
    expect(claim.status).toBe(404);
    const anon = await api(`/api/parlay/claim/${unknown}`, { method: 'POST', body: {} });
    expect(anon.status).toBe(401);
    expect((await api('/api/lp/compartments')).body).toMatchObject({ model: 'weekly-ticket-rounds' });
  });
});
