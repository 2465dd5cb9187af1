import { randomBytes } from 'node:crypto';
import type { CreateDuelRequest, DuelDto, DuelListQuery } from '@duelkit/contract';
import { getAddress, keccak256, toHex } from 'viem';
import type { CollateralPort } from '../../adapters/chain/collateral.port.js';
import type { MarketLifecyclePort } from '../../adapters/chain/market-lifecycle.port.js';
import { MIN_STAKE } from './fpmm.math.js';
import type { OperationContext } from '../../platform/operation.context.js';
import { DomainError } from '../../errors.js';
import type { ManagedSigners } from '../identity/managed-signers.js';
import type { Duel } from './duel.entity.js';
import { CountCache, ListCache } from './duel-list.cache.js';
import { decodeDuelCursor, encodeDuelCursor } from './duel-cursor.mapper.js';
import { duelPrices, toDuelDto } from './duel.mapper.js';
import type { DuelPageRequest, DuelRepository, PendingDuel } from './duel.repository.js';
import type { MarketAccess } from './market-access.js';
import type { Clock } from '../../platform/clock.js';

/** How long a trading duel's row is remembered at most (`requireForTrading`). */
const TRADING_VIEW_MS = 1_000;

export interface DuelSettings {
  readonly feeBps: number;
  readonly initialLiquidity: bigint;
  readonly publicLeadSeconds: number;
  readonly privateLeadSeconds: number;
  readonly contestPeriodSeconds: number;
}

/** The caller of a write: who they are and which managed wallet signs. */
export interface Creator {
  readonly userId: string;
  readonly builderAppId: string;
  readonly address: string;
}

export interface DuelPage {
  data: DuelDto[];
  pagination: { page: number; limit: number; total: number; hasMore: boolean };
  nextCursor: string | null;
}

/** What the duel service works with. */
export interface DuelDeps {
  readonly collateral: Pick<CollateralPort, 'collateralBalance'>;
  readonly lifecycle: Pick<MarketLifecyclePort, 'createMarket'>;
  readonly signers: Pick<ManagedSigners, 'forUser'>;
  readonly repo: DuelRepository;
  readonly access: Pick<MarketAccess, 'assertCanView'>;
  readonly listCache: ListCache<DuelPage>;
  readonly settings: DuelSettings;
  readonly clock: Clock;
}

/**
 * Markets: creation on chain (accepted, not final), and reads of the read model the indexer keeps.
 */
export class DuelService {
  /**
   * Duels that trade (confirmed on chain and open), by duelId, for a moment: every quote and every
   * bet reads its duel. Dropped with the list caches whenever this instance writes the read model
   * (the indexer, settlement, creation); other instances converge within the TTL, and the chain
   * refuses a trade on a market that stopped trading in that window (MarketClosed, MarketNotOpen).
   */
  private readonly trading: ListCache<Duel>;

  /** Totals per filter, for the list cache's window (see `CountCache`). */
  private readonly totals: CountCache;

  constructor(private readonly deps: DuelDeps) {
    const { listCache } = deps;
    this.trading = new ListCache<Duel>(Math.min(TRADING_VIEW_MS, listCache.ttlMs));
    this.totals = new CountCache(listCache.ttlMs, deps.clock);
    listCache.onInvalidate(() => {
      this.trading.invalidate();
      this.totals.invalidate();
    });
  }

