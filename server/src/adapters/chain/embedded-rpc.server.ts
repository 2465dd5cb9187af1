import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EIP1193Provider } from 'viem';
import type { ChainAddresses } from './chain.port.js';

/**
 * Serves the in-process EVM as JSON-RPC on a loopback port, so operator commands (credits:grant)
 * and wallets can reach the chain that lives inside the server process. `GET /duelkit/contracts`
 * answers the deployed addresses. Loopback only: it has no authentication.
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
      let call: { id?: unknown; method?: string; params?: unknown[] };
      try {
        call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof call;
      } catch {
        return reply(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      }
      provider.request({ method: call.method as never, params: (call.params ?? []) as never }).then(
        (result) => reply(200, { jsonrpc: '2.0', id: call.id ?? null, result }),
        (err: { code?: number; message?: string; data?: unknown }) =>
          reply(200, {
            jsonrpc: '2.0',
            id: call.id ?? null,
            error: { code: err.code ?? -32000, message: err.message ?? 'error', data: err.data },
          }),
      );
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
