import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import type { Body } from '../../../test/support/http.js';

const LIMIT = 100n * UNIT;
const FAILING = privateKeyToAccount(generatePrivateKey()).address;
const clock = new ManualClock(Date.now());
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(
    {
      WITHDRAW_DAILY_LIMIT_CREDITS: LIMIT.toString(),
      WITHDRAW_DAILY_LIMIT_USDC: LIMIT.toString(),
      BRIDGE_SIM_DELAY_MS: '60000',
      BRIDGE_SIM_FAIL_ADDRESSES: FAILING,
      GEO_COUNTRY_HEADER: 'x-test-country',
      GEO_BLOCKED_COUNTRIES: 'US',
      JOBS_ENABLED: 'false',
    },
    { clock },
  );
}, 120_000);
afterAll(() => server?.close());

async function call(
  path: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = { 'x-builder-api-key': server.builderKey, ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  const res = await fetch(`${server.marketsUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const user = async (name: string, credits = 1_000n * UNIT) => {
  const u = await fundedUser(server.container, server.builderKey, name, credits);
  return { ...u, addr: u.address as `0x${string}` };
};
const external = () => privateKeyToAccount(generatePrivateKey()).address;
const balance = (stack: 'credits' | 'usdc', a: `0x${string}`) => server.container.chain.collateralBalance(stack, a);
const units = (n: bigint) => (n * UNIT).toString();

async function adminToken(): Promise<string> {
  const email = `money-${Math.random().toString(36).slice(2)}@example.com`;
  await server.container.identity.admins.create(email, 'money admin password');
  const login = await call('/svc/admin/auth/login', { body: { email, password: 'money admin password' } });
  return login.body['token'] as string;
}

describe('withdrawals and the daily limit', () => {
  it('sends credits to an external address and refuses bad input with a code', async () => {
    const u = await user('wd_alice');
    const to = external();
    const sent = await call('/svc/user/withdraw', {
      body: { collateralStack: 'credits', amount: units(10n), toAddress: to },
      token: u.token,
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      collateralStack: 'credits',
      amount: units(10n),
      toAddress: to,
      status: 'submitted',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      dailyLimit: { limit: LIMIT.toString(), used: units(10n), remaining: units(90n), windowSeconds: 86_400 },
    });
    await until(
      () => balance('credits', to),
      (b) => b === 10n * UNIT,
    );
    await server.container.money.withdrawals.completeSubmitted();

    const body = (over: Record<string, unknown>) => ({
      collateralStack: 'credits',
      amount: units(1n),
      toAddress: to,
      ...over,
    });
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ toAddress: '0x1234' }, 400, 'VALIDATION_FAILED'],
      [{ amount: '0' }, 400, 'VALIDATION_FAILED'],
      [{ amount: '-5' }, 400, 'VALIDATION_FAILED'],
      [{ toAddress: u.addr }, 400, 'VALIDATION_FAILED'],
      [{ amount: units(5_000n) }, 400, 'INSUFFICIENT_BALANCE'],
      [{ collateralStack: 'gold' }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [over, status, code] of refusals) {
      const r = await call('/svc/user/withdraw', { body: body(over), token: u.token });
      expect([r.status, r.body['code']], JSON.stringify(over)).toEqual([status, code]);
    }
    expect((await call('/svc/user/withdraw', { body: body({}) })).status).toBe(401);
    const blocked = await call('/svc/user/withdraw', {
      body: body({ collateralStack: 'usdc' }),
      token: u.token,
      headers: { 'x-test-country': 'US' },
    });
    expect([blocked.status, blocked.body['code']]).toEqual([403, 'GEO_BLOCKED']);
  });

  it('holds the limit exactly under 10 concurrent withdrawals', async () => {
    const u = await user('wd_burst');
    const to = external();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call('/svc/user/withdraw', {
          body: { collateralStack: 'credits', amount: units(30n), toAddress: to },
          token: u.token,
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect([r.status, r.body['code']]).toEqual([422, 'DAILY_LIMIT_EXCEEDED']);
      expect(r.body['details']['remaining']).toBe(units(10n));
    }
    await until(
      () => balance('credits', to),
      (b) => b === 90n * UNIT,
    );
    const limit = await call(
      `/svc/user/withdrawal-requests/daily-limit?user=${u.addr}&collateralStack=credits&collateralMode=credits`,
      { token: u.token },
    );
    expect(limit.body).toMatchObject({ used: units(90n), remaining: units(10n), limit: LIMIT.toString() });
  });

  it('replays the stored answer for a repeated Idempotency-Key and sends once', async () => {
    const u = await user('wd_replay');
    const to = external();
    const key = `wd-${crypto.randomUUID()}`;
    const send = () =>
      call('/svc/user/withdraw', {
        body: { collateralStack: 'credits', amount: units(4n), toAddress: to },
        token: u.token,
        headers: { 'idempotency-key': key },
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body['id']).toBe(first.body['id']);
    await until(
      () => balance('credits', to),
      (b) => b === 4n * UNIT,
    );
    const limit = await call(
      `/svc/user/withdrawal-requests/daily-limit?user=${u.addr}&collateralStack=credits&collateralMode=credits`,
      { token: u.token },
    );
    expect(limit.body['used']).toBe(units(4n));
  });

  it('sends a withdrawal a crash left reserved, once', async () => {
    const u = await user('wd_crash');
    const to = external();
    // The process counted the withdrawal against the limit and died before sending it.
    const id = crypto.randomUUID();
    const reserved = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(
        `insert into withdrawals (id, user_id, address, collateral_stack, to_address, amount, status, created_at, updated_at)
       values (?, ?, ?, 'credits', ?, ?, 'reserved', ?, ?) returning id`,
        [id, u.user.id, u.addr, to, units(7n), new Date(clock.now()), new Date(clock.now())],
      );
    expect(reserved).toHaveLength(1);
    await server.container.money.withdrawals.completeSubmitted();
    expect(await balance('credits', to)).toBe(0n); // still within its own request's time
    clock.advance(61_000);
    await server.container.money.withdrawals.completeSubmitted();
    await server.container.money.withdrawals.completeSubmitted();
    await until(
      () => balance('credits', to),
      (b) => b === 7n * UNIT,
    );
    const [txs] = await server.container.orm.em
      .fork()
      .getConnection()
      .execute<{ n: string }[]>('select count(*) as n from chain_txs where intent_key = ? or retired_key = ?', [
        `withdraw:${id}`,
        `withdraw:${id}`,
      ]);
    expect(Number(txs?.n)).toBe(1);
  });

  it('rolls the 24 h window on the injected clock', async () => {
    const u = await user('wd_roll');
    const to = external();
    const first = await call('/svc/user/withdraw', {
      body: { collateralStack: 'credits', amount: units(60n), toAddress: to },
      token: u.token,
    });
    expect(first.status).toBe(200);
    const firstAt = Date.parse(first.body['createdAt'] as string);
    clock.advance(12 * 3_600_000);
    const second = await call('/svc/user/withdraw', {
      body: { collateralStack: 'credits', amount: units(60n), toAddress: to },
      token: u.token,
    });
    expect([second.status, second.body['details']?.['resetsAt']]).toEqual([
      422,
      new Date(firstAt + 86_400_000).toISOString(),
    ]);
    clock.advance(12 * 3_600_000 + 1);
    const third = await call('/svc/user/withdraw', {
      body: { collateralStack: 'credits', amount: units(60n), toAddress: to },
      token: u.token,
    });
    expect(third.status).toBe(200);
    expect(third.body['dailyLimit']).toMatchObject({ used: units(60n), remaining: units(40n) });
  });

  it('bridges usdc after the simulated delay, and gives it back when the bridge fails', async () => {
    const u = await user('wd_usdc', 0n);
    await server.container.chain.mint('usdc', u.addr, 50n * UNIT);
    const to = external();
    const sent = await call('/svc/user/withdraw', {
      body: { collateralStack: 'usdc', amount: units(20n), toAddress: to },
      token: u.token,
    });
    expect(sent.status).toBe(200);
    const failed = await call('/svc/user/withdraw', {
      body: { collateralStack: 'usdc', amount: units(5n), toAddress: FAILING },
      token: u.token,
    });
    expect(failed.status).toBe(200);
    await until(
      () => balance('usdc', u.addr),
      (b) => b === 25n * UNIT,
    );
    const row = (id: string) =>
      server.container.orm.em
        .fork()
        .getConnection()
        .execute<{ status: string }[]>('select status from withdrawals where id = ?', [id]);
    await server.container.money.withdrawals.completeSubmitted();
    expect((await row(sent.body['id'] as string))[0]?.status).toBe('submitted');
    clock.advance(61_000);
    await until(
      async () => (
        await server.container.money.withdrawals.completeSubmitted(),
        (await row(sent.body['id'] as string))[0]?.status
      ),
      (s) => s === 'completed',
    );
    expect((await row(failed.body['id'] as string))[0]?.status).toBe('failed');
    await until(
      () => balance('usdc', u.addr),
      (b) => b === 30n * UNIT,
    );
    // The failed one no longer counts against the limit.
    const limit = await call(
      `/svc/user/withdrawal-requests/daily-limit?user=${u.addr}&collateralStack=usdc&collateralMode=usdc`,
      { token: u.token },
    );
    expect(limit.body['used']).toBe(units(20n));
  });
});

describe('withdrawal requests', () => {
  it('pre-validates with every failing reason and proves the wallet by its bearer token', async () => {
    const u = await user('wr_pre');
    const r = await call('/svc/user/withdrawal-requests/pre-validate', {
      body: { collateralStack: 'credits', amount: units(5_000n), toAddress: u.addr },
      token: u.token,
    });
    expect(r.status).toBe(200);
    expect(r.body['valid']).toBe(false);
    expect(r.body['withinDailyLimit']).toBe(false);
    expect((r.body['reasons'] as { code: string }[]).map((x) => x.code).sort()).toEqual(
      ['DAILY_LIMIT_EXCEEDED', 'INSUFFICIENT_BALANCE', 'VALIDATION_FAILED'].sort(),
    );
    const fine = await call('/svc/user/withdrawal-requests/pre-validate', {
      body: { collateralStack: 'credits', amount: units(500n), toAddress: external() },
      token: u.token,
    });
    expect(fine.body).toMatchObject({ valid: false, withinDailyLimit: false, balance: units(1_000n) });
    // Over the limit only: a direct withdrawal is refused, a withdrawal request is not.
    expect((fine.body['reasons'] as { code: string }[]).map((x) => x.code)).toEqual(['DAILY_LIMIT_EXCEEDED']);
    const anonymous = await call('/svc/user/withdrawal-requests/pre-validate', {
      body: { collateralStack: 'credits', amount: units(1n), toAddress: external() },
    });
    expect([anonymous.status, anonymous.body['code']]).toEqual([401, 'UNAUTHENTICATED']);
    const other = await user('wr_other');
    const foreign = await call(
      `/svc/user/withdrawal-requests/daily-limit?user=${u.addr}&collateralStack=credits&collateralMode=credits`,
      { token: other.token },
    );
    expect(foreign.status).toBe(403);
    const mismatch = await call(
      `/svc/user/withdrawal-requests/daily-limit?user=${u.addr}&collateralStack=credits&collateralMode=usdc`,
      { token: u.token },
    );
    expect(mismatch.status).toBe(400);
    const anonLimit = await call(
      `/svc/user/withdrawal-requests/daily-limit?user=${u.addr}&collateralStack=credits&collateralMode=credits`,
    );
    expect(anonLimit.status).toBe(401);
  });

  it('records requests only for the caller, and an admin approval executes once', async () => {
    const bob = await user('wr_bob');
    const carol = await user('wr_carol');
    const to = external();
    const created = await call('/svc/user/withdrawal-requests', {
      body: { collateralStack: 'credits', amount: units(400n), toAddress: to, note: 'rent' },
      token: bob.token,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ user: bob.addr, status: 'pending', amount: units(400n), decision: null });
    const id = created.body['id'] as string;
    const invalid = await call('/svc/user/withdrawal-requests', {
      body: { collateralStack: 'credits', amount: '0', toAddress: to },
      token: bob.token,
    });
    expect([invalid.status, invalid.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect(
      (
        await call('/svc/user/withdrawal-requests', {
          body: { collateralStack: 'credits', amount: units(1n), toAddress: to },
        })
      ).status,
    ).toBe(401);

    const mine = await call('/svc/user/withdrawal-requests', { token: bob.token });
    expect((mine.body['data'] as Body[]).map((r) => r['id'] as string)).toEqual([id]);
    const theirs = await call('/svc/user/withdrawal-requests', { token: carol.token });
    expect(theirs.body['data']).toEqual([]);
    expect((await call('/svc/user/withdrawal-requests')).status).toBe(401);

    const admin = await adminToken();
    expect((await call('/svc/admin/withdrawal-requests', { token: bob.token })).status).toBe(401);
    const pending = await call(`/svc/admin/withdrawal-requests?status=pending&user=${bob.addr}`, { token: admin });
    expect((pending.body['data'] as Body[]).map((r) => r['id'] as string)).toEqual([id]);
    const noReason = await call(`/svc/admin/withdrawal-requests/${id}/decision`, {
      body: { decision: 'reject' },
      token: admin,
    });
    expect(noReason.status).toBe(400);
    const unknown = await call(`/svc/admin/withdrawal-requests/${crypto.randomUUID()}/decision`, {
      body: { decision: 'approve' },
      token: admin,
    });
    expect(unknown.status).toBe(404);
    const badId = await call('/svc/admin/withdrawal-requests/nope/decision', {
      body: { decision: 'approve' },
      token: admin,
    });
    expect(badId.status).toBe(400);

    const before = await balance('credits', bob.addr);
    const both = await Promise.all([
      call(`/svc/admin/withdrawal-requests/${id}/decision`, { body: { decision: 'approve' }, token: admin }),
      call(`/svc/admin/withdrawal-requests/${id}/decision`, {
        body: { decision: 'approve', reason: 'twice' },
        token: admin,
      }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const approved = both.find((r) => r.status === 200) as { body: Body };
    expect(approved.body).toMatchObject({
      status: 'approved',
      decision: { decision: 'approve', adminEmail: expect.any(String) },
    });
    expect((both.find((r) => r.status === 409) as { body: Body }).body['details']['status']).toBe('approved');
    // The job runs; a rerun (a retried job after a crash) finds the first write and sends nothing.
    await server.container.money.requests.execute(id);
    await server.container.money.requests.execute(id);
    await until(
      () => balance('credits', to),
      (b) => b === 400n * UNIT,
    );
    expect(await balance('credits', bob.addr)).toBe(before - 400n * UNIT);
    const done = await call('/svc/user/withdrawal-requests', { token: bob.token });
    expect(done.body['data'][0]).toMatchObject({ id, status: 'completed', txHash: expect.stringMatching(/^0x/) });
    // Above the limit, and not counted against it.
    const limit = await call(
      `/svc/user/withdrawal-requests/daily-limit?user=${bob.addr}&collateralStack=credits&collateralMode=credits`,
      { token: bob.token },
    );
    expect(limit.body['used']).toBe('0');

    const rejectMe = await call('/svc/user/withdrawal-requests', {
      body: { collateralStack: 'credits', amount: units(5n), toAddress: to },
      token: carol.token,
    });
    const rejected = await call(`/svc/admin/withdrawal-requests/${rejectMe.body['id']}/decision`, {
      body: { decision: 'reject', reason: 'destination under review' },
      token: admin,
    });
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      decision: { decision: 'reject', reason: 'destination under review' },
    });
    await server.container.money.requests.execute(rejectMe.body['id'] as string);
    expect(await balance('credits', to)).toBe(400n * UNIT);
  });
});
