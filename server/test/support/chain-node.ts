import { generatePrivateKey } from 'viem/accounts';
import { createTestDatabase } from './database.js';
import { startServerProcess } from './server-process.js';

export interface ChainNode {
  /** JSON-RPC URL of the node. */
  readonly rpcUrl: string;
  /** CHAIN_CONTRACTS for a server using this node. */
  readonly contracts: string;
  /** The key the contracts were deployed with (minter of the collateral tokens). */
  readonly operatorKey: `0x${string}`;
  stop(): Promise<void>;
}

/**
 * A chain node in its own process: an embedded Duelkit instance serving its EVM, with the
 * contracts deployed, as JSON-RPC on loopback. It does no chain writes of its own.
 */
export async function startChainNode(): Promise<ChainNode> {
  const operatorKey = generatePrivateKey();
  const database = await createTestDatabase();
  const node = await startServerProcess({
    DATABASE_URL: database.url,
    CHAIN_OPERATOR_KEY: operatorKey,
    JOBS_ENABLED: 'false',
    DUELKIT_DEV_BUILDER_KEY: `dk_chain_node_${operatorKey.slice(2, 26)}`,
  });
  const line = node.lines.find((l) => l.includes('embedded EVM served as JSON-RPC'));
  const rpcUrl = (JSON.parse(line ?? '{}') as { url: string }).url;
  const deployed = (await (await fetch(`${rpcUrl}/duelkit/contracts`)).json()) as Record<string, string>;
  const { credits, usdc, markets, creditsVault, usdcVault } = deployed;
  return {
    rpcUrl,
    contracts: JSON.stringify({ credits, usdc, markets, creditsVault, usdcVault }),
    operatorKey,
    async stop() {
      await node.stop('SIGKILL');
      await database.drop();
    },
  };
}
