import type { Address, Hash, Hex, LocalAccount, PublicClient } from 'viem';
import { CollateralTokenAbi } from './artifacts/CollateralToken.js';
import { ParlayBookAbi } from './artifacts/ParlayBook.js';
import type { ChainWriter } from './chain-writer.js';
import type { BookLeg, BookPoolState, BookWriteKey, ParlayBookEvent, ParlayBookPort } from './parlay-book.port.js';

/** The book's ABI with the token's errors, so a revert inside the token decodes to its code. */
const BookCallAbi = [...ParlayBookAbi, ...CollateralTokenAbi.filter((item) => item.type === 'error')];
const STATUS: Record<number, 'won' | 'lost' | 'void'> = { 2: 'won', 3: 'lost', 4: 'void' };

/** ParlayBook through viem; operator writes through the chain-transaction pipeline (ChainWriter). */
export class ViemParlayBookAdapter implements ParlayBookPort {
  constructor(
    private readonly client: PublicClient,
    private readonly writer: ChainWriter,
    private readonly operator: LocalAccount,
    readonly address: Address,
  ) {}

  async events(from: bigint, to: bigint): Promise<ParlayBookEvent[]> {
    const logs = await this.client.getContractEvents({
      address: this.address,
      abi: ParlayBookAbi,
      fromBlock: from,
      toBlock: to,
      strict: true,
    });
    const times = new Map<bigint, number>();
    const timeOf = async (block: bigint) => {
      let t = times.get(block);
      if (t === undefined) {
        t = Number((await this.client.getBlock({ blockNumber: block })).timestamp);
        times.set(block, t);
      }
      return t;
    };
    const events: ParlayBookEvent[] = [];
    for (const log of logs) {
      if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue;
      const base = {
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        timestamp: await timeOf(log.blockNumber),
      };
      switch (log.eventName) {
        case 'TicketPlaced': {
          const a = log.args;
          const legs = await this.client.readContract({
            address: this.address,
            abi: ParlayBookAbi,
            functionName: 'legsOf',
            args: [a.ticketId],
          });
          events.push({
            ...base,
            kind: 'placed',
            ticketId: a.ticketId,
            bettor: a.bettor,
            nonce: a.nonce,
            stake: a.stake,
            fee: a.fee,
            payout: a.payout,
            liability: a.liability,
            legs: legs.map((l): BookLeg => ({
              conditionId: l.conditionId,
              outcomeId: Number(l.outcomeId),
              odds: l.odds,
            })),
          });
          break;
        }
        case 'ResultPosted':
          events.push({
            ...base,
            kind: 'result',
            conditionId: log.args.conditionId,
            isVoid: log.args.isVoid,
            winningOutcome: Number(log.args.winningOutcome),
          });
          break;
        case 'TicketSettled': {
          const status = STATUS[log.args.status];
          if (status)
            events.push({
              ...base,
              kind: 'settled',
              ticketId: log.args.ticketId,
              status,
              owed: log.args.owed,
              poolResult: log.args.poolResult,
            });
          break;
        }
        case 'TicketClaimed':
          events.push({
            ...base,
            kind: 'claimed',
            ticketId: log.args.ticketId,
            bettor: log.args.bettor,
            amount: log.args.amount,
          });
          break;
        case 'Deposit':
          events.push({
            ...base,
            kind: 'deposit',
            owner: log.args.owner,
            assets: log.args.assets,
            shares: log.args.shares,
          });
          break;
        case 'Withdraw':
          events.push({
            ...base,
            kind: 'withdraw',
            owner: log.args.owner,
            assets: log.args.assets,
            shares: log.args.shares,
          });
          break;
        default:
          break;
      }
    }
    return events;
  }

  postResult(conditionId: Hex, isVoid: boolean, winningOutcome: number, write: BookWriteKey): Promise<Hash> {
    return this.operatorWrite('postResult', [conditionId, isVoid, BigInt(winningOutcome)], {
      kind: 'parlay.post_result',
      key: write.key,
      effect: { conditionId, isVoid, winningOutcome },
      write,
    });
  }

  settle(ticketId: Hex, write: BookWriteKey): Promise<Hash> {
    return this.operatorWrite('settle', [ticketId], {
      kind: 'parlay.settle',
      key: write.key,
      effect: { ticketId },
      write,
    });
  }

  claim(ticketId: Hex, write: BookWriteKey): Promise<Hash> {
    return this.operatorWrite('claim', [ticketId], {
      kind: 'parlay.claim',
      key: write.key,
      effect: { ticketId },
      write,
    });
  }

  async pool(): Promise<BookPoolState> {
    const read = (
      functionName:
        'cash' | 'reserved' | 'openLiability' | 'totalAssets' | 'totalSupply' | 'feesAccrued' | 'feesPending',
    ) => this.client.readContract({ address: this.address, abi: ParlayBookAbi, functionName });
    const [cash, reserved, openLiability, totalAssets, totalSupply, feesAccrued, feesPending] = await Promise.all([
      read('cash'),
      read('reserved'),
      read('openLiability'),
      read('totalAssets'),
      read('totalSupply'),
      read('feesAccrued'),
      read('feesPending'),
    ]);
    return { cash, reserved, openLiability, totalAssets, totalSupply, feesAccrued, feesPending };
  }

  private operatorWrite(
    functionName: 'postResult' | 'settle' | 'claim',
    args: readonly unknown[],
    intent: { kind: string; key: string; effect: Record<string, unknown>; write: BookWriteKey },
  ): Promise<Hash> {
    return this.writer.contract(
      this.operator,
      { address: this.address, abi: BookCallAbi, functionName, args },
      { kind: intent.kind, key: intent.key, effect: intent.effect },
      intent.write.write ? { write: intent.write.write } : {},
    );
  }
}
