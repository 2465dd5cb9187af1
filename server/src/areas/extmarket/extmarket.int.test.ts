import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWallet, type Body } from '../../../test/support/http.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { EXT_CONTRACTS } from '../../adapters/extmarket/extmarket.protocol.js';
import type { LocalExchange } from '../../adapters/extmarket/local-exchange/local-exchange.js';
import { ManualClock } from '../../platform/clock.js';

const BASE = '/svc/user/extmarket';
let server: TestServer;
let sim: LocalExchange;
const clock = new ManualClock(Date.now());

async function call(
  path: string,
  init: { method?: string; body?: unknown; token?: string; idempotencyKey?: string } = {},
): Promise<{ status: number; body: Body; headers: Headers }> {
  const headers: Record<string, string> = { 'x-builder-api-key': server.builderKey };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
  const res = await fetch(`${server.marketsUrl}${BASE}/${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
}

async function user(name: string): Promise<string> {
  const api = (path: string, init: { body?: unknown } = {}) =>
    fetch(`${server.marketsUrl}${path}`, {
      method: 'POST',
      headers: { 'x-builder-api-key': server.builderKey, 'content-type': 'application/json' },
      body: JSON.stringify(init.body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Body }));
  const res = await signUpWallet(api, name);
  return res.body['token'] as string;
}

/** Moves the exchange's clock far enough for relayer transactions to be mined and trades confirmed. */
const settle = () => clock.advance(10_000);

let alice: string;
let bob: string;
const market = () => sim.events()[0]!.markets[0]!;
const yes = () => market().tokens[0].tokenId;

beforeAll(async () => {
  server = await startTestServer(
    {
      EXTMARKET_BREAKER_THRESHOLD: '3',
      EXTMARKET_BREAKER_COOLDOWN_MS: '60000',
      // A retry of a request whose relayer answer was lost takes the key over after this long.
      IDEMPOTENCY_LOCK_TIMEOUT_MS: '1000',
      IDEMPOTENCY_WAIT_MS: '5000',
      RATE_LIMIT_TEAM_PER_MIN: '100000',
    },
    { clock },
  );
  sim = server.container.extmarket.local!.exchange;
  alice = await user('ext_alice');
  bob = await user('ext_bob');
}, 120_000);
afterAll(() => server?.close());

describe('external markets: credentials and wallets', () => {
  it('refuses a caller without a bearer token', async () => {
    expect((await call('auth-status')).status).toBe(401);
  });

  it('says nothing exists before credentials are derived, and asks for them first', async () => {
    const status = await call('auth-status', { token: alice });
    expect(status.body).toMatchObject({ hasCredentials: false, signerAddress: null, tradingWallet: null });
    const wallet = await call('wallet-status', { token: alice });
    expect([wallet.status, wallet.body['code']]).toEqual([409, 'EXTMARKET_NO_CREDENTIALS']);
  });

  it('derives credentials once, stores them without returning them, and rotates them', async () => {
    const first = await call('derive-credentials', { token: alice, body: {}, idempotencyKey: 'derive-alice' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      hasCredentials: true,
      walletKind: 'deposit-wallet',
      apiKeyActive: true,
      closedOnly: false,
      credentialsVersion: 0,
    });
    expect(JSON.stringify(first.body)).not.toMatch(/secret|passphrase/i);
    const again = await call('derive-credentials', { token: alice, body: {} });
    expect(again.body['signerAddress']).toBe(first.body['signerAddress']);
    const other = await call('derive-credentials', { token: alice, body: { walletKind: 'safe' } });
    expect([other.status, other.body['code']]).toEqual([409, 'EXTMARKET_WALLET_KIND_MISMATCH']);
    const bad = await call('derive-credentials', { token: alice, body: { walletKind: 'proxy' } });
    expect([bad.status, bad.body['code']]).toEqual([400, 'VALIDATION_FAILED']);

    const rotated = await call('refresh-credentials', { token: alice, body: {}, idempotencyKey: 'refresh-alice' });
    expect(rotated.body).toMatchObject({ credentialsVersion: 1, apiKeyActive: true });
    const status = await call('auth-status', { token: alice });
    expect(status.body).toMatchObject({ hasCredentials: true, credentialsVersion: 1, apiKeyActive: true });
  });

  it('deploys the deposit wallet through the relayer, whose transaction the caller polls', async () => {
    expect((await call('wallet-status', { token: alice })).body).toMatchObject({
      deployed: false,
      isTradingWallet: true,
    });
    const safe = await call('safe-status', { token: alice });
    expect(safe.body).toMatchObject({ walletKind: 'safe', deployed: false, isTradingWallet: false });
    const early = await call('approve-trading', { token: alice, body: {} });
    expect([early.status, early.body['code']]).toEqual([409, 'EXTMARKET_WALLET_NOT_DEPLOYED']);
    const wrongKind = await call('deploy-safe', { token: alice, body: {} });
    expect([wrongKind.status, wrongKind.body['code']]).toEqual([409, 'EXTMARKET_WALLET_KIND_MISMATCH']);

    const tx = await call('deploy-wallet', { token: alice, body: {}, idempotencyKey: 'deploy-alice' });
    expect(tx.body).toMatchObject({ state: 'STATE_NEW', type: 'WALLET-CREATE', operation: 'deploy-wallet' });
    const replay = await call('deploy-wallet', { token: alice, body: {}, idempotencyKey: 'deploy-alice' });
    expect(replay.body['transactionId']).toBe(tx.body['transactionId']);
    clock.advance(1_000);
    expect((await call(`relayer-tx/${tx.body['transactionId']}`, { token: alice })).body['state']).toBe(
      'STATE_EXECUTED',
    );
    clock.advance(2_000);
    expect((await call(`relayer-tx/${tx.body['transactionId']}`, { token: alice })).body['state']).toBe('STATE_MINED');
    expect((await call('wallet-status', { token: alice })).body['deployed']).toBe(true);
    const twice = await call('deploy-wallet', { token: alice, body: {} });
    expect([twice.status, twice.body['code']]).toEqual([409, 'EXTMARKET_WALLET_ALREADY_DEPLOYED']);
    const notMine = await call(`relayer-tx/${tx.body['transactionId']}`, { token: bob });
    expect([notMine.status, notMine.body['code']]).toEqual([404, 'EXTMARKET_RELAYER_TX_NOT_FOUND']);
  });

  it('lets a Safe user deploy a Safe', async () => {
    const carol = await user('ext_carol');
    await call('derive-credentials', { token: carol, body: { walletKind: 'safe' } });
    const tx = await call('deploy-safe', { token: carol, body: {} });
    expect(tx.body).toMatchObject({ type: 'SAFE-CREATE', operation: 'deploy-safe' });
    settle();
    expect((await call('safe-status', { token: carol })).body).toMatchObject({ deployed: true, isTradingWallet: true });
  });
});

describe('external markets: money in, trading, money out', () => {
  let wallet: string;

  it('wraps USDC.e into pUSD and approves the exchanges', async () => {
    wallet = (await call('auth-status', { token: alice })).body['tradingWallet'] as string;
    sim.fund(wallet, EXT_CONTRACTS.usdcE, 100_000_000n);
    const before = await call('polygon-balances', { token: alice });
    expect(before.body['tradingWallet']).toMatchObject({ usdcE: '100000000', pUsd: '0' });
    const tooMuch = await call('wrap-legacy-collateral', { token: alice, body: { amount: '100000001' } });
    expect([tooMuch.status, tooMuch.body['code']]).toEqual([400, 'EXTMARKET_INSUFFICIENT_BALANCE']);
    await call('wrap-legacy-collateral', { token: alice, body: { amount: '100000000' }, idempotencyKey: 'wrap-1' });
    settle();
    expect((await call('polygon-balances', { token: alice })).body['tradingWallet']).toMatchObject({
      usdcE: '0',
      pUsd: '100000000',
    });

    expect((await call('approval-status', { token: alice })).body['ready']).toBe(false);
    await call('approve-trading', { token: alice, body: {}, idempotencyKey: 'approve-alice' });
    settle();
    const approvals = await call('approval-status', { token: alice });
    expect(approvals.body['ready']).toBe(true);
    expect(approvals.body['conditional']).toHaveLength(3);
    expect((await call('balance', { token: alice })).body).toMatchObject({
      balance: '100000000',
      token: EXT_CONTRACTS.pUsd,
    });
  });

  it('reads the tick size of a token and refuses an unknown one', async () => {
    const t = await call(`tick-size?tokenId=${yes()}`, { token: alice });
    expect(t.body).toMatchObject({
      tickSize: '0.01',
      minOrderSize: '5',
      negRisk: false,
      conditionId: market().conditionId,
    });
    const unknown = await call('tick-size?tokenId=123', { token: alice });
    expect([unknown.status, unknown.body['code']]).toEqual([404, 'EXTMARKET_TOKEN_UNKNOWN']);
  });

  it('refuses orders off the tick, below the minimum, or beyond the balance, naming the rule', async () => {
    const order = (price: string, size: string) => ({ tokenId: yes(), side: 'BUY', price, size });
    const tick = await call('place-order', { token: alice, body: order('0.405', '10') });
    expect([tick.status, tick.body['code']]).toEqual([400, 'EXTMARKET_INVALID_TICK']);
    const edge = await call('place-order', { token: alice, body: order('1', '10') });
    expect(edge.body['code']).toBe('EXTMARKET_INVALID_TICK');
    const small = await call('place-order', { token: alice, body: order('0.40', '4.99') });
    expect([small.status, small.body['code']]).toEqual([400, 'EXTMARKET_BELOW_MIN_SIZE']);
    const rich = await call('place-order', { token: alice, body: order('0.50', '201') });
    expect([rich.status, rich.body['code']]).toEqual([400, 'EXTMARKET_INSUFFICIENT_BALANCE']);
    const fokPostOnly = await call('place-order', {
      token: alice,
      body: { ...order('0.40', '10'), orderType: 'FOK', postOnly: true },
    });
    expect([fokPostOnly.status, fokPostOnly.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
  });

  let restingId: string;

  it('places a resting order once under one Idempotency-Key', async () => {
    const body = { tokenId: yes(), side: 'BUY', price: '0.40', size: '10' };
    const first = await call('place-order', { token: alice, body, idempotencyKey: 'order-1' });
    expect(first.body).toMatchObject({ status: 'live', makingAmount: '0', tradeIds: [] });
    const retry = await call('place-order', { token: alice, body, idempotencyKey: 'order-1' });
    expect(retry.body['orderId']).toBe(first.body['orderId']);
    const orders = await call(`orders?assetId=${yes()}`, { token: alice });
    expect(orders.body['orders']).toEqual([
      expect.objectContaining({ id: first.body['orderId'], price: '0.4', originalSize: '10', side: 'BUY' }),
    ]);
    restingId = first.body['orderId'] as string;
    expect((await call('balance', { token: alice })).body['balance']).toBe('96000000');
  });

  it('matches a second user against it: MATCHED, then MINED, then CONFIRMED; positions exact', async () => {
    await call('derive-credentials', { token: bob, body: {} });
    await call('deploy-wallet', { token: bob, body: {} });
    settle();
    const bobWallet = (await call('auth-status', { token: bob })).body['tradingWallet'] as string;
    sim.fund(bobWallet, yes(), 10_000_000n);
    await call('approve-trading', { token: bob, body: {} });
    settle();
    const crossing = await call('place-order', {
      token: bob,
      body: { tokenId: yes(), side: 'SELL', price: '0.40', size: '10', postOnly: true },
    });
    expect([crossing.status, crossing.body['code']]).toEqual([400, 'EXTMARKET_POST_ONLY_CROSSES']);
    const fok = await call('place-order', {
      token: bob,
      body: { tokenId: yes(), side: 'SELL', price: '0.40', size: '20', orderType: 'FOK' },
    });
    expect([fok.status, fok.body['code']]).toEqual([400, 'EXTMARKET_INSUFFICIENT_BALANCE']);
    const sold = await call('place-order', {
      token: bob,
      body: { tokenId: yes(), side: 'SELL', price: '0.40', size: '10', orderType: 'FAK' },
      idempotencyKey: 'sell-1',
    });
    expect(sold.body).toMatchObject({ status: 'matched', makingAmount: '10', takingAmount: '4' });

    const trades = await call('trades', { token: alice });
    expect(trades.body['trades']).toEqual([
      expect.objectContaining({ traderSide: 'MAKER', status: 'MATCHED', size: '10', price: '0.4', side: 'BUY' }),
    ]);
    settle();
    expect((await call('trades', { token: alice })).body['trades'][0]['status']).toBe('CONFIRMED');
    const positions = await call('positions', { token: alice });
    expect(positions.body['positions']).toEqual([
      expect.objectContaining({ asset: yes(), size: '10', avgPrice: '0.4', initialValue: '4', outcome: 'Yes' }),
    ]);
    expect((await call('balance', { token: alice })).body['balance']).toBe('96000000');
    expect((await call('balance', { token: bob })).body['balance']).toBe('4000000');
    expect((await call('orders', { token: alice })).body['orders']).toEqual([]);
    void restingId;
  });

  it('cancels only the caller’s own orders', async () => {
    const placed = await call('place-order', {
      token: alice,
      body: { tokenId: yes(), side: 'BUY', price: '0.10', size: '5' },
    });
    const id = placed.body['orderId'] as string;
    const theirs = await call(`cancel-order/${id}`, { token: bob, method: 'DELETE' });
    expect([theirs.status, theirs.body['code']]).toEqual([404, 'EXTMARKET_ORDER_NOT_FOUND']);
    const mine = await call(`cancel-order/${id}`, { token: alice, method: 'DELETE' });
    expect(mine.body).toEqual({ canceled: [id], notCanceled: {} });
    await call('place-order', { token: alice, body: { tokenId: yes(), side: 'BUY', price: '0.11', size: '5' } });
    const all = await call('cancel-all', { token: alice, method: 'DELETE' });
    expect(all.body['canceled']).toHaveLength(1);
  });

  it('redeems the winning shares after resolution and moves pUSD out', async () => {
    const nothingYet = await call('redeem', { token: alice, body: { conditionId: market().conditionId } });
    expect([nothingYet.status, nothingYet.body['code']]).toEqual([409, 'EXTMARKET_NOTHING_TO_REDEEM']);
    sim.resolve(market().conditionId, 0);
    const redeemable = await call('positions?redeemable=true', { token: alice });
    expect(redeemable.body['positions'][0]).toMatchObject({ redeemable: true, curPrice: '1' });
    await call('redeem', { token: alice, body: { conditionId: market().conditionId }, idempotencyKey: 'redeem-1' });
    settle();
    expect((await call('balance', { token: alice })).body['balance']).toBe('106000000');
    const bobs = await call('redeem', { token: bob, body: { conditionId: market().conditionId } });
    expect(bobs.body['code']).toBe('EXTMARKET_NOTHING_TO_REDEEM');

    const back = await call('withdraw-clob', { token: alice, body: { amount: '6000000' }, idempotencyKey: 'wc-1' });
    expect(back.body).toMatchObject({ operation: 'withdraw-clob', state: 'STATE_NEW' });
    settle();
    const balances = await call('polygon-balances', { token: alice });
    expect(balances.body['managedWallet']['pUsd']).toBe('6000000');
    expect(balances.body['tradingWallet']['pUsd']).toBe('100000000');

    const out = await call('withdraw', {
      token: alice,
      body: {
        amount: '50000000',
        toChainId: '1',
        toTokenAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        recipientAddress: '0x000000000000000000000000000000000000dEaD',
      },
      idempotencyKey: 'w-1',
    });
    expect(out.body['transaction']).toMatchObject({ operation: 'withdraw' });
    settle();
    expect((await call('balance', { token: alice })).body['balance']).toBe('50000000');
    const over = await call('withdraw-clob', { token: alice, body: { amount: '50000001' } });
    expect([over.status, over.body['code']]).toEqual([400, 'EXTMARKET_INSUFFICIENT_BALANCE']);
  });

  it('opens a bridge deposit the caller can follow, and only the caller', async () => {
    const dep = await call('deposit', { token: alice, body: {}, idempotencyKey: 'dep-1' });
    expect(dep.body['tradingWallet']).toBe(wallet);
    const id = dep.body['depositId'] as string;
    expect((await call(`deposit-status/${id}`, { token: alice })).body).toEqual({
      depositId: id,
      completed: false,
      transactions: [],
    });
    sim.detectDeposit(id, 25_000_000n);
    expect((await call(`deposit-status/${id}`, { token: alice })).body['transactions'][0]['status']).toBe(
      'DEPOSIT_DETECTED',
    );
    settle();
    const done = await call(`deposit-status/${id}`, { token: alice });
    expect(done.body).toMatchObject({ completed: true });
    expect((await call('balance', { token: alice })).body['balance']).toBe('75000000');
    const theirs = await call(`deposit-status/${id}`, { token: bob });
    expect([theirs.status, theirs.body['code']]).toEqual([404, 'EXTMARKET_DEPOSIT_NOT_FOUND']);
  });

  it('sweeps what is left in the trading wallet back to the managed wallet', async () => {
    const r = await call('recover-funds', { token: alice, body: {}, idempotencyKey: 'recover-1' });
    expect(r.body['swept']).toEqual([{ from: wallet, token: EXT_CONTRACTS.pUsd, amount: '75000000' }]);
    settle();
    expect((await call('polygon-balances', { token: alice })).body['managedWallet']['pUsd']).toBe('81000000');
  });
});

describe('external markets: discovery', () => {
  it('lists active events by tags, highest 24 h volume first', async () => {
    const r = await call('discovery/events-by-tags?tagIds=1,2', { token: alice });
    // The Arsenal market resolved above, so its event is no longer active.
    expect((r.body['events'] as Body[]).map((e) => e['slug'] as string)).toEqual([
      'fed-december-2026',
      'lal-bos-2026-11-28',
    ]);
    expect(r.body['events'][1]['markets'][0]).toMatchObject({ negRisk: true, outcomes: ['Lakers', 'Celtics'] });
    const bad = await call('discovery/events-by-tags?tagIds=soccer', { token: alice });
    expect([bad.status, bad.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('maps sports to tags, searches, and snapshots live scores', async () => {
    const sports = await call('discovery/sports-map', { token: alice });
    expect(sports.body['sports']).toEqual(
      expect.arrayContaining([expect.objectContaining({ sport: 'nba', tagIds: ['1', '200'] })]),
    );
    const search = await call('discovery/public-search?q=lakers', { token: alice });
    expect((search.body['events'] as Body[]).map((e) => e['id'] as string)).toEqual(['9002']);
    const scores = await call('discovery/live-scores', { token: alice });
    expect(scores.body['scores']).toEqual(
      expect.arrayContaining([expect.objectContaining({ gameId: 7001, score: '54-49', live: true })]),
    );
  });

  it('prices cards in one batch call', async () => {
    const token = sim.events()[2]!.markets[0]!.tokens[0].tokenId;
    const bid = await call('place-order', {
      token: bob,
      body: { tokenId: token, side: 'BUY', price: '0.321', size: '5' },
    });
    expect(bid.body['status']).toBe('live');
    const r = await call('discovery/card-prices', { token: alice, body: { tokenIds: [token] } });
    expect(r.body['prices']).toEqual([{ tokenId: token, buy: null, sell: '0.321', mid: '0.321' }]);
    const bad = await call('discovery/card-prices', { token: alice, body: { tokenIds: [] } });
    expect(bad.status).toBe(400);
  });
});

describe('external markets: the exchange rate limiting or down', () => {
  it('answers 503 with Retry-After through a 429 storm, then opens the breaker', async () => {
    sim.setFault('gamma', { mode: 'rate-limit', retryAfterSec: 30 });
    const limited = await call('discovery/events-by-tags?tagIds=2', { token: alice });
    expect([limited.status, limited.body['code']]).toEqual([503, 'UPSTREAM_UNAVAILABLE']);
    expect(Number(limited.headers.get('retry-after'))).toBe(30);
    sim.setFault('gamma', { mode: 'down' });
    for (const q of ['q=a', 'q=b']) {
      const down = await call(`discovery/public-search?${q}`, { token: alice });
      expect([down.status, down.body['code']]).toEqual([503, 'UPSTREAM_UNAVAILABLE']);
    }
    sim.setFault('gamma', undefined);
    const open = await call('discovery/public-search?q=fed', { token: alice });
    expect([open.status, open.body['details']['breaker']]).toEqual([503, 'open']);
    expect(Number(open.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 503, never 500, when the CLOB drops connections', async () => {
    sim.setFault('clob', { mode: 'reset', remaining: 1 });
    const r = await call('balance', { token: alice });
    expect([r.status, r.body['code']]).toEqual([503, 'UPSTREAM_UNAVAILABLE']);
    expect(r.headers.get('retry-after')).not.toBeNull();
    expect((await call('balance', { token: alice })).status).toBe(200);
  });
});

describe('external markets: a relayer move whose answer was lost happens once', () => {
  /** A user with a deployed deposit wallet holding `pUsd` base units. */
  async function funded(name: string, pUsd: bigint) {
    const token = await user(name);
    await call('derive-credentials', { token, body: {} });
    await call('deploy-wallet', { token, body: {} });
    settle();
    const wallet = (await call('auth-status', { token })).body['tradingWallet'] as string;
    sim.fund(wallet, EXT_CONTRACTS.pUsd, pUsd);
    return { token, wallet };
  }
  const submitted = () => sim.relayer.submitted();

  it('withdraw-clob: the relayer accepted it, the answer never came back; the retry finds that transaction and sends nothing', async () => {
    const { token } = await funded('ext_dave', 10_000_000n);
    const before = submitted().length;
    sim.setFault('relayer', { mode: 'lose-answer', path: '/submit', remaining: 1 });
    const body = { amount: '4000000' };
    const lost = await call('withdraw-clob', { token, body, idempotencyKey: 'wc-lost' });
    expect([lost.status, lost.body['code']]).toEqual([503, 'UPSTREAM_UNAVAILABLE']);
    expect(lost.body['details']).toMatchObject({ outcome: 'unknown' });
    // The relayer has the batch: it will run whatever the client does next.
    expect(submitted()).toHaveLength(before + 1);
    const sent = submitted().at(-1)!;

    const retried = await call('withdraw-clob', { token, body, idempotencyKey: 'wc-lost' });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ transactionId: sent.transactionID, operation: 'withdraw-clob' });
    expect(submitted()).toHaveLength(before + 1);
    const replay = await call('withdraw-clob', { token, body, idempotencyKey: 'wc-lost' });
    expect(replay.body['transactionId']).toBe(sent.transactionID);

    settle();
    const balances = await call('polygon-balances', { token });
    expect(balances.body['managedWallet']['pUsd']).toBe('4000000');
    expect(balances.body['tradingWallet']['pUsd']).toBe('6000000');
    expect((await call(`relayer-tx/${sent.transactionID}`, { token })).body['state']).toBe('STATE_CONFIRMED');
    expect(submitted()).toHaveLength(before + 1);
  });

  it('withdraw-clob: a send refused on the way (the relayer never saw it) is sent on the retry, once', async () => {
    const { token } = await funded('ext_erin', 5_000_000n);
    const before = submitted().length;
    sim.setFault('relayer', { mode: 'reset', path: '/submit', remaining: 1 });
    const body = { amount: '5000000' };
    const failed = await call('withdraw-clob', { token, body, idempotencyKey: 'wc-reset' });
    expect(failed.status).toBe(503);
    expect(submitted()).toHaveLength(before);

    const retried = await call('withdraw-clob', { token, body, idempotencyKey: 'wc-reset' });
    expect(retried.status).toBe(200);
    expect(submitted()).toHaveLength(before + 1);
    expect(retried.body['transactionId']).toBe(submitted().at(-1)!.transactionID);
    settle();
    const balances = await call('polygon-balances', { token });
    expect(balances.body['managedWallet']['pUsd']).toBe('5000000');
    expect(balances.body['tradingWallet']['pUsd']).toBe('0');
  });

  it('deploy-wallet: a lost answer and a retry make one WALLET-CREATE', async () => {
    const token = await user('ext_fay');
    await call('derive-credentials', { token, body: {} });
    const before = submitted().length;
    sim.setFault('relayer', { mode: 'lose-answer', path: '/submit', remaining: 1 });
    const lost = await call('deploy-wallet', { token, body: {}, idempotencyKey: 'deploy-lost' });
    expect([lost.status, lost.body['code']]).toEqual([503, 'UPSTREAM_UNAVAILABLE']);
    settle(); // the deploy ran meanwhile: a fresh check would now refuse it as deployed already
    const retried = await call('deploy-wallet', { token, body: {}, idempotencyKey: 'deploy-lost' });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ type: 'WALLET-CREATE', transactionId: submitted().at(-1)!.transactionID });
    expect(
      submitted()
        .slice(before)
        .map((t) => t.type),
    ).toEqual(['WALLET-CREATE']);
    expect((await call('wallet-status', { token })).body['deployed']).toBe(true);
  });
});
