import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http, HttpRequestError, TimeoutError } from 'viem';
import { rpcFetch } from './rpc-http.client.js';

/** A JSON-RPC node on loopback whose answer each test decides. */
let answer: (req: IncomingMessage, body: string, res: ServerResponse) => void;
let server: Server;
let url: string;
const connections = new Set<number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    connections.add(req.socket.remotePort ?? 0);
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => answer(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const rpc = rpcFetch();
afterEach(() => connections.clear());
afterAll(() => rpc.close());

function chainId(id: number) {
  answer = (_req, body, res) => {
    const call = JSON.parse(body) as { id: number; method: string };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: call.id,
        result: call.method === 'eth_chainId' ? `0x${id.toString(16)}` : null,
      }),
    );
  };
}

describe('rpcFetch as viem’s fetchFn', () => {
  it('carries viem’s calls and answers over kept-alive connections', async () => {
    chainId(31337);
    const client = createPublicClient({ transport: http(url, { fetchFn: rpc.fetchFn }) });
    for (let i = 0; i < 5; i++) expect(await client.getChainId()).toBe(31337);
    expect(connections.size).toBe(1);
  });

  it('gives a JSON-RPC error its RPC error, and an HTTP failure viem’s HttpRequestError with the status', async () => {
    answer = (_req, body, res) => {
      const call = JSON.parse(body) as { id: number };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'method not found' } }));
    };
    const client = createPublicClient({ transport: http(url, { fetchFn: rpc.fetchFn, retryCount: 0 }) });
    await expect(client.getChainId()).rejects.toThrow(/method not found/);

    answer = (_req, _body, res) => {
      res.writeHead(502, { 'content-type': 'text/plain', 'retry-after': '3' });
      res.end('bad gateway');
    };
    const failed = await client.getChainId().catch((err: unknown) => err);
    const cause = (failed as { walk(fn: (e: unknown) => boolean): unknown }).walk((e) => e instanceof HttpRequestError);
    expect(cause).toBeInstanceOf(HttpRequestError);
    expect((cause as HttpRequestError).status).toBe(502);
    expect((cause as HttpRequestError).headers?.get('retry-after')).toBe('3');
  });

  it('ends a call that does not answer in time with viem’s TimeoutError', async () => {
    answer = () => undefined; // never answers
    const client = createPublicClient({ transport: http(url, { fetchFn: rpc.fetchFn, retryCount: 0, timeout: 100 }) });
    const failed = await client.getChainId().catch((err: unknown) => err);
    expect(
      (failed as { walk(fn: (e: unknown) => boolean): unknown }).walk((e) => e instanceof TimeoutError),
    ).toBeInstanceOf(TimeoutError);
  });

  it('rejects when nothing listens, which viem wraps in HttpRequestError', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const client = createPublicClient({
      transport: http(`http://127.0.0.1:${port}`, { fetchFn: rpc.fetchFn, retryCount: 0 }),
    });
    const failed = await client.getChainId().catch((err: unknown) => err);
    const cause = (failed as { walk(fn: (e: unknown) => boolean): unknown }).walk((e) => e instanceof HttpRequestError);
    expect(cause).toBeInstanceOf(HttpRequestError);
    expect(String((cause as HttpRequestError).cause)).toMatch(/ECONNREFUSED/);
  });

  it('refuses an answer larger than viem’s cap', async () => {
    answer = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(10_485_760)}"`);
    };
    await expect(rpc.fetch(url, { body: '{}' })).rejects.toThrow(/over 10485760 bytes/);
  });
});
