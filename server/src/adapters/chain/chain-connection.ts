import {
  createPublicClient,
  custom,
  http,
  type EIP1193Provider,
  type LocalAccount,
  type PublicClient,
  type Transport,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Logger } from '../../logger.js';
import { ChainIdentityError, type ChainStateRepository } from '../../platform/chain-tx/chain-state.repository.js';
import { ChainTxPipeline } from '../../platform/chain-tx/chain-tx.pipeline.js';
import type { ChainTxRepository } from '../../platform/chain-tx/chain-tx.repository.js';
import type { FundsRepository } from '../../platform/chain-tx/funds.repository.js';
import type { Clock } from '../../platform/clock.js';
import type { ChainAddresses } from './chain.port.js';
import { classifyInfrastructureError } from '../../platform/outage/infrastructure-error.js';
import { ChainGate, ChainNotVerifiedError, describeError, type ChainGateState } from './chain.gate.js';
import { verifyRpcIdentity } from './chain-identity.js';
import { ChainWriter } from './chain-writer.js';
import { startEmbeddedChain, type EmbeddedChain, type ParlayBookDeployment } from './embedded-chain.js';
import { serveEmbeddedRpc } from './embedded-rpc.server.js';
import { ViemTxNode } from './viem-tx-node.js';
import { rpcFetch, type RpcFetch } from './rpc-http.client.js';

export interface ChainConfig {
  /** JSON-RPC URL of a real node; unset → an in-process EVM (hardhat's EDR) with contracts deployed at boot. */
  readonly rpcUrl: string | undefined;
  readonly chainId: number;
  readonly operatorKey: `0x${string}`;
  /** Deployed contracts on a real chain; ignored on the embedded one. */
  readonly addresses: ChainAddresses | undefined;
  readonly confirmations: number;
  /** Loopback port serving the embedded EVM as JSON-RPC (0: any free port; null: not served). */
  readonly embeddedRpcPort: number | null;
  /** How long a broadcast may take before the write is answered as pending. */
  readonly broadcastTimeoutMs: number;
  /** Reads batched into one JSON-RPC request to `rpcUrl`, at most this many (0: no batching). */
  readonly rpcBatchSize: number;
  /** Native balance below which a managed account is topped up, and by how much (wei). */
  readonly gasFloor: bigint;
  readonly gasTopUp: bigint;
  /** How the embedded chain deploys ParlayBook (absent: not deployed). */
  readonly parlayBook?: ParlayBookDeployment | undefined;
}

/** The database side of the chain: recorded writes, nonces, funds reservations, the chain's identity and journal. */
export interface ChainStores {
  readonly txs: ChainTxRepository;
  readonly funds: FundsRepository;
  readonly state: ChainStateRepository;
  /** Dates funds reservations and the pipeline's bookkeeping. */
  readonly clock: Clock;
}

/** A connected chain: its clients, the pipeline its writes go through, and how to stop serving it. */
export interface ChainConnection {
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  readonly account: LocalAccount;
  readonly publicClient: PublicClient;
  readonly pipeline: ChainTxPipeline;
  readonly writer: ChainWriter;
  /** Blocks below the head a block needs before it is indexed (0 on the embedded chain). */
  readonly confirmations: number;
  /** The newest block that counts (the embedded chain's journaled head); undefined on a real chain. */
  readonly finalHead: (() => bigint) | undefined;
  readonly embeddedRpcUrl: string | undefined;
  /** The embedded chain's time control (see `EmbeddedChain.advanceTime`); undefined on a real chain. */
  readonly time: Pick<EmbeddedChain, 'aheadMs' | 'advanceTime'> | undefined;
  /** Whether the node has been recognised as this database's chain (always, on the embedded one). */
  gate(): ChainGateState;
  /** Stops serving the embedded chain and writes its journal out. */
  close(): Promise<void>;
}

/**
 * Reaches the configured chain — `http()` to CHAIN_RPC_URL, or the embedded EVM rebuilt from
 * the database's journal — checks it is the chain the database was written against, and builds
 * the pipeline its writes go through.
 */
