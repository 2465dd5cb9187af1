import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betBody, postJson, type Caller } from '../../../test/support/bets.js';
import { marketsApi } from '../../../test/support/http.js';
import { fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import { chainNow, startTestServer, travelPast, type TestServer } from '../../../test/support/test-server.js';

let server: TestServer;
const api = marketsApi(() => server);
type User = Awaited<ReturnType<typeof fundedUser>> & { caller: Caller; addr: `0x${string}` };

beforeAll(async () => {
  // No background jobs: the test drives the indexer, so the claim path (not the payout job) pays.
  server = await startTestServer({
    DUEL_PUBLIC_LEAD_SECONDS: '0',
    DUEL_CONTEST_PERIOD_SECONDS: '0',
    DUEL_FEE_BPS: '100',
    JOBS_ENABLED: 'false',
  });
}, 120_000);
afterAll(() => server?.close());

async function user(name: string): Promise<User> {
  const u = await fundedUser(server.container, server.builderKey, name);
  return {
    ...u,
    addr: u.address as `0x${string}`,
    caller: { url: server.marketsUrl, builderKey: server.builderKey, token: u.token },
  };
}

async function index() {
  for (let i = 0; i < 20; i++) if ((await server.container.markets.indexer.runOnce()).caughtUp) return;
}

const duelRow = (duelId: string) => server.container.markets.repo.byDuelId(duelId);
const balance = (a: `0x${string}`) => server.container.chain.collateralBalance('credits', a);
const tradeCount = async (duelId: string) => {
  const [row] = await server.container.orm.em
    .fork()
    .getConnection()
    .execute<{ n: string }[]>('select count(*) as n from trades where duel_id = ?', [duelId]);
  return Number(row?.n);
};

/** A credits market by `creator`, with bets, ended and (unless `settle` is false) settled on `winner`. */
async function market(
  creator: User,
  bets: { who: User; option: number; units: bigint }[],
  opts: { endInMs?: number; settle?: boolean } = {},
) {
  const now = await chainNow(server);
  const endInMs = opts.endInMs ?? 600_000;
  const created = await postJson(creator.caller, '/svc/user/duels/create', {
    question: 'Does the claim pay once?',
    category: 'Football',
    startTime: new Date(now + 1_000).toISOString(),
    endTime: new Date(now + endInMs).toISOString(),
    collateralStack: 'credits',
  });
  expect(created.status).toBe(201);
  const duelId = created.body['duelId'] as `0x${string}`;
  await until(
    async () => (await index(), duelRow(duelId)),
    (d) => d?.chainState === 'confirmed',
  );
  for (const b of bets) {
    const placed = await postJson(
      b.who.caller,
      '/svc/user/bets/create',
      await betBody(b.who.caller, duelId, b.units * UNIT, b.option),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBeLessThan(300);
  }
  await until(
    async () => (await index(), tradeCount(duelId)),
    (n) => n === bets.length,
  );
  if (opts.settle === false) return duelId;
  const endTime = now + endInMs;
  // The market's end is passed by moving the server's and the chain's time, not by waiting for it.
  await travelPast(server, endTime + 1_000);
  const resolved = await postJson(creator.caller, '/svc/user/duels/resolve', {
    duelIds: [{ duelId, winningOptionIndex: 0 }],
  });
  expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
  await until(
    async () => (await index(), duelRow(duelId)),
    (d) => d?.status === 'settled',
  );
  return duelId;
}

let alice: User;
let bob: User;
let carol: User;
let dave: User;
let settled: `0x${string}`;
let open: `0x${string}`;

describe('claims of winnings and creator fees over HTTP', () => {
  beforeAll(async () => {
    [alice, bob, carol, dave] = await Promise.all([
      user('cl_alice'),
      user('cl_bob'),
      user('cl_carol'),
      user('cl_dave'),
    ]);
    settled = await market(alice, [
      { who: bob, option: 0, units: 20n },
      { who: carol, option: 1, units: 10n },
    ]);
    open = await market(alice, [{ who: bob, option: 0, units: 5n }], { endInMs: 3_600_000, settle: false });
  }, 120_000);

  it('refuses a claim without a bearer, with a malformed or unknown duelId, or on a market not settled', async () => {
    const noAuth = await api('/svc/user/withdraw/claim-winnings', { body: { duelId: settled } });
    expect(noAuth.status).toBe(401);
    const malformed = await api('/svc/user/withdraw/claim-winnings', { body: { duelId: 'abc' }, token: bob.token });
    expect(malformed.status).toBe(400);
    expect(malformed.body['code']).toBe('VALIDATION_FAILED');
    const extra = await api('/svc/user/withdraw/claim-winnings', { body: { duel: settled }, token: bob.token });
    expect(extra.status).toBe(400);
    const unknown = await api('/svc/user/withdraw/claim-winnings', {
      body: { duelId: `0x${'ab'.repeat(32)}` },
      token: bob.token,
    });
    expect(unknown.status).toBe(404);
    const notSettled = await api('/svc/user/withdraw/claim-winnings', { body: { duelId: open }, token: bob.token });
    expect(notSettled.status).toBe(409);
    expect(notSettled.body['code']).toBe('INVALID_STATE');
    expect(notSettled.body['details']['status']).toBe('open');
  });

  it('defers the creator’s payout until every other winner is paid', async () => {
    const r = await api('/svc/user/withdraw/claim-winnings', { body: { duelId: settled }, token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body['claims']).toEqual([{ duelId: settled, status: 'deferred', amount: null, txHash: null }]);
    expect(r.body['totalSubmitted']).toBe('0');
  });

  it('pays a winner exactly their winning shares, once, however often they claim', async () => {
    const shares = await server.container.chain.sharesOf(settled, bob.addr, 0);
    expect(shares).toBeGreaterThan((20n * UNIT * 99n) / 100n);
    const before = await balance(bob.addr);
    const first = await api('/svc/user/withdraw/claim-winnings', { body: {}, token: bob.token });
    expect(first.status).toBe(200);
    const claim = (first.body['claims'] as { duelId: string; txHash: string }[]).find((c) => c.duelId === settled);
    expect(claim).toEqual({
      duelId: settled,
      status: 'submitted',
      amount: shares.toString(),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(first.body['totalSubmitted']).toBe(shares.toString());
    const second = await api('/svc/user/withdraw/claim-winnings', { body: { duelId: settled }, token: bob.token });
    expect(second.status).toBe(200);
    const again = second.body['claims'][0];
    expect(['submitted', 'already_paid']).toContain(again.status);
    expect(again.txHash).toBe(claim?.txHash);
    await until(
      () => balance(bob.addr),
      (b) => b > before,
    );
    await index();
    const third = await api('/svc/user/withdraw/claim-winnings', { body: { duelId: settled }, token: bob.token });
    expect(third.body['claims'][0]).toMatchObject({ status: 'already_paid', amount: shares.toString() });
    expect(await balance(bob.addr)).toBe(before + shares);
    // Bob has nothing else to claim; the loser and an outsider are owed nothing.
    const all = await api('/svc/user/withdraw/claim-winnings', { body: {}, token: bob.token });
    expect(all.body['claims']).toEqual([]);
    for (const u of [carol, dave]) {
      const r = await api('/svc/user/withdraw/claim-winnings', { body: { duelId: settled }, token: u.token });
      expect(r.body['claims']).toEqual([{ duelId: settled, status: 'nothing_to_claim', amount: null, txHash: null }]);
    }
  });

  it('pays the creator the pool’s winning balance once the winners are paid', async () => {
    const owed = await server.container.chain.owed(settled, alice.addr);
    const pool = await server.container.chain.poolBalances(settled);
    expect(owed.amount).toBe(pool[0]);
    const before = await balance(alice.addr);
    const r = await api('/svc/user/withdraw/claim-winnings', { body: { duelId: settled }, token: alice.token });
    expect(r.body['claims'][0]).toMatchObject({ status: 'submitted', amount: owed.amount.toString() });
    await until(
      () => balance(alice.addr),
      (b) => b === before + owed.amount,
    );
  });

  it('records a payment sent before a crash once and never sends it again', async () => {
    const duelId = await market(alice, [{ who: dave, option: 0, units: 10n }]);
    const owed = await server.container.chain.owed(duelId, dave.addr);
    const before = await balance(dave.addr);
    // The process sent the payout (intent recorded by the chain pipeline) and died before its ledger knew.
    const sent = await server.container.chain.payout(duelId, dave.addr);
    await until(
      () => balance(dave.addr),
      (b) => b === before + owed.amount,
    );
    const claimed = await api('/svc/user/withdraw/claim-winnings', { body: { duelId }, token: dave.token });
    expect(claimed.status).toBe(200);
    expect(claimed.body['claims'][0]).toMatchObject({ duelId, status: 'already_paid' });
    await index();
    const later = await api('/svc/user/withdraw/claim-winnings', { body: { duelId }, token: dave.token });
    expect(later.body['claims'][0]).toMatchObject({
      status: 'already_paid',
      amount: owed.amount.toString(),
      txHash: sent,
    });
    const [txs] = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ n: string }[]>(
        `select count(*) as n from chain_txs where kind = 'markets.payout' and (intent_key = ? or retired_key = ?)`,
        [`markets.payout:${duelId}:${dave.addr.toLowerCase()}`, `markets.payout:${duelId}:${dave.addr.toLowerCase()}`],
      );
    expect(Number(txs?.n)).toBe(1);
    expect(await balance(dave.addr)).toBe(before + owed.amount);
  });

  it('lists creator fees per market and refuses a collateralMode that differs', async () => {
    const list = await api('/svc/user/withdraw/creator-fees?collateralStack=credits&collateralMode=credits', {
      token: alice.token,
    });
    expect(list.status).toBe(200);
    const row = (list.body['data'] as { duelId: string }[]).find((m) => m.duelId === settled) as Record<string, string>;
    // 1% of the 20 and 10 unit bets.
    expect(row).toMatchObject({
      status: 'claimable',
      accrued: ((3n * UNIT) / 10n).toString(),
      claimable: ((3n * UNIT) / 10n).toString(),
    });
    expect((list.body['data'] as { duelId: string }[]).find((m) => m.duelId === open)).toMatchObject({
      status: 'accruing',
      claimable: '0',
    });
    expect(BigInt(list.body['totalClaimable'] as string)).toBeGreaterThanOrEqual((3n * UNIT) / 10n);
    expect(list.body['pagination']).toMatchObject({ page: 1, limit: 20 });
    const none = await api('/svc/user/withdraw/creator-fees?collateralStack=credits&collateralMode=credits', {
      token: bob.token,
    });
    expect(none.body['data']).toEqual([]);
    expect(none.body['totalAccrued']).toBe('0');
    const mismatch = await api('/svc/user/withdraw/creator-fees?collateralStack=credits&collateralMode=usdc', {
      token: alice.token,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body['fieldErrors']['query.collateralMode']).toBeDefined();
    const missing = await api('/svc/user/withdraw/creator-fees?collateralStack=credits', { token: alice.token });
    expect(missing.status).toBe(400);
    expect((await api('/svc/user/withdraw/creator-fees?collateralStack=credits&collateralMode=credits')).status).toBe(
      401,
    );
  });

  it('pays a settled market’s fees to its creator once and refuses anyone else', async () => {
    const notYours = await api('/svc/user/withdraw/claim-fees', {
      body: { collateralStack: 'credits', duelId: settled },
      token: bob.token,
    });
    expect(notYours.status).toBe(403);
    const notSettled = await api('/svc/user/withdraw/claim-fees', {
      body: { collateralStack: 'credits', duelId: open },
      token: alice.token,
    });
    expect(notSettled.status).toBe(409);
    const badBody = await api('/svc/user/withdraw/claim-fees', {
      body: { collateralStack: 'gold' },
      token: alice.token,
    });
    expect(badBody.status).toBe(400);
    const fees = await server.container.chain.feesOwed(settled);
    expect(fees.amount).toBe((3n * UNIT) / 10n);
    const before = await balance(alice.addr);
    const first = await api('/svc/user/withdraw/claim-fees', {
      body: { collateralStack: 'credits', duelId: settled },
      token: alice.token,
    });
    expect(first.status).toBe(200);
    expect(first.body['claims'][0]).toMatchObject({
      duelId: settled,
      status: 'submitted',
      amount: fees.amount.toString(),
    });
    const txHash = first.body['claims'][0].txHash as string;
    const repeat = await api('/svc/user/withdraw/claim-fees', {
      body: { collateralStack: 'credits' },
      token: alice.token,
    });
    const same = (repeat.body['claims'] as { duelId: string; txHash: string; status: string }[]).find(
      (c) => c.duelId === settled,
    );
    expect(same?.txHash).toBe(txHash);
    // The "claim all" also paid the fees of Alice's other settled market, once.
    const others = (repeat.body['claims'] as { duelId: string; amount: string | null; status: string }[])
      .filter((c) => c.duelId !== settled && c.status === 'submitted')
      .reduce((sum, c) => sum + BigInt(c.amount ?? '0'), 0n);
    expect(others).toBeGreaterThan(0n);
    const expected = before + fees.amount + others;
    await until(
      () => balance(alice.addr),
      (b) => b === expected,
    );
    const list = await api('/svc/user/withdraw/creator-fees?collateralStack=credits&collateralMode=credits', {
      token: alice.token,
    });
    const row = (list.body['data'] as { duelId: string }[]).find((m) => m.duelId === settled);
    expect(row).toMatchObject({ status: 'paid', paidAmount: fees.amount.toString(), claimable: '0', txHash });
    const last = await api('/svc/user/withdraw/claim-fees', {
      body: { collateralStack: 'credits', duelId: settled },
      token: alice.token,
    });
    expect(last.body['claims'][0]).toMatchObject({ status: 'already_paid', txHash });
    expect(await balance(alice.addr)).toBe(expected);
  });
});
