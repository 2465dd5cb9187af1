import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EIP1193Provider } from 'viem';
import type { ChainAddresses } from './chain.port.js';

type RpcAnswer =
  | { jsonrpc: '2.0'; id: unknown; result: unknown }
  | { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string; data?: unknown } };

const invalid = (id: unknown): RpcAnswer => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32600, message: 'invalid request' },
});

/** One call's answer: its result, the provider's error, or -32600 when it is not a call. */
async function answer(provider: EIP1193Provider, call: unknown): Promise<RpcAnswer> {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return invalid(null);
  const { id = null, method, params } = call as { id?: unknown; method?: unknown; params?: unknown };
  // JSON-RPC 2.0: params, when present, are by position (an array) or by name (an object).
  if (typeof method !== 'string' || (params !== undefined && (typeof params !== 'object' || params === null))) {
    return invalid(id);
  }
  try {
    const result: unknown = await provider.request({ method: method as never, params: (params ?? []) as never });
    return { jsonrpc: '2.0', id, result };
  } catch (thrown) {
    const err = thrown as { code?: number; message?: string; data?: unknown };
    return { jsonrpc: '2.0', id, error: { code: err.code ?? -32000, message: err.message ?? 'error', data: err.data } };
  }
}

/**
 * Serves the in-process EVM as JSON-RPC on a loopback port, so operator commands (credits:grant)
 * and wallets can reach the chain that lives inside the server process. `GET /duelkit/contracts`
 * answers the deployed addresses. Single calls and batches (JSON-RPC 2.0). Loopback only: it has
 * no authentication.
 */
export async function serveEmbeddedRpc(
  provider: EIP1193Provider,
  addresses: ChainAddresses,
  chainId: number,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v)));
    };
    if (req.method === 'GET' && req.url === '/duelkit/contracts') return reply(200, { chainId, ...addresses });
    if (req.method !== 'POST') return reply(405, { error: 'POST JSON-RPC only' });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      }
      if (!Array.isArray(body)) {
        void answer(provider, body).then((out) => reply(200, out));
        return;
      }
      // A batch (JSON-RPC 2.0 §6, which ethers and viem send): its calls run one after another, in
      // order, and the answers come back in one array; an empty batch is an invalid request.
      if (body.length === 0) return reply(200, invalid(null));
      void (async () => {
        const out: RpcAnswer[] = [];
        for (const call of body) out.push(await answer(provider, call));
        reply(200, out);
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
