/**
 * A chain node in its own process: the embedded EVM with the contracts deployed, served as
 * JSON-RPC on loopback (CHAIN_NODE_PORT, default any free port). Prints its URL and addresses.
 */
import { OPERATOR_KEY, startDevChain } from './chain.js';
import { announceReady, type ChainNodeInfo } from './processes.js';

const chain = await startDevChain({ port: Number(process.env['CHAIN_NODE_PORT'] ?? 0) });
announceReady({
  rpcUrl: chain.rpcUrl,
  chainId: chain.chainId,
  addresses: chain.addresses,
  operatorKey: OPERATOR_KEY,
} satisfies ChainNodeInfo);
process.on('SIGTERM', () => {
  void chain.close().then(() => process.exit(0));
});