  /**
   * Validates, then submits the creation signed by the creator's managed wallet; the duel row
   * (chainState pending) is written in the same transaction that records the signed creation, so
   * a pre-flight revert leaves nothing behind and a recorded creation always has its duel.
   * `parentMarketId` makes it a sub-market of a parent market.
   */
  async create(
    ctx: OperationContext,
    creator: Creator,
    input: CreateDuelRequest,
    parentMarketId: string | null = null,
  ) {
    const isPrivate = input.isPrivate ?? false;
    const start = Date.parse(input.startTime);
    const end = Date.parse(input.endTime);
    const now = ctx.now.getTime();
    const lead = isPrivate ? this.deps.settings.privateLeadSeconds : this.deps.settings.publicLeadSeconds;
    const minStart = now + lead * 1000;
    if (start <= now || start < minStart) {
      throw new DomainError(
        'START_TIME_TOO_SOON',
        start <= now
          ? 'Start time must be in the future'
          : `Start time must be at least ${lead} seconds ahead for a ${isPrivate ? 'private' : 'public'} market`,
        { details: { minStartTime: new Date(minStart).toISOString(), leadSeconds: lead } },
      );
    }
    if (end <= start) {
      throw new DomainError('VALIDATION_FAILED', 'End time must be after start time', {
        fieldErrors: { 'body.endTime': ['must be after startTime'] },
      });
    }
    const duelType = input.duelType ?? 'PREDICTION';
    if (duelType === 'VERSUS' && !input.options) {
      throw new DomainError('VALIDATION_FAILED', 'A VERSUS market names its sides', {
        fieldErrors: { 'body.options': ['required when duelType is VERSUS'] },
      });
    }
    const options = input.options ?? ['YES', 'NO'];
    const funding = input.initialLiquidity ? BigInt(input.initialLiquidity) : this.deps.settings.initialLiquidity;
    if (funding < MIN_STAKE) {
      throw new DomainError('BET_BELOW_MINIMUM', 'The initial liquidity is below the 5-unit minimum', {
        details: { minimum: MIN_STAKE.toString() },
      });
    }
    const stack = input.collateralStack ?? 'credits';
    const creatorAddress = getAddress(creator.address);
    // A resumed request may already have funded this very duel: the chain's simulation decides then.
    const { resumed } = ctx;
    const available = resumed ? funding : await this.deps.collateral.collateralBalance(stack, creatorAddress);
    if (available < funding) {
      throw new DomainError(
        'INSUFFICIENT_CREDITS',
        'Insufficient Credits: the managed wallet cannot fund the liquidity',
        {
          details: { required: funding.toString(), available: available.toString(), collateralStack: stack },
        },
      );
    }
    const signer = await this.deps.signers.forUser(creator.userId);
    // A request retried after a crash must create the same duel, so its id comes from the
    // request's Idempotency-Key when it has one.
    const scoped = ctx.scopedKey('duel');
    const duelId = scoped ? keccak256(toHex(`${creator.builderAppId}:${scoped}`)) : toHex(randomBytes(32));
    const row: PendingDuel = {
      duelId,
      builderAppId: creator.builderAppId,
      creatorUserId: creator.userId,
      creatorAddress,
      question: input.question,
      description: input.description ?? null,
      category: input.category,
      tags: input.tags ?? [],
      options,
      duelType,
      collateralStack: stack,
      isPrivate,
      leagueId: input.leagueId ?? null,
      coverImageUrl: input.coverImageUrl ?? null,
      startTime: new Date(start),
      endTime: new Date(end),
      yesBps: Math.floor(10_000 / options.length),
      feeBps: this.deps.settings.feeBps,
      initialLiquidity: funding,
      parentMarketId,
    };
    const answer = (txHash: `0x${string}`) => ({ duelId, txHash, chainState: 'pending' as const });
    const txHash = await this.deps.lifecycle.createMarket(
      signer,
      {
        duelId,
        collateral: stack,
        options: options.length,
        startTime: Math.floor(start / 1000),
        endTime: Math.floor(end / 1000),
        feeBps: this.deps.settings.feeBps,
        isPrivate,
        funding,
        // The chain re-checks a slightly shorter lead, so a request valid here never reverts for it.
        minLeadSeconds: Math.max(0, lead - 60),
        contestPeriodSeconds: this.deps.settings.contestPeriodSeconds,
      },
      {
        write: ctx.writeKey(`create-duel:${duelId}`),
        // The duel row exists exactly when its creation is recorded: same transaction.
        record: (sql, hash) => this.deps.repo.insertPending(sql, row, hash),
        // A sub-market's creation is one write of its parent's request, not that request's answer.
        ...(parentMarketId === null ? { result: answer } : {}),
      },
    );
    this.deps.listCache.invalidate();
    return answer(txHash);
  }

