/** The JSON-RPC fault proxy (rpc-proxy.ts) in its own process, in front of RPC_UPSTREAM. */
import { announceReady } from './processes.js';
import { startRpcProxy } from './rpc-proxy.js';

const upstream = process.env['RPC_UPSTREAM'];
if (!upstream) throw new Error('RPC_UPSTREAM is required');
const proxy = await startRpcProxy(upstream);
announceReady({ url: proxy.url });
process.on('SIGTERM', () => {
  void proxy.close().then(() => process.exit(0));
});
