/**
 * A chain node in its own process: the embedded EVM with the contracts deployed, served as
 * JSON-RPC on loopback (CHAIN_NODE_PORT, default any free port). CHAIN_NODE_GENESIS_AGO_MS
 * dates its genesis that far back (another node's genesis than one started a moment before,
 * without waiting for the next second); its time then catches up with the wall clock. Prints its URL and addresses, and
 * a control URL: `POST <controlUrl>/advance-time?seconds=N` moves the chain's time forward (the
 * embedded chain refuses `evm_increaseTime` over RPC, because its history is journaled).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATOR_KEY, startDevChain } from './chain.js';
import { announceReady, type ChainNodeInfo } from './processes.js';

const chain = await startDevChain({
  port: Number(process.env['CHAIN_NODE_PORT'] ?? 0),
  genesisAgoMs: Number(process.env['CHAIN_NODE_GENESIS_AGO_MS'] ?? 0),
});
const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  const seconds = Number(url.searchParams.get('seconds'));
  if (req.method !== 'POST' || url.pathname !== '/advance-time') {
    res.writeHead(404).end();
    return;
  }
  chain.advanceTime(seconds).then(
    () => res.writeHead(204).end(),
    (err: unknown) => res.writeHead(400).end(String(err)),
  );
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', () => resolve()));
announceReady({
  rpcUrl: chain.rpcUrl,
  controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
  chainId: chain.chainId,
  addresses: chain.addresses,
  operatorKey: OPERATOR_KEY,
} satisfies ChainNodeInfo);
process.on('SIGTERM', () => {
  control.close();
  void chain.close().then(() => process.exit(0));
});