  /** A page of a duel list (§4.6); public pages are cached briefly and invalidated by the indexer. */
  async list(query: DuelListQuery, opts: { leagueId?: string; isAdmin: boolean }): Promise<DuelPage> {
    if (query.includePrivate && !opts.isAdmin) {
      throw new DomainError('FORBIDDEN', 'includePrivate is for admin tokens only', {
        fieldErrors: { 'query.includePrivate': ['admin only'] },
      });
    }
    const after = query.cursor ? decodeDuelCursor(query.cursor, query.sortBy, query.sortOrder) : undefined;
    const req: DuelPageRequest = {
      page: after ? after.page : query.page,
      limit: query.limit,
      collateralStack: query.collateralStack,
      category: query.category,
      status: query.status,
      leagueId: opts.leagueId,
      includePrivate: query.includePrivate ?? false,
      sortBy: query.sortBy,
      sortOrder: query.sortOrder,
      after: after ? { key: after.key, id: after.id } : undefined,
    };
    const load = async (): Promise<DuelPage> => {
      const [rows, total] = await Promise.all([this.deps.repo.page(req, 1), this.total(req)]);
      const hasMore = rows.length > req.limit;
      const page = hasMore ? rows.slice(0, req.limit) : rows;
      const last = page[page.length - 1];
      return {
        data: page.map((r) => toDuelDto(r)),
        pagination: { page: req.page, limit: req.limit, total, hasMore },
        nextCursor:
          hasMore && last
            ? encodeDuelCursor({
                sortBy: req.sortBy,
                sortOrder: req.sortOrder,
                key: last.sortKey,
                id: last.id,
                page: req.page + 1,
              })
            : null,
      };
    };
    if (req.includePrivate) return load();
    return this.deps.listCache.get(JSON.stringify(req), load);
  }

  /** The filter's total: counted once per filter per list-cache window, shared by its pages and sorts. */
  private total(req: DuelPageRequest): Promise<number> {
    const filter = {
      collateralStack: req.collateralStack,
      category: req.category,
      status: req.status,
      leagueId: req.leagueId,
      includePrivate: req.includePrivate,
      // This sort lists canonical duels only: another filter.
      canonical: req.sortBy === 'extMarketVolume24h',
    };
    if (req.includePrivate) return this.deps.repo.count(req);
    return this.totals.get(JSON.stringify(filter), () => this.deps.repo.count(req));
  }

  async canonical(status: 'live' | 'upcoming' | 'all', limit: number): Promise<{ data: DuelDto[] }> {
    const rows = await this.deps.repo.canonical(status, limit, new Date(this.deps.clock.now()));
    return { data: rows.map((r) => toDuelDto(r)) };
  }

  /** A duel by its on-chain id, with private access enforced for `caller`. */
  async get(duelId: string, caller?: string, userAddress?: string): Promise<DuelDto> {
    const duel = await this.require(duelId);
    await this.deps.access.assertCanView(duel, caller);
    const participated = userAddress ? await this.deps.repo.hasTraded(duel.duelId, getAddress(userAddress)) : undefined;
    return toDuelDto(duel, participated);
  }

  /**
   * The duel row for quoting and trading: remembered for up to a second while it trades (see
   * `trading`); a duel that does not trade is read every time, so it trades as soon as it may.
   * Callers must not change the row.
   */
  requireForTrading(duelId: string): Promise<Duel> {
    if (this.trading.ttlMs <= 0) return this.require(duelId);
    return this.trading.get(
      duelId.toLowerCase(),
      () => this.require(duelId),
      (duel) => duel.chainState === 'confirmed' && duel.status === 'open',
    );
  }

