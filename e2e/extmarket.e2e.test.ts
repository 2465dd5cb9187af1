import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuelkitClient } from '@duelkit/sdk';
import { signedInClient, startServer, until, type ServerProcess } from './support.js';

/** The local exchange's loopback URLs, as the server logs them when it starts one. */
interface ExchangeUrls {
  clob: string;
  gamma: string;
}

const PUSD = '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB';
const USDC_E = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';

let server: ServerProcess;
let sim: ExchangeUrls;

/** A test hook of the local exchange (it stands in for the outside world: a bridge, a market resolving). */
async function hook(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${sim.clob}/_sim/${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`hook ${path}: ${res.status}`);
}

async function mined(client: DuelkitClient, txId: string) {
  const tx = await until(
    () => client.extmarket.relayerTx({ params: { txId } }),
    (t) => ['STATE_MINED', 'STATE_CONFIRMED', 'STATE_FAILED'].includes(t.state),
  );
  expect(tx.state).not.toBe('STATE_FAILED');
}

async function trader(name: string) {
  const { client } = await signedInClient(server, name, 0n);
  const status = await client.extmarket.deriveCredentials({ body: {} });
  expect(status).toMatchObject({ hasCredentials: true, walletKind: 'deposit-wallet', apiKeyActive: true });
  await mined(client, (await client.extmarket.deployWallet({ body: {} })).transactionId);
  await mined(client, (await client.extmarket.approveTrading({ body: {} })).transactionId);
  return { client, wallet: status.tradingWallet as string };
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_TEAM_PER_MIN: '100000' });
  const line = server.lines.find((l) => l.includes('local external exchange served on loopback'));
  sim = (JSON.parse(line ?? '{}') as { urls: ExchangeUrls }).urls;
}, 300_000);
afterAll(() => server?.stop());

describe('external markets through the SDK against the local exchange', () => {
  it('wraps, trades, settles, redeems and withdraws, exact to the base unit', async () => {
    const maker = await trader('ext_e2e_maker');
    const taker = await trader('ext_e2e_taker');
    expect((await maker.client.extmarket.approvalStatus()).ready).toBe(true);

    // USDC.e arrives in the maker's trading wallet and is wrapped into pUSD.
    await hook('fund', { address: maker.wallet, asset: USDC_E, amount: '50000000' });
    await mined(
      maker.client,
      (await maker.client.extmarket.wrapLegacyCollateral({ body: { amount: '50000000' } })).transactionId,
    );
    expect(await maker.client.extmarket.balance()).toMatchObject({ balance: '50000000', token: PUSD });

    // The taker holds shares of the market to sell.
    const [event] = (await maker.client.extmarket.eventsByTags({ query: { tagIds: '2' } })).events;
    const market = event!.markets[0]!;
    const yes = market.tokenIds[0]!;
    await hook('fund', { address: taker.wallet, asset: yes, amount: '20000000' });

    const tick = await maker.client.extmarket.tickSize({ query: { tokenId: yes } });
    expect(tick).toMatchObject({ tickSize: '0.001', minOrderSize: '5' });
    const bid = await maker.client.extmarket.placeOrder({
      body: { tokenId: yes, side: 'BUY', price: '0.625', size: '20' },
    });
    expect(bid.status).toBe('live');
    expect((await maker.client.extmarket.orders({ query: {} })).orders).toHaveLength(1);

    const sold = await taker.client.extmarket.placeOrder({
      body: { tokenId: yes, side: 'SELL', price: '0.6', size: '20', orderType: 'FOK' },
    });
    expect(sold).toMatchObject({ status: 'matched', makingAmount: '20', takingAmount: '12.5' });

    const [trade] = (await maker.client.extmarket.trades({ query: {} })).trades;
    expect(trade).toMatchObject({ traderSide: 'MAKER', size: '20', price: '0.625' });
    const confirmed = await until(
      () => maker.client.extmarket.trades({ query: {} }),
      (r) => r.trades[0]?.status === 'CONFIRMED',
    );
    expect(confirmed.trades[0]!.status).toBe('CONFIRMED');

    expect(await maker.client.extmarket.balance()).toMatchObject({ balance: '37500000' });
    expect(await taker.client.extmarket.balance()).toMatchObject({ balance: '12500000' });
    const positions = await maker.client.extmarket.positions({ query: {} });
    expect(positions.positions).toEqual([
      expect.objectContaining({ asset: yes, size: '20', avgPrice: '0.625', initialValue: '12.5' }),
    ]);

    // The market resolves YES; the maker redeems 20 shares for 20 pUSD and takes it all home.
    await hook('resolve', { conditionId: market.conditionId, winner: 0 });
    await mined(
      maker.client,
      (await maker.client.extmarket.redeem({ body: { conditionId: market.conditionId } })).transactionId,
    );
    expect(await maker.client.extmarket.balance()).toMatchObject({ balance: '57500000' });
    await mined(
      maker.client,
      (await maker.client.extmarket.withdrawClob({ body: { amount: '57500000' } })).transactionId,
    );
    const balances = await maker.client.extmarket.polygonBalances();
    expect(balances.tradingWallet.pUsd).toBe('0');
    expect(balances.managedWallet.pUsd).toBe('57500000');
  }, 120_000);
});
