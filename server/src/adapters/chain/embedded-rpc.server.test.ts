import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http, type EIP1193Provider } from 'viem';
import { serveEmbeddedRpc } from './embedded-rpc.server.js';

/** A provider that knows two methods; the server only relays to it. */
const provider = {
  request: ({ method, params }: { method: string; params?: unknown[] }) => {
    if (method === 'eth_chainId') return Promise.resolve('0x7a69');
    if (method === 'eth_blockNumber') return Promise.resolve('0x2a');
    if (method === 'echo') return Promise.resolve(params);
    return Promise.reject(Object.assign(new Error(`${method} is not supported`), { code: -32601 }));
  },
} as unknown as EIP1193Provider;

const addresses = { credits: '0x1', usdc: '0x2', markets: '0x3', creditsVault: '0x4', usdcVault: '0x5' } as never;
let rpc: { url: string; close(): Promise<void> };
beforeAll(async () => {
  rpc = await serveEmbeddedRpc(provider, addresses, 31337, 0);
});
afterAll(() => rpc.close());

async function post(body: string): Promise<unknown> {
  const res = await fetch(rpc.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.json();
}

describe('the embedded EVM served as JSON-RPC', () => {
  it('answers a batch in one array, in order, each call with its own result or error', async () => {
    const answers = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 'b', method: 'eth_nope', params: [] },
        { jsonrpc: '2.0', id: 9, method: 'echo', params: [1, 'two'] },
        { jsonrpc: '2.0', id: 10, params: [] },
        42,
      ]),
    );
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 7, result: '0x2a' },
      { jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'eth_nope is not supported' } },
      { jsonrpc: '2.0', id: 9, result: [1, 'two'] },
      { jsonrpc: '2.0', id: 10, error: { code: -32600, message: 'invalid request' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
    ]);
  });

  it('refuses an empty batch and a call without a method as invalid requests, and bad JSON as a parse error', async () => {
    expect(await post('[]')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
    expect(await post('{"jsonrpc":"2.0","id":3}')).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600, message: 'invalid request' },
    });
    expect(await post('{"jsonrpc":')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'parse error' },
    });
  });

  it('serves a client that batches its calls (viem with batch: true)', async () => {
    const client = createPublicClient({ transport: http(rpc.url, { batch: true }) });
    expect(await Promise.all([client.getChainId(), client.getBlockNumber()])).toEqual([31337, 42n]);
  });
});
