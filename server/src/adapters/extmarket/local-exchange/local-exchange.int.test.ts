import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClobClient, Side, OrderType, SignatureTypeV2, Chain } from '@polymarket/clob-client-v2';
import { createWalletClient, custom, type WalletClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ManualClock } from '../../../platform/clock.js';
import { EXT_CONTRACTS, MAX_UINT256 } from '../extmarket.protocol.js';
import { startLocalExchange, type RunningLocalExchange } from './local-exchange.server.js';

// The official client signs with a viem wallet client; a local account never uses the transport.
function walletOf(key: `0x${string}`): WalletClient {
  return createWalletClient({
    account: privateKeyToAccount(key),
    transport: custom({ request: () => Promise.reject(new Error('no RPC in this test')) }),
  });
}

describe('the official CLOB client against the local exchange', () => {
  let sim: RunningLocalExchange;
  const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));

  beforeAll(async () => {
    sim = await startLocalExchange({ clock, builder: { key: 'b', secret: 'c2VjcmV0', passphrase: 'p' } });
  });
  afterAll(async () => sim.close());

  async function trader(sigType: SignatureTypeV2 = SignatureTypeV2.EOA) {
    const key = generatePrivateKey();
    const signer = walletOf(key);
    const address = signer.account!.address;
    const base = new ClobClient({
      host: sim.urls.clob,
      chain: Chain.POLYGON,
      signer,
      useServerTime: true,
      throwOnError: true,
    });
    const creds = await base.createOrDeriveApiKey();
    const funder = sim.exchange.clob.funderOf(address, sigType);
    const client = new ClobClient({
      host: sim.urls.clob,
      chain: Chain.POLYGON,
      signer,
      creds,
      signatureType: sigType,
      funderAddress: funder,
      useServerTime: true,
      throwOnError: true,
    });
    return { client, creds, address, funder, base };
  }

  const market = () => sim.exchange.events()[0]!.markets[0]!;

  it('derives the same API key again for the same signer and nonce, and authenticates L2 calls with it', async () => {
    const t = await trader();
    expect(await t.base.deriveApiKey()).toEqual(t.creds);
    const keys = (await t.client.getApiKeys()) as unknown as { apiKeys: string[] };
    expect(keys.apiKeys).toEqual([t.creds.key]);
  });

  it('places a signed V2 order that rests, lists it, and cancels it', async () => {
    const t = await trader();
    sim.exchange.fund(t.funder, EXT_CONTRACTS.pUsd, 100_000_000n);
    sim.exchange.ledger.approve(t.funder, EXT_CONTRACTS.pUsd, EXT_CONTRACTS.exchangeV2, MAX_UINT256);
    const tokenID = market().tokens[0].tokenId;
    const placed = await t.client.createAndPostOrder(
      { tokenID, price: 0.42, size: 10, side: Side.BUY },
      undefined,
      OrderType.GTC,
    );
    expect(placed).toMatchObject({ success: true, status: 'live', makingAmount: '0', takingAmount: '0' });
    const open = await t.client.getOpenOrders({ asset_id: tokenID });
    expect(open.map((o) => [o.id, o.price, o.original_size])).toEqual([[placed.orderID, '0.42', '10']]);
    const bal = (await t.client.getBalanceAllowance({ asset_type: 'COLLATERAL' as never })) as { balance: string };
    expect(bal.balance).toBe('95800000');
    const cancelled = (await t.client.cancelOrder({ orderID: placed.orderID })) as { canceled: string[] };
    expect(cancelled.canceled).toEqual([placed.orderID]);
    expect(await t.client.getOpenOrders({ asset_id: tokenID })).toEqual([]);
  });

  it('matches a deposit-wallet (POLY_1271) taker against a resting maker at the maker’s price', async () => {
    const seller = await trader();
    const tokenID = market().tokens[1].tokenId;
    sim.exchange.fund(seller.funder, tokenID, 20_000_000n);
    sim.exchange.ledger.setApprovalForAll(seller.funder, EXT_CONTRACTS.exchangeV2, true);
    await seller.client.createAndPostOrder({ tokenID, price: 0.3, size: 20, side: Side.SELL });

    const buyerKey = generatePrivateKey();
    const owner = privateKeyToAccount(buyerKey).address;
    // The deposit wallet must exist on the relayer before it can sign through ERC-1271.
    const wallet = sim.exchange.clob.funderOf(owner, SignatureTypeV2.POLY_1271);
    sim.exchange.relayer.markDeployed(wallet, owner);
    const signer = walletOf(buyerKey);
    const base = new ClobClient({
      host: sim.urls.clob,
      chain: Chain.POLYGON,
      signer,
      useServerTime: true,
      throwOnError: true,
    });
    const creds = await base.createOrDeriveApiKey();
    const client = new ClobClient({
      host: sim.urls.clob,
      chain: Chain.POLYGON,
      signer,
      creds,
      signatureType: SignatureTypeV2.POLY_1271,
      funderAddress: wallet,
      useServerTime: true,
      throwOnError: true,
    });
    sim.exchange.fund(wallet, EXT_CONTRACTS.pUsd, 10_000_000n);
    sim.exchange.ledger.approve(wallet, EXT_CONTRACTS.pUsd, EXT_CONTRACTS.exchangeV2, MAX_UINT256);

    const res = await client.createAndPostOrder(
      { tokenID, price: 0.35, size: 10, side: Side.BUY },
      undefined,
      OrderType.GTC,
    );
    expect(res).toMatchObject({ success: true, status: 'matched', makingAmount: '3', takingAmount: '10' });
    expect(sim.exchange.ledger.balance(wallet, tokenID)).toBe(10_000_000n);
    expect(sim.exchange.ledger.balance(wallet, EXT_CONTRACTS.pUsd)).toBe(7_000_000n);
    expect(sim.exchange.ledger.balance(seller.funder, EXT_CONTRACTS.pUsd)).toBe(3_000_000n);
    const [trade] = await client.getTrades({ id: res.tradeIDs![0]! });
    expect(trade).toMatchObject({ status: 'MATCHED', trader_side: 'TAKER', size: '10', price: '0.3' });
    clock.advance(2_000);
    expect((await client.getTrades({ id: res.tradeIDs![0]! }))[0]!.status).toBe('MINED');
    clock.advance(4_000);
    expect((await client.getTrades({ id: res.tradeIDs![0]! }))[0]!.status).toBe('CONFIRMED');
  });

  it('refuses an order without the balance, naming the rule', async () => {
    const t = await trader();
    const tokenID = market().tokens[0].tokenId;
    await expect(t.client.createAndPostOrder({ tokenID, price: 0.5, size: 10, side: Side.BUY })).rejects.toThrow(
      'not enough balance / allowance',
    );
  });
});
