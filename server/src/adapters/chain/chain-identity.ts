import type { PublicClient } from 'viem';
import { ChainIdentityError, type ChainIdentity } from '../../platform/chain-tx/chain-state.repository.js';
import type { ChainAddresses } from './chain.port.js';

/** One line naming a recorded chain: enough to recognise it. */
export function describeIdentity(identity: ChainIdentity): string {
  const where = identity.mode === 'embedded' ? 'an embedded chain' : 'a chain reached over CHAIN_RPC_URL';
  return `${where} (chain id ${identity.chainId}, genesis ${identity.genesisHash}, block ${identity.anchor.block} ${identity.anchor.hash}, markets contract ${identity.contracts.markets})`;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export interface IdentityStore {
  identity(): Promise<ChainIdentity | null>;
  recordIdentity(identity: ChainIdentity): Promise<ChainIdentity>;
  recordContracts(contracts: ChainIdentity['contracts']): Promise<void>;
}

/**
 * Checks the chain behind CHAIN_RPC_URL against the one the database recorded (chain id, genesis
 * hash, contract addresses) and that the contracts exist there; records it on first boot. A
 * mismatch refuses to start with one message that says what differs.
 */
export async function verifyRpcIdentity(
  client: PublicClient,
  addresses: ChainAddresses,
  store: IdentityStore,
): Promise<ChainIdentity> {
  const [chainId, genesis, head] = await Promise.all([
    client.getChainId(),
    client.getBlock({ blockNumber: 0n }),
    client.getBlock({ blockTag: 'latest' }),
  ]);
  const found: ChainIdentity = {
    mode: 'rpc',
    chainId,
    genesisHash: genesis.hash,
    genesisTime: Number(genesis.timestamp),
    contracts: addresses,
    deploymentBlock: null,
    anchor: { block: head.number, hash: head.hash },
  };
  const recorded = await store.identity();
  if (recorded) {
    const problems: string[] = [];
    if (recorded.chainId !== chainId) problems.push(`chain id ${chainId}`);
    if (!same(recorded.genesisHash, genesis.hash)) problems.push(`genesis ${genesis.hash}`);
    const anchor =
      recorded.anchor.block <= head.number ? await client.getBlock({ blockNumber: recorded.anchor.block }) : null;
    if (!anchor) problems.push(`no block ${recorded.anchor.block} yet (head ${head.number})`);
    else if (!same(anchor.hash, recorded.anchor.hash)) problems.push(`block ${anchor.number} ${anchor.hash}`);
    for (const name of ['credits', 'usdc', 'markets', 'creditsVault', 'usdcVault'] as const) {
      const was = recorded.contracts[name];
      // Vaults are absent from identities recorded before they existed: named now, checked from then on.
      if (was !== undefined && !same(was, addresses[name])) problems.push(`${name} contract ${addresses[name]}`);
    }
    if (problems.length) {
      throw new ChainIdentityError(
        `Refusing to start: this database belongs to ${describeIdentity(recorded)}, but the configured chain has ` +
          `${problems.join(', ')}. Point CHAIN_RPC_URL and CHAIN_CONTRACTS at the chain this database was written against, or use a fresh database.`,
      );
    }
  }
  const missing: string[] = [];
  for (const name of ['credits', 'usdc', 'markets', 'creditsVault', 'usdcVault'] as const) {
    const code = await client.getCode({ address: addresses[name] });
    if (!code || code === '0x') missing.push(`${name} (${addresses[name]})`);
  }
  if (missing.length) {
    throw new ChainIdentityError(
      `Refusing to start: no contract at ${missing.join(', ')} on the chain at CHAIN_RPC_URL (chain id ${chainId}, ` +
        `genesis ${genesis.hash}). CHAIN_CONTRACTS must name contracts deployed on that chain.`,
    );
  }
  if (!recorded) return store.recordIdentity(found);
  if (!recorded.contracts.creditsVault || !recorded.contracts.usdcVault) {
    await store.recordContracts(addresses);
    return { ...recorded, contracts: addresses };
  }
  return recorded;
}
