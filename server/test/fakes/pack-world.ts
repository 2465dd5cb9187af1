import { randomUUID } from 'node:crypto';
import type { PackStatus } from '@duelkit/contract';
import { getAddress, keccak256, toHex, type LocalAccount } from 'viem';
import type { Duel } from '../../src/areas/markets/duel.entity.js';
import type { PackClaimRunRepository } from '../../src/areas/packs/pack-claim-run.repository.js';
import { PackEntryService } from '../../src/areas/packs/pack-entry.service.js';
import type { PackEntryRow, PackMarketRow, PackPickRow, PackRow } from '../../src/areas/packs/pack.entities.js';
import { PackLifecycleService, type MarketDecisions } from '../../src/areas/packs/pack-lifecycle.service.js';
import { PackPayoutService } from '../../src/areas/packs/pack-payouts.service.js';
import type { NewPack, PackRepository, PackView, StandingWrite } from '../../src/areas/packs/pack.repository.js';
import { PackService, packPoolId, type PackSettings } from '../../src/areas/packs/pack.service.js';
import { PackStandings } from '../../src/areas/packs/pack-standings.js';
import type { ParentMarketService } from '../../src/areas/parent-markets/parent-market.service.js';
import { DomainError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { ManualClock } from '../../src/platform/clock.js';
import type { Region } from '../../src/platform/geo/region.js';
import { operationContext, type OperationContext } from '../../src/platform/operation.context.js';
import { memoryDistributionBook } from './distribution-book.fake.js';
import { PrizeVaultFake } from './prize-vault.fake.js';

/** Base units of one whole 18-decimal token. */
export const UNIT = 10n ** 18n;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const APP = 'app-1';
export const TREASURY = getAddress('0x0000000000000000000000000000000000007ea5');
export const PLATFORM = getAddress('0x00000000000000000000000000000000000000f0');

/** A user of the packs tests: id, managed account, region. */
export interface PackUser {
  readonly userId: string;
  readonly builderAppId: string;
  readonly address: `0x${string}`;
  readonly account: LocalAccount;
  readonly region: Region;
}

interface GroupRow {
  id: string;
  creatorAddress: string;
  question: string;
  description: string | null;
  category: string;
  coverImageUrl: string | null;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const ok = <T>(value: T) => Promise.resolve(value);

/**
 * The packs storage without PostgreSQL: the `PackRepository` contract over plain arrays, with its
 * guarded updates (a transition only from the listed states, an entry attempt undone only while
 * unsent) and its clock-judged "pending" count.
 */
export class MemoryPackRepository implements Omit<PackRepository, 'orm' | 'sql'> {
  readonly packs = new Map<string, PackRow>();
  readonly marketRows: PackMarketRow[] = [];
  readonly entryRows: PackEntryRow[] = [];
  readonly pickRows: PackPickRow[] = [];

  constructor(
    private readonly clock: ManualClock,
    private readonly groups: Map<string, GroupRow>,
    private readonly duels: Map<string, Duel>,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  insert(p: NewPack): Promise<void> {
    this.packs.set(p.id, {
      ...p,
      status: 'draft',
      poolTotal: null,
      feeAmount: null,
      feeTxHash: null,
      payoutRoot: null,
      cancelReason: null,
      createdAt: this.now(),
      publishedAt: null,
      lockedAt: null,
      resolvingAt: null,
      settledAt: null,
      claimedAt: null,
      cancelledAt: null,
      refundsClaimedAt: null,
    });
    return ok(undefined);
  }

  private viewOf(p: PackRow): PackView {
    const g = this.groups.get(p.id);
    const confirmed = this.entryRows.filter((e) => e.packId === p.id && e.status === 'confirmed');
    return {
      ...p,
      title: g?.question ?? '',
      description: g?.description ?? null,
      category: g?.category ?? '',
      coverImageUrl: g?.coverImageUrl ?? null,
      creatorAddress: g?.creatorAddress ?? PLATFORM,
      entrants: confirmed.length,
      prizePool: confirmed.reduce((sum, e) => sum + BigInt(e.amount), 0n).toString(),
      marketCount: this.marketRows.filter((m) => m.packId === p.id).length,
    };
  }

  view(id: string): Promise<PackView | null> {
    const p = this.packs.get(id);
    return ok(p ? this.viewOf(p) : null);
  }

  page(
    filter: { status?: PackStatus | undefined; collateral?: string | undefined },
    page: number,
    limit: number,
  ): Promise<{ rows: PackView[]; total: number }> {
    const rows = [...this.packs.values()]
      .filter((p) => p.status !== 'draft')
      .filter((p) => !filter.status || p.status === filter.status)
      .filter((p) => !filter.collateral || p.collateral === filter.collateral)
      .map((p) => this.viewOf(p));
    return ok({ rows: rows.slice((page - 1) * limit, page * limit), total: rows.length });
  }

  transition(id: string, from: readonly PackStatus[], to: PackStatus, extra: { cancelReason?: string } = {}) {
    const p = this.packs.get(id);
    if (!p || !from.includes(p.status)) return ok(false);
    p.status = to;
    const stamp = (
      { published: 'publishedAt', locked: 'lockedAt', resolving: 'resolvingAt', settled: 'settledAt' } as const
    )[to as 'published'];
    if (stamp) p[stamp] ??= this.now();
    if (to === 'claimed') p.claimedAt ??= this.now();
    if (to === 'cancelled') p.cancelledAt ??= this.now();
    if (extra.cancelReason !== undefined) p.cancelReason = extra.cancelReason;
    return ok(true);
  }

  markets(packId: string): Promise<PackMarketRow[]> {
    return ok(this.marketRows.filter((m) => m.packId === packId).sort((a, b) => a.position - b.position));
  }

  syncMarkets(packId: string): Promise<void> {
    const children = [...this.duels.values()]
      .filter((d) => d.parentMarketId === packId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    for (const d of children) {
      if (this.marketRows.some((m) => m.packId === packId && same(m.duelId, d.duelId))) continue;
      const position = Math.max(0, ...this.marketRows.filter((m) => m.packId === packId).map((m) => m.position)) + 1;
      this.marketRows.push({
        packId,
        duelId: d.duelId.toLowerCase(),
        position,
        addedAt: this.now(),
        resolveTxHash: null,
        voidedAt: null,
        voidReason: null,
        voidTxHash: null,
      });
    }
    return ok(undefined);
  }

  private market(packId: string, duelId: string) {
    return this.marketRows.find((m) => m.packId === packId && same(m.duelId, duelId));
  }

  setResolveTx(packId: string, duelId: string, txHash: string): Promise<void> {
    const m = this.market(packId, duelId);
    if (m) m.resolveTxHash = txHash;
    return ok(undefined);
  }

  voidMarket(packId: string, duelId: string, reason: string): Promise<boolean> {
    const m = this.market(packId, duelId);
    if (!m || m.voidedAt) return ok(false);
    m.voidedAt = this.now();
    m.voidReason = reason;
    return ok(true);
  }

  setVoidTx(packId: string, duelId: string, txHash: string): Promise<void> {
    const m = this.market(packId, duelId);
    if (m) m.voidTxHash = txHash;
    return ok(undefined);
  }

  insertEntry(e: Pick<PackEntryRow, 'id' | 'packId' | 'userId' | 'account' | 'amount'>): Promise<PackEntryRow | null> {
    if (this.entryRows.some((x) => x.packId === e.packId && x.userId === e.userId)) return ok(null);
    const row: PackEntryRow = {
      ...e,
      status: 'pending',
      attempt: 1,
      txHash: null,
      failureReason: null,
      createdAt: this.now(),
      confirmedAt: null,
      points: null,
      correctPicks: null,
      rank: null,
      payout: null,
    };
    this.entryRows.push(row);
    return ok({ ...row });
  }

  entryOf(packId: string, userId: string): Promise<PackEntryRow | null> {
    const row = this.entryRows.find((x) => x.packId === packId && x.userId === userId);
    return ok(row ? { ...row } : null);
  }

  retryEntry(id: string): Promise<PackEntryRow | null> {
    const row = this.entryRows.find((x) => x.id === id && x.status === 'failed');
    if (!row) return ok(null);
    Object.assign(row, { status: 'pending', attempt: row.attempt + 1, txHash: null, failureReason: null });
    row.createdAt = this.now();
    return ok({ ...row });
  }

  abandonAttempt(id: string, attempt: number): Promise<void> {
    const i = this.entryRows.findIndex(
      (x) => x.id === id && x.attempt === attempt && x.status === 'pending' && x.txHash === null,
    );
    const row = this.entryRows[i];
    if (row && attempt === 1) this.entryRows.splice(i, 1);
    else if (row) Object.assign(row, { status: 'failed', failureReason: 'the deposit could not be sent' });
    return ok(undefined);
  }

  setEntryTx(id: string, attempt: number, txHash: string): Promise<void> {
    const row = this.entryRows.find((x) => x.id === id && x.attempt === attempt && x.status === 'pending');
    if (row) row.txHash = txHash.toLowerCase();
    return ok(undefined);
  }

  settleEntry(id: string, txHash: string, outcome: { confirmed: true } | { confirmed: false; reason: string }) {
    const row = this.entryRows.find((x) => x.id === id && x.txHash === txHash && x.status === 'pending');
    if (!row) return ok(false);
    if (outcome.confirmed) Object.assign(row, { status: 'confirmed', confirmedAt: this.now() });
    else Object.assign(row, { status: 'failed', failureReason: outcome.reason });
    return ok(true);
  }

  pendingEntries(packId: string | null, limit: number): Promise<PackEntryRow[]> {
    return ok(
      this.entryRows
        .filter((e) => e.status === 'pending' && e.txHash !== null && (!packId || e.packId === packId))
        .slice(0, limit)
        .map((e) => ({ ...e })),
    );
  }

  countPending(packId: string): Promise<number> {
    const recent = this.clock.now() - 10 * MINUTE;
    return ok(
      this.entryRows.filter(
        (e) =>
          e.packId === packId &&
          e.status === 'pending' &&
          (e.txHash !== null || new Date(e.createdAt).getTime() > recent),
      ).length,
    );
  }

  confirmedEntries(packId: string): Promise<(PackEntryRow & { username: string | null })[]> {
    return ok(
      this.entryRows
        .filter((e) => e.packId === packId && e.status === 'confirmed')
        .sort((a, b) => (a.account.toLowerCase() < b.account.toLowerCase() ? -1 : 1))
        .map((e) => ({ ...e, username: null })),
    );
  }

  upsertPicks(rows: readonly Omit<PackPickRow, 'pickedAt'>[]): Promise<void> {
    for (const p of rows) {
      const i = this.pickRows.findIndex(
        (x) => x.packId === p.packId && x.userId === p.userId && same(x.duelId, p.duelId),
      );
      const row = { ...p, duelId: p.duelId.toLowerCase(), pickedAt: this.now() };
      if (i >= 0) this.pickRows[i] = row;
      else this.pickRows.push(row);
    }
    return ok(undefined);
  }

  picksOf(packId: string, userId: string): Promise<PackPickRow[]> {
    return ok(this.pickRows.filter((p) => p.packId === packId && p.userId === userId));
  }

  allPicks(packId: string): Promise<PackPickRow[]> {
    return ok(this.pickRows.filter((p) => p.packId === packId));
  }

  writeSettlement(
    packId: string,
    from: readonly PackStatus[],
    result: { poolTotal: bigint; feeAmount: bigint; payoutRoot: string | null; standings: readonly StandingWrite[] },
  ): Promise<boolean> {
    const p = this.packs.get(packId);
    if (!p || !from.includes(p.status)) return ok(false);
    Object.assign(p, {
      status: 'settled',
      settledAt: this.now(),
      poolTotal: result.poolTotal.toString(),
      feeAmount: result.feeAmount.toString(),
      payoutRoot: result.payoutRoot,
    });
    for (const s of result.standings) {
      const e = this.entryRows.find((x) => x.id === s.entryId);
      if (e) {
        Object.assign(e, { points: s.points, correctPicks: s.correctPicks, rank: s.rank, payout: s.payout.toString() });
      }
    }
    return ok(true);
  }

  setFeeTx(packId: string, txHash: string): Promise<void> {
    const p = this.packs.get(packId);
    if (p && !p.feeTxHash) p.feeTxHash = txHash;
    return ok(undefined);
  }

  markRefundsClaimed(packId: string): Promise<boolean> {
    const p = this.packs.get(packId);
    if (!p || p.refundsClaimedAt) return ok(false);
    p.refundsClaimedAt = this.now();
    return ok(true);
  }

  idsIn(status: PackStatus, opts: { lockedBy?: Date; limit: number }): Promise<string[]> {
    return ok(
      [...this.packs.values()]
        .filter((p) => p.status === status && (!opts.lockedBy || p.lockAt <= opts.lockedBy))
        .slice(0, opts.limit)
        .map((p) => p.id),
    );
  }

  feesDue(limit: number): Promise<string[]> {
    return ok(
      [...this.packs.values()]
        .filter((p) => ['settled', 'claimed'].includes(p.status) && !p.feeTxHash && BigInt(p.feeAmount ?? '0') > 0n)
        .slice(0, limit)
        .map((p) => p.id),
    );
  }

  refundsOpen(limit: number): Promise<string[]> {
    return ok(
      [...this.packs.values()]
        .filter((p) => p.status === 'cancelled' && !p.refundsClaimedAt)
        .slice(0, limit)
        .map((p) => p.id),
    );
  }
}

/**
 * The packs area of a unit test, without I/O: a manual clock, the real pack services over the
 * memory repository, duel rows in a map (as the indexer would keep them), the fake prize vault,
 * the real distribution book over memory tables, and recording fakes of the market decisions.
 */
export class PackWorld {
  readonly clock = new ManualClock(Date.UTC(2026, 5, 6, 12));
  readonly vault = new PrizeVaultFake();
  readonly distributions = memoryDistributionBook();
  readonly duels = new Map<string, Duel>();
  readonly groups = new Map<string, GroupRow>();
  readonly repo = new MemoryPackRepository(this.clock, this.groups, this.duels);
  readonly balances = new Map<string, bigint>();
  readonly warnings: unknown[] = [];
  /** What the market decisions were asked: resolutions with their write names, cancellations with their reasons. */
  readonly decided: { op: 'resolve' | 'discard'; duelId: string; detail: string | number }[] = [];
  /** When set, a discard answers this failure instead of cancelling the market. */
  discardFailure: { code: string; message: string } | undefined;
  private readonly accounts = new Map<string, LocalAccount>();
  private seq = 0;

  readonly logger = {
    warn: (o: unknown) => void this.warnings.push(o),
    error: (o: unknown) => void this.warnings.push(o),
    info: () => undefined,
  } as unknown as Logger;

  readonly parents = {
    createGroup: (
      owner: { address: string },
      input: { question: string; description?: string | null; category: string; coverImageUrl?: string | null },
    ) => {
      const row: GroupRow = {
        id: randomUUID(),
        creatorAddress: getAddress(owner.address),
        question: input.question,
        description: input.description ?? null,
        category: input.category,
        coverImageUrl: input.coverImageUrl ?? null,
      };
      this.groups.set(row.id, row);
      return ok(row);
    },
    addDuel: (
      ctx: OperationContext,
      creator: { userId: string; address: string },
      parentId: string,
      child: { question: string; startTime: string; endTime: string; options?: string[] },
    ) => {
      const write = ctx.writeKey('create-duel');
      const duel = this.market({
        creatorUserId: creator.userId,
        question: child.question,
        startTime: new Date(child.startTime),
        endTime: new Date(child.endTime),
        chainState: 'pending',
        parentMarketId: parentId,
      });
      return ok({ duelId: duel.duelId, txHash: keccak256(toHex(write.name + duel.duelId)) });
    },
    attachDuel: (parentId: string, duel: Duel) => {
      if (duel.parentMarketId) {
        return Promise.reject(
          new DomainError('INVALID_STATE', `Duel ${duel.duelId} already belongs to a parent market`),
        );
      }
      duel.parentMarketId = parentId;
      return ok(duel);
    },
  };

  readonly duelReader = {
    require: (duelId: string): Promise<Duel> => {
      const duel = this.duels.get(duelId.toLowerCase());
      return duel ? ok(duel) : Promise.reject(new DomainError('NOT_FOUND', `No duel with duelId ${duelId}`));
    },
  };

  readonly decisions: MarketDecisions = {
    resolveAsAdmin: (duelId, winningOptionIndex, write) => {
      this.decided.push({ op: 'resolve', duelId, detail: write.name });
      const duel = this.duels.get(duelId.toLowerCase());
      // As the indexer records it once the resolution is final (no contest period in these tests).
      if (duel) Object.assign(duel, { status: 'settled', winningOptionIndex, resolvedAt: new Date(this.clock.now()) });
      return ok({ txHash: keccak256(toHex(`resolve:${duelId}`)) });
    },
    discard: (_ctx, _admin, duelIds, reason) => {
      const duelId = duelIds[0] ?? '';
      this.decided.push({ op: 'discard', duelId, detail: reason });
      if (this.discardFailure) return ok({ results: [{ success: false as const, ...this.discardFailure }] });
      const duel = this.duels.get(duelId.toLowerCase());
      if (duel) duel.status = 'cancelled';
      return ok({ results: [{ success: true as const, txHash: keccak256(toHex(`cancel:${duelId}`)) }] });
    },
  };

  readonly settings: PackSettings = { feeBps: 500, platformAddress: PLATFORM };
  readonly history = {
    parentHistory: () => ok({ bucketSeconds: 300, series: [] as never[] }),
  };
  readonly packs = new PackService(
    this.repo as unknown as PackRepository,
    this.parents as unknown as ParentMarketService,
    this.duelReader,
    this.vault,
    this.settings,
    this.clock,
    this.history,
  );
  readonly entries = new PackEntryService(
    this.repo as unknown as PackRepository,
    this.packs,
    this.vault,
    { collateralBalance: (_stack, owner) => ok(this.balances.get(owner.toLowerCase()) ?? 0n) },
    {
      forUser: (userId) => {
        const account = this.accounts.get(userId);
        return account ? ok(account) : Promise.reject(new Error(`no managed wallet for ${userId}`));
      },
    },
    this.clock,
    this.logger,
  );
  readonly standings = new PackStandings(this.repo as unknown as PackRepository, this.packs, this.clock);
  readonly lifecycle = new PackLifecycleService(
    this.repo as unknown as PackRepository,
    this.packs,
    this.entries,
    this.standings,
    this.decisions,
    this.distributions.book,
    this.vault,
    TREASURY,
    this.clock,
    this.logger,
  );
  readonly runs = { claimRun: () => ok(null) };
  readonly payouts = new PackPayoutService(
    this.runs as unknown as PackClaimRunRepository,
    this.packs,
    this.lifecycle,
    this.distributions.book,
    this.vault,
  );

  /** A user with a managed wallet holding `credits` whole units, in a region where usdc may be used unless told. */
  user(name: string, credits = 100n, region: Region = { country: 'DE', usdcAllowed: true }): PackUser {
    const n = ++this.seq;
    // Only the address of a managed account is read here: no key is derived (that costs a curve's set-up).
    const address = getAddress(`0x${n.toString(16).padStart(40, 'a')}`);
    const account = { type: 'local', address, source: 'privateKey' } as LocalAccount;
    this.accounts.set(`user-${name}`, account);
    this.balances.set(account.address.toLowerCase(), credits * UNIT);
    return { userId: `user-${name}`, builderAppId: APP, address: account.address, account, region };
  }

  /** An open, confirmed, public market row (50/50 unless balances are given), ending `endsIn` ms from now. */
  market(over: Partial<Duel> & { endsIn?: number } = {}): Duel {
    const { endsIn = 48 * HOUR, ...rest } = over;
    const now = this.clock.now();
    const duelId = keccak256(toHex(`duel-${++this.seq}`));
    const duel: Duel = {
      id: randomUUID(),
      duelId,
      builderAppId: APP,
      creatorUserId: null,
      creatorAddress: PLATFORM,
      question: 'Who wins?',
      description: null,
      category: 'Football',
      tags: [],
      options: ['Home', 'Away'],
      duelType: 'PREDICTION',
      collateralStack: 'credits',
      isPrivate: false,
      leagueId: null,
      parentMarketId: null,
      coverImageUrl: null,
      startTime: new Date(now),
      endTime: new Date(now + endsIn),
      createdAt: new Date(now + this.seq),
      status: 'open',
      chainState: 'confirmed',
      txHash: null,
      chainError: null,
      winningOptionIndex: null,
      poolBalances: [(100n * UNIT).toString(), (100n * UNIT).toString()],
      totalVolume: '0',
      uniqueParticipants: 0,
      yesBps: 5000,
      extMarketId: null,
      extVolume24h: null,
      extLive: false,
      isCanonical: false,
      feeBps: 100,
      initialLiquidity: (200n * UNIT).toString(),
      resolvedAt: null,
      contestEndsAt: null,
      ...rest,
    };
    this.duels.set(duelId.toLowerCase(), duel);
    return duel;
  }

  /** A fresh operation context at the clock's now. */
  context(): OperationContext {
    return operationContext({ requestId: `req-${randomUUID()}`, clock: this.clock });
  }

  /**
   * A pack in `status` with `markets` already bundled (admin-built, entry fee 10, locking in a day),
   * written straight into the memory as the earlier steps would have left it.
   */
  pack(
    opts: { status?: PackStatus; markets?: Duel[]; entryFee?: bigint; feeBps?: number; lockIn?: number } = {},
  ): PackRow {
    const id = randomUUID();
    this.groups.set(id, {
      id,
      creatorAddress: PLATFORM,
      question: 'Weekend pack',
      description: null,
      category: 'Football',
      coverImageUrl: null,
    });
    const now = this.clock.now();
    void this.repo.insert({
      id,
      builderAppId: APP,
      createdBy: 'admin',
      creatorUserId: null,
      collateral: 'credits',
      entryFee: (opts.entryFee ?? 10n * UNIT).toString(),
      feeBps: opts.feeBps ?? 500,
      lockAt: new Date(now + (opts.lockIn ?? 24 * HOUR)),
      poolId: packPoolId(id),
    });
    for (const m of opts.markets ?? []) m.parentMarketId = id;
    void this.repo.syncMarkets(id);
    const row = this.repo.packs.get(id)!;
    row.status = opts.status ?? 'published';
    return row;
  }

  /** A confirmed entry of `user` (its deposit verified), as `enter` leaves it once mined. */
  async entered(pack: PackRow, user: PackUser): Promise<PackEntryRow> {
    const dto = await this.entries.enter(this.context(), user, pack.id);
    const entry = this.repo.entryRows.find((e) => e.packId === pack.id && e.userId === user.userId)!;
    if (dto.status !== 'confirmed') throw new Error(`entry of ${user.userId} is ${dto.status}`);
    return entry;
  }
}