  /** The duel row or a 404 that says which id is expected. */
  async require(duelId: string): Promise<Duel> {
    const duel = /^0x[0-9a-fA-F]{64}$/.test(duelId) ? await this.deps.repo.byDuelId(duelId) : null;
    if (duel) return duel;
    const hint = (await this.deps.repo.existsByRowId(duelId))
      ? ' That is the database id: pass the on-chain duelId (0x + 64 hex) instead.'
      : ' Pass the on-chain duelId (0x + 64 hex).';
    throw new DomainError('NOT_FOUND', `No duel with duelId ${duelId}.${hint}`, { details: { duelId } });
  }

  async participants(duelId: string, caller: string) {
    const duel = await this.require(duelId);
    await this.deps.access.assertCanView(duel, caller);
    const rows = await this.deps.repo.participants(duel.duelId);
    const value = valuer(duel);
    const byHolder = new Map<string, (typeof rows)[number][]>();
    for (const r of rows) byHolder.set(r.holder, [...(byHolder.get(r.holder) ?? []), r]);
    const participants = [...byHolder.entries()].map(([holder, positions]) => {
      const first = positions[0];
      const mapped = positions.map((p) => ({
        optionIndex: p.optionIndex,
        optionLabel: duel.options[p.optionIndex] ?? String(p.optionIndex),
        shares: p.shares,
        costBasis: p.costBasis,
        currentValue: value(p.optionIndex, BigInt(p.shares), BigInt(p.costBasis)).toString(),
      }));
      const totalCost = mapped.reduce((a, p) => a + BigInt(p.costBasis), 0n);
      const totalValue = mapped.reduce((a, p) => a + BigInt(p.currentValue), 0n);
      const paidIn = BigInt(first?.bought ?? '0');
      const received = BigInt(first?.sold ?? '0');
      return {
        userAddress: getAddress(holder),
        username: first?.username ?? null,
        positions: mapped,
        totalCostBasis: totalCost.toString(),
        totalCurrentValue: totalValue.toString(),
        pnl: (totalValue + received - paidIn).toString(),
      };
    });
    return { duelId: duel.duelId, participants };
  }

  async ogMetadata(duelId: string, baseUrl: string) {
    const duel = await this.require(duelId);
    if (duel.isPrivate) {
      // Share cards are public by nature; a private market's card reveals nothing about it.
      return {
        duelId: duel.duelId,
        title: 'Private market',
        description: 'A private prediction market on Duelkit. Join it with an invite.',
        imageUrl: `${baseUrl}/media/og/private.png`,
        url: `${baseUrl}/duels/${duel.duelId}`,
        siteName: 'Duelkit',
      };
    }
    const dto = toDuelDto(duel);
    const odds = duel.options.map((o, i) => `${o} ${percentOf(dto.prices[i])}%`).join(' · ');
    return {
      duelId: duel.duelId,
      title: duel.question,
      description: [duel.description, odds].filter(Boolean).join(' — ').slice(0, 300),
      imageUrl: duel.coverImageUrl ?? `${baseUrl}/media/og/${duel.duelId}.png`,
      url: `${baseUrl}/duels/${duel.duelId}`,
      siteName: 'Duelkit',
    };
  }
}

function percentOf(price: string | undefined): string {
  return (Number(BigInt(price ?? '0') / 10n ** 14n) / 100).toFixed(2);
}

/**
 * Value of a position in base units: settled → winning shares pay one unit each; cancelled →
 * refunded at cost; otherwise shares at the marginal price.
 */
export function valuer(duel: Pick<Duel, 'status' | 'winningOptionIndex' | 'poolBalances' | 'options'>) {
  const p = duelPrices(duel);
  return (option: number, shares: bigint, costBasis: bigint): bigint => {
    if (duel.status === 'settled') return option === duel.winningOptionIndex ? shares : 0n;
    if (duel.status === 'cancelled') return costBasis;
    return (shares * (p[option] ?? 0n)) / 10n ** 18n;
  };
}
