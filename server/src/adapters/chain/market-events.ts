import type { Log } from 'viem';
import type { DuelMarketsAbi } from './artifacts/DuelMarkets.js';
import type { Bytes32, MarketEvent } from './chain.port.js';

/** A log of the market contract as viem decodes it (getContractEvents or parseEventLogs). */
export type DecodedMarketLog = Log<bigint, number, false, undefined, true, typeof DuelMarketsAbi>;

interface Position {
  readonly txHash: Bytes32;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  readonly timestamp: number;
}

/** Turns one decoded contract log into a domain event; unknown events are dropped. */
export function decodeMarketEvent(log: DecodedMarketLog, at: Position): MarketEvent | undefined {
  switch (log.eventName) {
    case 'MarketCreated': {
      const a = log.args;
      return { ...at, kind: 'created', duelId: a.duelId, creator: a.creator, options: a.options, funding: a.funding };
    }
    case 'Bought': {
      const a = log.args;
      return {
        ...at,
        kind: 'bought',
        duelId: a.duelId,
        trader: a.buyer,
        option: a.option,
        collateral: a.investment,
        fee: a.fee,
        shares: a.sharesOut,
        balances: a.balances,
      };
    }
    case 'Sold': {
      const a = log.args;
      return {
        ...at,
        kind: 'sold',
        duelId: a.duelId,
        trader: a.seller,
        option: a.option,
        collateral: a.returnAmount,
        fee: a.fee,
        shares: a.sharesIn,
        balances: a.balances,
      };
    }
    case 'Resolved': {
      const a = log.args;
      return { ...at, kind: 'resolved', duelId: a.duelId, outcome: a.outcome, contestEndsAt: Number(a.contestEndsAt) };
    }
    case 'Settled':
      return { ...at, kind: 'settled', duelId: log.args.duelId, outcome: log.args.outcome };
    case 'Cancelled':
      return { ...at, kind: 'cancelled', duelId: log.args.duelId };
    case 'Paid': {
      const a = log.args;
      return { ...at, kind: 'paid', duelId: a.duelId, holder: a.holder, amount: a.amount, refund: a.refund };
    }
    case 'InviteCreated': {
      const a = log.args;
      return {
        ...at,
        kind: 'invite_created',
        duelId: a.duelId,
        codeHash: a.codeHash,
        maxUses: a.maxUses,
        expiresAt: Number(a.expiresAt),
      };
    }
    case 'InviteRevokedEvent':
      return { ...at, kind: 'invite_revoked', duelId: log.args.duelId, codeHash: log.args.codeHash };
    case 'MemberAdded': {
      const a = log.args;
      return { ...at, kind: 'member_added', duelId: a.duelId, member: a.member, codeHash: a.codeHash };
    }
    case 'MemberRemoved':
      return { ...at, kind: 'member_removed', duelId: log.args.duelId, member: log.args.member };
    default:
      return undefined;
  }
}