export async function connectChain(config: ChainConfig, logger: Logger, stores: ChainStores): Promise<ChainConnection> {
  const account = privateKeyToAccount(config.operatorKey);
  let transport: Transport;
  let broadcastTransport: Transport;
  let provider: EIP1193Provider | undefined;
  let addresses = config.addresses;
  let finalHead: (() => bigint) | undefined;
  let flush = () => Promise.resolve();
  let time: ChainConnection['time'];
  let rpcConnections: RpcFetch | undefined;
  let gate: ChainGate | undefined;
  let chainId: number;
  if (config.rpcUrl) {
    if (!addresses) throw new Error('CHAIN_CONTRACTS must name the deployed contracts when CHAIN_RPC_URL is set');
    rpcConnections = rpcFetch();
    const connected = await reachRpcChain(config.rpcUrl, addresses, rpcConnections, logger, stores.state);
    gate = connected.gate;
    chainId = connected.chainId;
    const fetchFn = gate.wrap(rpcConnections.fetchFn);
    // Reads issued together (a balance and a nonce at one block, a bet's quote reads) share one
    // HTTP request; a node that refuses batches takes CHAIN_RPC_BATCH_SIZE=0.
    transport = http(config.rpcUrl, {
      fetchFn,
      batch: config.rpcBatchSize > 0 ? { batchSize: config.rpcBatchSize } : false,
    });
    // One attempt per broadcast: the pipeline decides what a timeout means.
    broadcastTransport = http(config.rpcUrl, { fetchFn, retryCount: 0, timeout: config.broadcastTimeoutMs });
  } else {
    const chain = await startEmbeddedChain({
      chainId: config.chainId,
      operator: account,
      store: stores.state,
      logger,
      parlayBook: config.parlayBook,
    });
    provider = chain.provider;
    addresses = chain.addresses;
    finalHead = () => chain.journaledHead();
    flush = () => chain.flush();
    time = { aheadMs: () => chain.aheadMs(), advanceTime: (seconds) => chain.advanceTime(seconds) };
    transport = custom(provider);
    broadcastTransport = transport;
    chainId = await createPublicClient({ transport }).getChainId();
    await refuseRewoundChain(chain.journaledHead(), stores.state);
  }
  const publicClient = createPublicClient({ transport });
  const confirmations = config.rpcUrl ? config.confirmations : 0;
  const node = new ViemTxNode(chainId, publicClient, createPublicClient({ transport: broadcastTransport }), {
    broadcastTimeoutMs: config.broadcastTimeoutMs,
    confirmations,
    ...(finalHead ? { finalHead } : {}),
  });
  const pipeline = new ChainTxPipeline(stores.txs, stores.funds, node, logger, stores.clock);
  const writer = new ChainWriter(publicClient, pipeline, account, provider, {
    gasFloor: config.gasFloor,
    gasTopUp: config.gasTopUp,
    prerequisiteTimeoutMs: Math.max(10_000, config.broadcastTimeoutMs * 3),
  });
  let rpc: { url: string; close(): Promise<void> } | undefined;
  if (provider && config.embeddedRpcPort !== null) {
    rpc = await serveEmbeddedRpc(provider, addresses, chainId, config.embeddedRpcPort);
    logger.info({ url: rpc.url }, 'embedded EVM served as JSON-RPC on loopback');
  }
  const served = rpc;
  return {
    chainId,
    addresses,
    account,
    publicClient,
    pipeline,
    writer,
    confirmations,
    finalHead,
    embeddedRpcUrl: served?.url,
    time,
    gate: () => gate?.state() ?? { state: 'verified' },
    async close() {
      await served?.close();
      await flush();
      rpcConnections?.close();
    },
  };
}

/** How long each call of the check waits for the node, and how often a node away is checked again. */
const CHECK_TIMEOUT_MS = 5_000;
const RECHECK_AFTER_MS = 1_000;

/**
 * Checks the node behind CHAIN_RPC_URL before anything is read from it or signed for it: its
 * identity (`verifyRpcIdentity`) and that the indexer has not read past its head. A node that does not answer at start does not fail the start when the
 * database already recorded its chain: the instance serves, and every call to the node waits
 * behind the gate until the check passes. A first start records the chain, so it needs the node.
 */
async function reachRpcChain(
  rpcUrl: string,
  addresses: ChainAddresses,
  connections: RpcFetch,
  logger: Logger,
  state: ChainStateRepository,
): Promise<{ gate: ChainGate; chainId: number }> {
  // The check's own client: one attempt per call, so a node away is known in seconds.
  const checker = createPublicClient({
    transport: http(rpcUrl, { fetchFn: connections.fetchFn, retryCount: 0, timeout: CHECK_TIMEOUT_MS }),
  });
  // The first check that passes is the start's, made now or deferred while the node is away: it
  // also refuses a node behind what the indexer has read. The checks after a lost connection are
  // of the identity only: a node failed over to may lag a few blocks, which is not another chain.
  let checked = false;
  const gate = new ChainGate(
    async () => {
      await verifyRpcIdentity(checker, addresses, state);
      if (!checked) await refuseRewoundChain(await checker.getBlockNumber({ cacheTime: 0 }), state);
      checked = true;
    },
    logger,
    { retryAfterMs: RECHECK_AFTER_MS },
  );
  try {
    await gate.pass();
    return { gate, chainId: await checker.getChainId() };
  } catch (err) {
    const cause = err instanceof ChainNotVerifiedError ? err.cause : err;
    const recorded = cause instanceof ChainIdentityError ? null : await state.identity();
    if (!recorded || classifyInfrastructureError(cause)?.code !== 'CHAIN_UNAVAILABLE') throw cause;
    logger.warn(
      { err: describeError(cause) },
      'chain node unreachable at start; serving without it, chain calls wait until it answers as the recorded chain',
    );
    return { gate, chainId: recorded.chainId };
  }
}

async function refuseRewoundChain(head: bigint, state: ChainStateRepository): Promise<void> {
  const cursor = await state.highestCursor();
  if (cursor !== null && cursor > head) {
    throw new ChainIdentityError(
      `Refusing to start: the indexer has read up to block ${cursor}, but the chain's head is block ${head}: ` +
        'this is not the chain the database was written against. Point CHAIN_RPC_URL at that chain, or use a fresh database.',
    );
  }
}
