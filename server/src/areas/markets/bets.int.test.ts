import { createPublicClient, createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollateralTokenAbi } from '../../adapters/chain/artifacts/CollateralToken.js';
import { DuelMarketsAbi } from '../../adapters/chain/artifacts/DuelMarkets.js';
import { OPERATOR_KEY, startDevChain } from '../../../test/support/chain.js';
import { confirmedMarket, fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';

async function post(
  server: TestServer,
  token: string,
  path: string,
  body: unknown,
  key?: string,
  extra: Record<string, string> = {},
) {
  const res = await fetch(`${server.marketsUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-builder-api-key': server.builderKey,
      authorization: `Bearer ${token}`,
      ...(key ? { 'idempotency-key': key } : {}),
      ...extra,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function estimate(server: TestServer, token: string, duelId: string, amount: bigint, slippageBps = 100) {
  const quote = await post(server, token, '/svc/user/bets/estimate-buy', {
    duelId,
    optionIndex: 0,
    betAmountUsdc: amount.toString(),
    slippageBps,
  });
  const est = quote.body['estimate'] as Record<string, string>;
  return {
    estimate: est,
    duelId,
    duelType: 'PREDICTION',
    bet: 'YES',
    optionIndex: 0,
    betAmount: est['amountIn'],
    betAmountUsdc: est['amountIn'],
    slippageBps,
  };
}

const trades = async (server: TestServer, duelId: string) =>
  Number(
    (
      await server.container.orm.em
        .fork()
        .getConnection()
        .execute<{ n: string }[]>('select count(*) as n from trades where duel_id = ?', [duelId])
    )[0]?.n,
  );

describe('placing bets', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      INDEXER_INTERVAL_MS: '200',
      JOBS_ENABLED: 'true',
      GEO_COUNTRY_HEADER: 'cf-ipcountry',
      GEO_BLOCKED_COUNTRIES: 'US',
      // Several hundred requests in a minute under one builder key: the limiter is not under test here.
      RATE_LIMIT_TEAM_PER_MIN: '100000',
    });
  }, 120_000);
  afterAll(() => server?.close());

  it('turns 100 concurrent identical requests with one Idempotency-Key into exactly one trade', async () => {
    const creator = await fundedUser(server.container, server.builderKey, 'conc_creator');
    const duelId = await confirmedMarket(server.container, creator);
    const bettor = await fundedUser(server.container, server.builderKey, 'conc_bettor');
    const body = await estimate(server, bettor.token, duelId, 10n * UNIT);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => post(server, bettor.token, '/svc/user/bets/create', body, 'one-logical-bet')),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created.length + answers.filter((a) => a.body['code'] === 'IDEMPOTENCY_KEY_IN_FLIGHT').length).toBe(100);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((a) => JSON.stringify(a.body))).size).toBe(1);
    const onChain = await server.container.chain.sharesOf(duelId, bettor.address as `0x${string}`, 0);
    expect(onChain.toString()).toBe(body.estimate['sharesOut']);
    await until(
      () => trades(server, duelId),
      (n) => n >= 1,
    );
    await new Promise((r) => setTimeout(r, 600)); // a few more indexer rounds: still one
    expect(await trades(server, duelId)).toBe(1);
  }, 90_000);

  it('refuses at once the bets a wallet cannot fund counting those in flight: 10 × 20 from 100 → 5 placed, 5 refused, none reverted, one approval', async () => {
    const creator = await fundedUser(server.container, server.builderKey, 'od_creator');
    const duelId = await confirmedMarket(server.container, creator);
    const bettor = await fundedUser(server.container, server.builderKey, 'od_bettor', 100n * UNIT);
    // A wide slippage, so each bet's floor tolerates the others moving the price.
    const wide = await Promise.all(
      Array.from({ length: 10 }, () => estimate(server, bettor.token, duelId, 20n * UNIT, 5000)),
    );
    const answers = await Promise.all(
      wide.map((b, i) => post(server, bettor.token, '/svc/user/bets/create', b, `overdraw-${i}`)),
    );
    const placed = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(placed).toHaveLength(5);
    expect(refused.map((a) => [a.status, a.body['code']])).toEqual(Array(5).fill([400, 'INSUFFICIENT_CREDITS']));
    expect(refused[0]?.body['details']).toMatchObject({ required: (20n * UNIT).toString() });
    const sql = server.container.orm.em.fork().getConnection();
    const writes = async () =>
      sql.execute<{ kind: string; status: string }[]>(
        'select kind, status from chain_txs where account = ? order by id',
        [bettor.address.toLowerCase()],
      );
    const settled = await until(writes, (rows) => rows.every((r) => r.status === 'mined' || r.status === 'reverted'));
    expect(settled.filter((r) => r.kind === 'markets.buy').map((r) => r.status)).toEqual(Array(5).fill('mined'));
    expect(settled.filter((r) => r.kind === 'erc20.approve')).toHaveLength(1);
    expect(settled.filter((r) => r.status === 'reverted')).toHaveLength(0);
    const balance = await server.container.chain.collateralBalance('credits', bettor.address as `0x${string}`);
    expect(balance).toBe(0n);
  }, 90_000);

  it('rejects an altered or someone else’s estimate, a stake below the minimum and a wrong tokenDecimals with 4xx codes', async () => {
    const creator = await fundedUser(server.container, server.builderKey, 'rej_creator');
    const duelId = await confirmedMarket(server.container, creator);
    const bettor = await fundedUser(server.container, server.builderKey, 'rej_bettor');
    const body = await estimate(server, bettor.token, duelId, 10n * UNIT);
    const altered = { ...body, estimate: { ...body.estimate, minSharesOut: '1' } };
    expect((await post(server, bettor.token, '/svc/user/bets/create', altered)).body['code']).toBe('QUOTE_INVALID');
    // An estimate is bound to the trader it was issued to: another user cannot place it.
    expect(body.estimate['trader']).toBe(bettor.address);
    const other = await fundedUser(server.container, server.builderKey, 'rej_other');
    const stolen = await post(server, other.token, '/svc/user/bets/create', body);
    expect(stolen).toMatchObject({ status: 403, body: { code: 'QUOTE_NOT_YOURS' } });
    const decimals = await post(server, bettor.token, '/svc/user/bets/create', { ...body, tokenDecimals: 6 });
    expect(decimals.status).toBe(400);
    expect(decimals.body['fieldErrors']).toHaveProperty(['body.tokenDecimals']);
    const small = await post(server, bettor.token, '/svc/user/bets/estimate-buy', {
      duelId,
      optionIndex: 0,
      betAmountUsdc: (4n * UNIT).toString(),
      slippageBps: 100,
    });
    expect(small.status).toBe(201);
    expect(small.body).toMatchObject({ success: false, code: 'BET_BELOW_MINIMUM' });
    const broke = await fundedUser(server.container, server.builderKey, 'rej_broke', 0n);
    const unfunded = await post(
      server,
      broke.token,
      '/svc/user/bets/create',
      await estimate(server, broke.token, duelId, 10n * UNIT),
    );
    expect(unfunded).toMatchObject({ status: 400, body: { code: 'INSUFFICIENT_CREDITS' } });
    const soon = await post(server, creator.token, '/svc/user/duels/create', {
      question: 'Too soon?',
      category: 'Football',
      startTime: new Date(Date.now() + 60_000).toISOString(),
      endTime: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(soon.status).toBe(400);
    expect(soon.body['code']).toBe('START_TIME_TOO_SOON');
    expect(soon.body['details']).toHaveProperty('minStartTime');
    const rowId = (await server.container.markets.repo.byDuelId(duelId))?.id ?? '';
    const byRowId = await fetch(`${server.marketsUrl}/svc/public/duels/get-duel-by-id/${rowId}`, {
      headers: { 'x-builder-api-key': server.builderKey },
    });
    expect(byRowId.status).toBe(404);
    expect(((await byRowId.json()) as { message: string }).message).toContain('That is the database id');
  }, 90_000);

  it('refuses trades on a usdc market from a blocked country, and never on a credits market', async () => {
    const creator = await fundedUser(server.container, server.builderKey, 'geo_creator');
    await server.container.chain.mint('usdc', creator.address as `0x${string}`, 1_000n * UNIT);
    const usdcMarket = await confirmedMarket(server.container, creator, { collateralStack: 'usdc' });
    const creditsMarket = await confirmedMarket(server.container, creator);
    const bettor = await fundedUser(server.container, server.builderKey, 'geo_bettor');
    const quote = (duelId: string, country: string) =>
      post(
        server,
        bettor.token,
        '/svc/user/bets/estimate-buy',
        { duelId, optionIndex: 0, betAmountUsdc: (5n * UNIT).toString(), slippageBps: 100 },
        undefined,
        { 'cf-ipcountry': country },
      );
    expect(await quote(usdcMarket, 'US')).toMatchObject({ status: 403, body: { code: 'GEO_BLOCKED' } });
    expect(await quote(usdcMarket, 'PT')).toMatchObject({ status: 201, body: { success: true } });
    expect(await quote(creditsMarket, 'US')).toMatchObject({ status: 201, body: { success: true } });
  }, 90_000);
});

describe('indexing across a restart', () => {
  it('resumes from its cursor against the same PostgreSQL with no duplicate or missed trade', async () => {
    const chain = await startDevChain();
    const env = {
      CHAIN_RPC_URL: chain.rpcUrl,
      CHAIN_CONTRACTS: JSON.stringify(chain.addresses),
      CHAIN_OPERATOR_KEY: OPERATOR_KEY,
      CHAIN_CONFIRMATIONS: '0',
      INDEXER_INTERVAL_MS: '200',
      JOBS_ENABLED: 'true',
    };
    const first = await startTestServer(env);
    let second: TestServer | undefined;
    try {
      const creator = await fundedUser(first.container, first.builderKey, 'rs_creator');
      const duelId = await confirmedMarket(first.container, creator);
      const bettor = await fundedUser(first.container, first.builderKey, 'rs_bettor');
      for (let i = 0; i < 3; i++) {
        const placed = await post(
          first,
          bettor.token,
          '/svc/user/bets/create',
          await estimate(first, bettor.token, duelId, 6n * UNIT),
        );
        expect(placed.status).toBe(201);
      }
      await until(
        () => trades(first, duelId),
        (n) => n === 3,
      );
      await first.stop();

      // While no server runs, the chain moves on.
      const outsider = privateKeyToAccount(generatePrivateKey());
      await chain.setBalance(outsider.address, UNIT);
      await chain.mint('credits', outsider.address, 100n * UNIT);
      const wallet = createWalletClient({ transport: http(chain.rpcUrl), account: outsider });
      const pub = createPublicClient({ transport: http(chain.rpcUrl) });
      const send = async (hash: Promise<`0x${string}`>) => pub.waitForTransactionReceipt({ hash: await hash });
      await send(
        wallet.writeContract({
          address: chain.addresses.credits,
          abi: CollateralTokenAbi,
          functionName: 'approve',
          args: [chain.addresses.markets, 10n ** 30n],
          chain: null,
        }),
      );
      for (let i = 0; i < 2; i++) {
        await send(
          wallet.writeContract({
            address: chain.addresses.markets,
            abi: DuelMarketsAbi,
            functionName: 'buy',
            args: [duelId, 1, 5n * UNIT, 0n],
            chain: null,
          }),
        );
      }

      second = await startTestServer({ ...env, DATABASE_URL: first.database.url });
      const onChain = (
        await second.container.chain.marketEvents(0n, await second.container.chain.blockNumber())
      ).filter((e) => e.duelId.toLowerCase() === duelId && (e.kind === 'bought' || e.kind === 'sold')).length;
      expect(onChain).toBe(5);
      const server = second;
      await until(
        () => trades(server, duelId),
        (n) => n >= 5,
      );
      await new Promise((r) => setTimeout(r, 600));
      expect(await trades(server, duelId)).toBe(5);
      const distinct = await server.container.orm.em
        .fork()
        .getConnection()
        .execute<{ n: string }[]>('select count(distinct (tx_hash, log_index)) as n from trades where duel_id = ?', [
          duelId,
        ]);
      expect(Number(distinct[0]?.n)).toBe(5);
    } finally {
      await second?.close();
      await first.database.drop();
      await chain.close();
    }
  }, 120_000);
});
