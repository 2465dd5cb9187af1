import { parseEventLogs, TransactionReceiptNotFoundError, type Address, type Hash, type PublicClient } from 'viem';
import { DuelMarketsAbi } from './artifacts/DuelMarkets.js';
import type { MarketEvent } from './chain.port.js';
import { decodeMarketEvent, type DecodedMarketLog } from './market-events.js';

/** The market contract's events, decoded into domain events with their block times. */
export class MarketEventReader {
  constructor(
    private readonly client: PublicClient,
    private readonly markets: Address,
  ) {}

  /** Events in blocks [from, to], in chain order. */
  async between(from: bigint, to: bigint): Promise<MarketEvent[]> {
    const logs = await this.client.getContractEvents({
      address: this.markets,
      abi: DuelMarketsAbi,
      fromBlock: from,
      toBlock: to,
      strict: true,
    });
    return this.toEvents(logs);
  }

  /** Events of one mined transaction (empty while it is pending). */
  async ofTransaction(hash: Hash): Promise<MarketEvent[]> {
    let receipt;
    try {
      receipt = await this.client.getTransactionReceipt({ hash });
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError) return [];
      throw err;
    }
    const logs = parseEventLogs({
      abi: DuelMarketsAbi,
      logs: receipt.logs.filter((l) => l.address.toLowerCase() === this.markets.toLowerCase()),
    });
    return this.toEvents(logs);
  }

  private async toEvents(logs: readonly DecodedMarketLog[]): Promise<MarketEvent[]> {
    // Every block's time asked for at once: reads made together go to the node as one JSON-RPC
    // batch (CHAIN_RPC_BATCH_SIZE), where one block at a time made a request per block.
    const blocks = [...new Set(logs.flatMap((l) => (l.blockNumber === null ? [] : [l.blockNumber])))];
    const times = new Map(
      await Promise.all(
        blocks.map(async (blockNumber) => {
          const header = await this.client.getBlock({ blockNumber });
          return [blockNumber, Number(header.timestamp)] as const;
        }),
      ),
    );
    const timeOf = (block: bigint) => {
      const t = times.get(block);
      if (t === undefined) throw new Error(`no header read for block ${block}`);
      return t;
    };
    const events: MarketEvent[] = [];
    for (const log of logs) {
      if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue;
      const event = decodeMarketEvent(log, {
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        timestamp: timeOf(log.blockNumber),
      });
      if (event) events.push(event);
    }
    return events;
  }
}
