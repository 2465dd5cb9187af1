import type { Address } from 'viem';
import type {
  CancelRequestFilter,
  CancelRequestRow,
  CancellationRepository,
} from '../../src/areas/tournaments/tournament-cancellation.repository.js';
import type { BondMovementRow, BondRepository } from '../../src/areas/tournaments/tournament-bond.repository.js';
import type {
  AutomationRunRow,
  CloseRepository,
  DisputeFilter,
  DisputeRow,
  OverrideRow,
  SettlementRow,
} from '../../src/areas/tournaments/tournament-close.repository.js';
import type { DepositRepository } from '../../src/areas/tournaments/tournament-deposit.repository.js';
import type { PlayRepository, StandingWrite } from '../../src/areas/tournaments/tournament-play.repository.js';
import type {
  NewFixture,
  NewStage,
  NewTournament,
  TournamentDb,
  TournamentFilter,
  TournamentRepos,
  TournamentRepository,
} from '../../src/areas/tournaments/tournament.repository.js';
import type {
  Actor,
  DepositRow,
  EntryRow,
  FixtureRow,
  MatchRow,
  PickRow,
  StageEntryRow,
  StageRow,
  TournamentRow,
} from '../../src/areas/tournaments/tournament.types.js';
import { ManualClock } from '../../src/platform/clock.js';
import { CREATOR, HOUR, T0, UNIT, at, fixtureRow, hash, stageRow, tournamentRow } from './tournament-rows.js';

/** An entry as stored: its seed is recomputed from `seq` on every read, as the repository's query does. */
export type StoredEntry = EntryRow & { seq: number };
type AuditRow = Parameters<CloseRepository['audit']>[0];

/**
 * Every table the tournaments area writes, as plain rows. A tournament's `entryCount` and
 * `prizePool` and an entry's `seed` are computed by the repositories' queries: reads recompute
 * them, whatever the stored row says.
 */
export interface TournamentTables {
  tournaments: TournamentRow[];
  stages: StageRow[];
  fixtures: FixtureRow[];
  entries: StoredEntry[];
  deposits: DepositRow[];
  seats: StageEntryRow[];
  /** By stage: `writeMatches` replaces a stage's matches. */
  matches: Map<string, MatchRow[]>;
  picks: PickRow[];
  /** By `wallet|asset`, the wallet lower-cased. */
  bonds: Map<string, bigint>;
  movements: BondMovementRow[];
  disputes: DisputeRow[];
  settlements: SettlementRow[];
  overrides: OverrideRow[];
  audit: AuditRow[];
  cancelRequests: CancelRequestRow[];
  runs: AutomationRunRow[];
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  a != null && b != null && a.toLowerCase() === b.toLowerCase();
/** Answers a copy, as a query would: a caller mutating a row changes no table. */
const ok = <T>(value: T) => Promise.resolve(structuredClone(value));

/** A repository whose unmodelled methods reject with their name instead of being undefined. */
function partial<T extends object>(name: string, impl: Partial<T>): T {
  return new Proxy(impl as T, {
    get(target, prop, receiver) {
      if (prop in target || typeof prop === 'symbol' || prop === 'then') return Reflect.get(target, prop, receiver);
      return () => Promise.reject(new Error(`${name}.${String(prop)} is not modelled by the tournament world`));
    },
  });
}

/**
 * The tournaments area's storage in memory, behind the `TournamentDb` its services take: the
 * repositories' methods the services use, with the same answers (entry seeds, the computed entry
 * count and prize pool, insert-once semantics). Reads answer copies. A transaction runs on the same
 * tables and is rolled back when its function throws, as PostgreSQL would; the rows keep their
 * identity, so a row a test seeded stays the stored one. `onLock` runs as a row lock is taken: what
 * another transaction committed while this one waited. A method nobody modelled rejects with its name.
 */
export class TournamentWorld {
  /** The clock the parent-linked seeders (`liveFinal`, `stage`, `fixture`, `entry`) date rows by. */
  readonly clock = new ManualClock(T0);
  readonly tables: TournamentTables = {
    tournaments: [],
    stages: [],
    fixtures: [],
    entries: [],
    deposits: [],
    seats: [],
    matches: new Map(),
    picks: [],
    bonds: new Map(),
    movements: [],
    disputes: [],
    settlements: [],
    overrides: [],
    audit: [],
    cancelRequests: [],
    runs: [],
  };
  /** The tournament ids whose row lock was taken, in order. */
  readonly locks: string[] = [];
  /** Runs as a row lock is taken: what another transaction committed while this one waited for it. */
  onLock: ((tournamentId: string) => void) | undefined;
  private ids = 0;
  /** Where the open transaction rolls back to. */
  private savepoint: Savepoint | undefined;

  readonly repos: TournamentRepos = {
    tournaments: partial<TournamentRepository>('tournaments', this.tournamentRepo()),
    play: partial<PlayRepository>('play', this.playRepo()),
    bonds: partial<BondRepository>('bonds', this.bondRepo()),
    deposits: partial<DepositRepository>('deposits', this.depositRepo()),
    close: partial<CloseRepository>('close', this.closeRepo()),
    cancellation: partial<CancellationRepository>('cancellation', this.cancellationRepo()),
  };

  readonly db: TournamentDb = {
    read: this.repos,
    transaction: async <T>(fn: (r: TournamentRepos) => Promise<T>): Promise<T> => {
      const outer = this.savepoint;
      this.savepoint = savepoint(this.tables);
      try {
        return await fn(this.repos);
      } catch (err) {
        this.savepoint.restore();
        throw err;
      } finally {
        this.savepoint = outer;
      }
    },
  } as unknown as TournamentDb;

  // ---- seeding on the area's standard fixture (tournament TID, stages s-<n>: tournament-rows.ts) ----

  addTournament(over: Partial<TournamentRow> = {}): TournamentRow {
    const row = tournamentRow(over);
    this.tables.tournaments.push(row);
    return this.tournament(row.id)!;
  }

  addStage(index: number, over: Partial<StageRow> = {}): StageRow {
    const s = stageRow(index, over);
    this.tables.stages.push(s);
    return s;
  }

  addFixture(id: string, stageId: string, over: Partial<FixtureRow> = {}): FixtureRow {
    const f = fixtureRow(id, stageId, over);
    this.tables.fixtures.push(f);
    return f;
  }

  /** An entry with its deposit of `amount` (none when 0). */
  addEntry(
    tournamentId: string,
    actor: Actor,
    over: Partial<StoredEntry> & { amount?: bigint; txHash?: string } = {},
  ): EntryRow {
    const { amount = 5n * UNIT, txHash = `0x${(++this.ids).toString(16).padStart(64, 'e')}`, ...rest } = over;
    const entry = this.store(
      {
        id: `e-${++this.ids}`,
        tournamentId,
        wallet: actor.wallet,
        userId: actor.userId,
        isCreator: false,
        depositTxHash: txHash,
        enteredAt: at(0),
        ...rest,
      },
      amount,
    );
    return this.entriesOf(tournamentId).find((e) => e.id === entry.id)!;
  }

  addSeat(stageId: string, entry: EntryRow, over: Partial<StageEntryRow> = {}): StageEntryRow {
    const seat: StageEntryRow = {
      stageId,
      entryId: entry.id,
      tournamentId: entry.tournamentId,
      wallet: entry.wallet,
      startChips: 1000,
      available: 1000,
      stack: 1000,
      rank: null,
      groupLabel: null,
      groupRank: null,
      status: 'ALIVE',
      paidTxHash: null,
      picks: 0,
      wonPicks: 0,
      seed: entry.seed,
      username: null,
      ...over,
    };
    this.tables.seats.push(seat);
    return seat;
  }

  // ---- seeding from a parent row, dated by the world's clock; each answers the stored row ----

  /** A LIVE two-entrant knockout final owned by CREATOR, starting an hour from now, ids counting up. */
  liveFinal(over: Partial<TournamentRow> = {}): TournamentRow {
    const now = this.clock.now();
    const row = tournamentRow({
      // A 12-byte hex id, as the service mints them (the vault pool is derived from it).
      id: (this.tables.tournaments.length + 1).toString(16).padStart(24, '0'),
      ownerWallet: CREATOR,
      ownerUserId: null,
      totalStages: 1,
      maxEntrants: 2,
      fixturesPerStage: 1,
      leagueId: 39,
      payoutBps: [10_000],
      creatorDepositTxHash: hash(0xc0),
      poolId: `0x${'ab'.repeat(32)}`,
      startsAt: new Date(now + HOUR),
      endsAt: new Date(now + 4 * HOUR),
      createdAt: new Date(now),
      ...over,
    });
    this.tables.tournaments.push(row);
    return row;
  }

  /** The tournament's next stage, over its whole window; the last one is the final. */
  stage(t: TournamentRow, over: Partial<StageRow> = {}): StageRow {
    const index = over.stageIndex ?? this.tables.stages.filter((s) => s.tournamentId === t.id).length + 1;
    return this.addStage(index, {
      id: `${t.id}-s${index}`,
      tournamentId: t.id,
      stageName: index === t.totalStages ? 'Final' : `Stage ${index}`,
      isFinal: index === t.totalStages,
      startChips: t.chipsPerStage,
      windowStart: t.startsAt,
      windowEnd: t.endsAt,
      startsAt: t.startsAt,
      lockAt: t.startsAt,
      endsAt: t.endsAt,
      lastLockAt: t.startsAt,
      ...over,
    });
  }

  /** A fixture of the stage locking at its lock (home 2.00, draw 3.20, away 3.00). */
  fixture(stage: StageRow, over: Partial<FixtureRow> = {}): FixtureRow {
    const n = this.tables.fixtures.length + 1;
    return this.addFixture(`f-${n}`, stage.id, {
      tournamentId: stage.tournamentId,
      providerFixtureId: 1000 + n,
      title: 'Home v Away',
      startsAt: stage.lockAt,
      lockAt: stage.lockAt,
      endsAt: new Date(stage.lockAt.getTime() + 2 * HOUR),
      expiresAt: new Date(stage.lockAt.getTime() + 48 * HOUR),
      oddsDraw: 320,
      oddsAway: 300,
      ...over,
    });
  }

  /** An entry of `wallet` (no managed wallet) with its recorded stage-1 deposit of `amount`. */
  entry(t: TournamentRow, wallet: Address, over: Partial<EntryRow> & { amount?: bigint } = {}): StoredEntry {
    const { amount = 5n * UNIT, ...rest } = over;
    const n = this.tables.entries.length + 1;
    return this.store(
      {
        id: `e-${n}`,
        tournamentId: t.id,
        wallet,
        userId: null,
        isCreator: false,
        depositTxHash: hash(n),
        enteredAt: new Date(this.clock.now()),
        ...rest,
      },
      amount,
    );
  }

  /** Seats an entry in a stage with the stage's chips. */
  seat(stage: StageRow, entry: EntryRow, over: Partial<StageEntryRow> = {}): StageEntryRow {
    const chips = { startChips: stage.startChips, available: stage.startChips, stack: stage.startChips };
    return this.addSeat(stage.id, entry, { tournamentId: stage.tournamentId, seed: 0, ...chips, ...over });
  }

  seatOf(stage: StageRow, entry: EntryRow): StageEntryRow | undefined {
    return this.tables.seats.find((s) => s.stageId === stage.id && s.entryId === entry.id);
  }

  /** Stores an entry after the tournament's others, with its stage-1 deposit when `amount` is positive. */
  private store(
    e: Omit<EntryRow, 'seed' | 'placement' | 'stagesPlayed' | 'points' | 'status'> & Partial<EntryRow>,
    amount: bigint,
  ): StoredEntry {
    const entry: StoredEntry = {
      placement: null,
      stagesPlayed: 0,
      points: 0,
      status: 'ALIVE',
      seed: this.tables.entries.filter((x) => x.tournamentId === e.tournamentId).length + 1,
      seq: Math.max(0, ...this.tables.entries.map((x) => x.seq)) + 1,
      ...e,
    };
    this.tables.entries.push(entry);
    if (amount > 0n) {
      this.tables.deposits.push({
        txHash: entry.depositTxHash,
        tournamentId: entry.tournamentId,
        stageIndex: 1,
        wallet: entry.wallet,
        amount: amount.toString(),
        purpose: entry.isCreator ? 'create' : 'entry',
        refundTxHash: null,
        refundedAt: null,
      });
    }
    return entry;
  }

  // ---- reads the tests assert on -------------------------------------------------------------

  tournament(id: string): TournamentRow | null {
    const t = this.tables.tournaments.find((x) => x.id === id);
    if (!t) return null;
    const pool = this.tables.deposits
      .filter((d) => d.tournamentId === id && !d.refundedAt)
      .reduce((sum, d) => sum + BigInt(d.amount), 0n);
    return { ...t, entryCount: this.entriesOf(id).length, prizePool: pool.toString() };
  }

  entriesOf(tournamentId: string): EntryRow[] {
    return this.tables.entries
      .filter((e) => e.tournamentId === tournamentId)
      .sort((a, b) => a.seq - b.seq)
      .map(({ seq: _seq, ...e }, i) => ({ ...e, seed: i + 1 }));
  }

  bond(wallet: string, asset = 'credits'): bigint {
    return this.tables.bonds.get(`${wallet.toLowerCase()}|${asset}`) ?? 0n;
  }

  setBond(wallet: string, amount: bigint, asset = 'credits'): void {
    this.tables.bonds.set(`${wallet.toLowerCase()}|${asset}`, amount);
  }

  // ---- the repositories ----------------------------------------------------------------------

  private tournamentRepo(): Partial<TournamentRepository> {
    const t = this.tables;
    const involves = (x: TournamentRow, wallet: string) =>
      same(x.ownerWallet, wallet) || t.entries.some((e) => e.tournamentId === x.id && same(e.wallet, wallet));
    const read = (rows: TournamentRow[]) => rows.map((x) => this.tournament(x.id)!);
    return {
      byId: (id) => ok(this.tournament(id)),
      statusShared: (id) => ok(this.tournament(id)?.status ?? null),
      lock: (id) => {
        this.locks.push(id);
        if (this.onLock) {
          // The hook is another transaction's commit: a rollback of this one must keep it.
          if (this.savepoint?.changed())
            throw new Error('TournamentWorld.onLock: the transaction wrote before taking the lock');
          this.onLock(id);
          if (this.savepoint) this.savepoint = savepoint(this.tables);
        }
        return ok(this.tournament(id) !== null);
      },
      list: (f: TournamentFilter, limit, offset) => ok(read(filtered(t.tournaments, f).slice(offset, offset + limit))),
      count: (f: TournamentFilter) => ok(filtered(t.tournaments, f).length),
      byWallet: (wallet, limit, offset) =>
        ok(
          read(t.tournaments.filter((x) => involves(x, wallet)))
            .map((x) => ({ ...x, role: same(x.ownerWallet, wallet) ? ('creator' as const) : ('entrant' as const) }))
            .slice(offset, offset + limit),
        ),
      countByWallet: (wallet) => ok(t.tournaments.filter((x) => involves(x, wallet)).length),
      awaitingActivation: (now, limit) =>
        ok(
          t.tournaments
            .filter(
              (x) =>
                x.status === 'LIVE' &&
                !x.activatedAt &&
                x.startsAt <= now &&
                this.entriesOf(x.id).length >= x.minEntries,
            )
            .slice(0, limit)
            .map((x) => x.id),
        ),
      liveCountOf: (wallet) =>
        ok(t.tournaments.filter((x) => x.status === 'LIVE' && same(x.ownerWallet, wallet)).length),
      setActivated: (id, when) => {
        const row = t.tournaments.find((x) => x.id === id);
        if (row && !row.activatedAt) row.activatedAt = when;
        return ok(undefined);
      },
      setCompleted: (id, when, champion) => {
        const row = t.tournaments.find((x) => x.id === id);
        if (row?.status === 'LIVE')
          Object.assign(row, { status: 'COMPLETED', completedAt: when, championWallet: champion });
        return ok(undefined);
      },
      setChampion: (id, champion) => {
        const row = t.tournaments.find((x) => x.id === id);
        if (row?.status === 'COMPLETED') row.championWallet = champion as Address | null;
        return ok(undefined);
      },
      insertTournament: (n: NewTournament) => {
        if (t.tournaments.some((x) => x.id === n.id || same(x.creatorDepositTxHash, n.creatorDepositTxHash)))
          return ok(false);
        t.tournaments.push({
          ...n,
          activatedAt: null,
          completedAt: null,
          championWallet: null,
          cancelledAt: null,
          cancelReason: null,
          cancelledBy: null,
          discardedAt: null,
          entryCount: 0,
          prizePool: '0',
          firstOpenStage: 1,
        });
        return ok(true);
      },
      insertStage: (st: NewStage) => {
        t.stages.push({ ...st, completedAt: null, participants: 0, lastLockAt: st.lockAt });
        return ok(undefined);
      },
      stages: (id) => ok(t.stages.filter((st) => st.tournamentId === id).sort((a, b) => a.stageIndex - b.stageIndex)),
      markStageCompleted: (stageId, when) => {
        const st = t.stages.find((x) => x.id === stageId);
        if (st && !st.completedAt) st.completedAt = when;
        return ok(undefined);
      },
      insertFixture: (f: NewFixture) => {
        t.fixtures.push({ ...f, result: null, homeScore: null, awayScore: null, settledAt: null });
        return ok(undefined);
      },
      fixtures: (id) => ok(t.fixtures.filter((f) => f.tournamentId === id)),
      fixture: (id) => ok(t.fixtures.find((f) => f.id === id) ?? null),
      markFixtureSettled: (id, when) => {
        const f = t.fixtures.find((x) => x.id === id);
        if (f && !f.settledAt) f.settledAt = when;
        return ok(undefined);
      },
      entries: (id) => ok(this.entriesOf(id)),
      entryOf: (id, wallet) => ok(this.entriesOf(id).find((e) => same(e.wallet, wallet)) ?? null),
      insertEntry: (e) => {
        if (t.entries.some((x) => x.tournamentId === e.tournamentId && same(x.wallet, e.wallet))) return ok(false);
        this.store({ ...e, wallet: e.wallet as Address }, 0n);
        return ok(true);
      },
      deleteEntry: (entryId) => {
        remove(t.picks, (p) => p.entryId === entryId);
        remove(t.seats, (st) => st.entryId === entryId);
        remove(t.entries, (e) => e.id === entryId);
        return ok(undefined);
      },
      setPlacement: (entryId, p) => {
        const e = t.entries.find((x) => x.id === entryId);
        if (e)
          Object.assign(e, {
            placement: p.placement,
            stagesPlayed: p.stagesPlayed,
            points: p.points,
            status: p.status,
          });
        return ok(undefined);
      },
    };
  }

  private playRepo(): Partial<PlayRepository> {
    const t = this.tables;
    const seatOf = (stageId: string, entryId: string) =>
      t.seats.find((st) => st.stageId === stageId && st.entryId === entryId);
    return {
      stageEntries: (stageId) =>
        ok(
          t.seats
            .filter((st) => st.stageId === stageId)
            .sort(
              (a, b) =>
                (a.rank ?? Infinity) - (b.rank ?? Infinity) || b.stack - a.stack || a.entryId.localeCompare(b.entryId),
            ),
        ),
      stageEntriesOfTournament: (id) => ok(t.seats.filter((st) => st.tournamentId === id)),
      stageEntry: (stageId, entryId) => ok(seatOf(stageId, entryId) ?? null),
      seat: (w: StandingWrite) => {
        if (!seatOf(w.stageId, w.entryId))
          t.seats.push({ available: w.startChips, paidTxHash: null, seed: 0, username: null, ...w } as StageEntryRow);
        return ok(undefined);
      },
      writeStanding: (w) => {
        const st = seatOf(w.stageId, w.entryId);
        if (st)
          Object.assign(st, {
            stack: w.stack,
            rank: w.rank,
            groupLabel: w.groupLabel,
            groupRank: w.groupRank,
            status: w.status,
            picks: w.picks,
            wonPicks: w.wonPicks,
          });
        return ok(undefined);
      },
      unseatOthers: (stageId, keep) => {
        remove(t.seats, (st) => st.stageId === stageId && !keep.includes(st.entryId));
        return ok(undefined);
      },
      setPaid: (stageId, entryId, txHash) => {
        const st = seatOf(stageId, entryId);
        if (st && !st.paidTxHash) st.paidTxHash = txHash;
        return ok(undefined);
      },
      addAvailable: (stageId, entryId, delta, picksDelta = 0) => {
        const st = seatOf(stageId, entryId);
        if (st) {
          st.available += delta;
          st.picks += picksDelta;
        }
        return ok(undefined);
      },
      picksOfTournament: (id) => ok(t.picks.filter((p) => p.tournamentId === id)),
      openPicksOn: (fixtureId) => ok(t.picks.filter((p) => p.fixtureId === fixtureId && p.status === 'OPEN')),
      settlePick: (id, status, payout, when) => {
        const p = t.picks.find((x) => x.id === id && x.status === 'OPEN');
        if (p) Object.assign(p, { status, payout, settledAt: when });
        return ok(Boolean(p));
      },
      pick: (id) => ok(t.picks.find((p) => p.id === id) ?? null),
      pickOn: (fixtureId, entryId) =>
        ok(t.picks.find((p) => p.fixtureId === fixtureId && p.entryId === entryId) ?? null),
      insertPick: (p) => {
        if (t.picks.some((x) => x.fixtureId === p.fixtureId && x.entryId === p.entryId)) return ok(false);
        t.picks.push({ ...p, status: 'OPEN', payout: null, settledAt: null });
        return ok(true);
      },
      deleteOpenPick: (id) => ok(remove(t.picks, (p) => p.id === id && p.status === 'OPEN') > 0),
      stagePicks: (stageId, viewer, wallet, now, limit, offset) => {
        const lockOf = (p: PickRow) => t.fixtures.find((f) => f.id === p.fixtureId)?.lockAt ?? now;
        const all = t.picks.filter((p) => p.stageId === stageId && (!wallet || same(p.wallet, wallet)));
        const visible = all.filter((p) => lockOf(p) <= now || (viewer !== null && same(p.wallet, viewer)));
        return ok({
          picks: visible.slice(offset, offset + limit),
          total: visible.length,
          hidden: all.length - visible.length,
        });
      },
      matches: (id) =>
        ok(
          [...t.matches.values()]
            .flat()
            .filter((m) => this.stageTournament(m.stageId) === id)
            .sort((a, b) => a.stageId.localeCompare(b.stageId) || a.slot - b.slot),
        ),
      writeMatches: (_id, stageId, matches) => {
        t.matches.set(
          stageId,
          matches.map((m) => ({ ...m })),
        );
        return ok(undefined);
      },
    };
  }

  private stageTournament(stageId: string): string | null {
    return this.tables.stages.find((s) => s.id === stageId)?.tournamentId ?? null;
  }

  private bondRepo(): Partial<BondRepository> {
    return {
      balance: (wallet, asset) => ok(this.bond(wallet, asset)),
      add: (wallet, asset, delta) => {
        this.setBond(wallet, this.bond(wallet, asset) + delta, asset);
        return ok(undefined);
      },
      insertMovement: (m) => {
        if (m.txHash && this.tables.movements.some((x) => same(x.txHash, m.txHash))) return ok(false);
        if (this.tables.movements.some((x) => x.id === m.id)) return ok(false);
        this.tables.movements.push({ ...m, txHash: m.txHash?.toLowerCase() ?? null });
        return ok(true);
      },
      movementByTx: (tx) => ok(this.tables.movements.find((m) => same(m.txHash, tx)) ?? null),
      movementById: (id) => ok(this.tables.movements.find((m) => m.id === id) ?? null),
      movementCount: (wallet, kind) =>
        ok(this.tables.movements.filter((m) => same(m.wallet, wallet) && m.kind === kind).length),
      markSent: (id, txHash) => {
        for (const m of this.tables.movements)
          if (m.id === id) Object.assign(m, { txHash: txHash.toLowerCase(), status: 'sent' });
        return ok(undefined);
      },
      pendingWithdrawals: (limit) =>
        ok(this.tables.movements.filter((m) => m.kind === 'withdrawal' && m.status === 'pending').slice(0, limit)),
    };
  }

  private depositRepo(): Partial<DepositRepository> {
    return {
      deposit: (tx) => ok(this.tables.deposits.find((d) => same(d.txHash, tx)) ?? null),
      insertDeposit: (d) => {
        if (this.tables.deposits.some((x) => same(x.txHash, d.txHash))) return ok(false);
        this.tables.deposits.push({ ...d, txHash: d.txHash.toLowerCase(), refundTxHash: null, refundedAt: null });
        return ok(true);
      },
      deposits: (id) => ok(this.tables.deposits.filter((d) => d.tournamentId === id)),
      markRefunding: (txHash, when) => {
        const d = this.tables.deposits.find((x) => same(x.txHash, txHash) && !x.refundedAt);
        if (d) d.refundedAt = when;
        return ok(undefined);
      },
      setRefundTx: (txHash, refundTxHash) => {
        const d = this.tables.deposits.find((x) => same(x.txHash, txHash));
        if (d) d.refundTxHash = refundTxHash;
        return ok(undefined);
      },
      pendingRefunds: (limit) =>
        ok(
          this.tables.deposits
            .filter((d) => d.refundedAt && !d.refundTxHash)
            .slice(0, limit)
            .map((d) => {
              const row = this.tables.tournaments.find((x) => x.id === d.tournamentId);
              return { ...d, stakeAsset: row?.stakeAsset ?? 'credits', poolId: row?.poolId ?? '' };
            }),
        ),
      depositCount: (id, wallet, stageIndex) =>
        ok(
          this.tables.deposits.filter(
            (d) => d.tournamentId === id && same(d.wallet, wallet) && d.stageIndex === stageIndex,
          ).length,
        ),
    };
  }

  private disputeMatches(f: DisputeFilter) {
    return (d: DisputeRow) =>
      (!f.status || d.status === f.status) &&
      (!f.tournamentId || d.tournamentId === f.tournamentId) &&
      (!f.stageId || d.stageId === f.stageId) &&
      (!f.fixtureId || d.fixtureId === f.fixtureId);
  }

  private closeRepo(): Partial<CloseRepository> {
    return {
      insertDispute: (d) => {
        if (this.tables.disputes.some((x) => x.fixtureId === d.fixtureId && x.entryId === d.entryId)) return ok(null);
        const row: DisputeRow = {
          ...d,
          id: `d-${++this.ids}`,
          status: 'OPEN',
          correctedResult: null,
          resolutionNote: null,
          resolvedBy: null,
          resolvedAt: null,
        };
        this.tables.disputes.push(row);
        return ok({ ...row });
      },
      dispute: (id) => ok(this.tables.disputes.find((d) => d.id === id) ?? null),
      disputeOf: (fixtureId, entryId) =>
        ok(this.tables.disputes.find((d) => d.fixtureId === fixtureId && d.entryId === entryId) ?? null),
      disputes: (f, limit = 1000, offset = 0) =>
        ok(this.tables.disputes.filter(this.disputeMatches(f)).slice(offset, offset + limit)),
      countDisputes: (f) => ok(this.tables.disputes.filter(this.disputeMatches(f)).length),
      disputeStats: () => {
        const statuses = ['OPEN', 'UPHELD', 'REJECTED', 'EXPIRED'] as const;
        const open = this.tables.disputes.filter((d) => d.status === 'OPEN');
        return ok({
          byStatus: statuses
            .map((status) => ({ status, n: this.tables.disputes.filter((d) => d.status === status).length }))
            .filter((s) => s.n > 0),
          tournamentsWithOpen: new Set(open.map((d) => d.tournamentId)).size,
          oldestOpenAt: open.length ? new Date(Math.min(...open.map((d) => d.createdAt.getTime()))) : null,
        });
      },
      resolveDispute: (id, r) => {
        const d = this.tables.disputes.find((x) => x.id === id && x.status === 'OPEN');
        if (!d) return ok(false);
        Object.assign(d, {
          status: r.status,
          correctedResult: r.correctedResult,
          resolutionNote: r.note,
          resolvedBy: r.by,
          resolvedAt: r.at,
        });
        return ok(true);
      },
      expireDisputes: (now, limit) => {
        const due = this.tables.disputes
          .filter((d) => d.status === 'OPEN' && d.expiresAt <= now)
          .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
          .slice(0, limit);
        for (const d of due) Object.assign(d, { status: 'EXPIRED', resolvedAt: now });
        return ok(due.map((d) => d.id));
      },
      rejectOpenOfStage: (stageId, note, by, when) => {
        const open = this.tables.disputes.filter((d) => d.stageId === stageId && d.status === 'OPEN');
        for (const d of open)
          Object.assign(d, { status: 'REJECTED', resolutionNote: note, resolvedBy: by, resolvedAt: when });
        return ok(open.map((d) => d.id));
      },
      correctResult: (fixtureId, result) => {
        for (const f of this.tables.fixtures) if (f.id === fixtureId) f.result = result;
        return ok(undefined);
      },
      resettlePick: (id, status, payout) => {
        for (const p of this.tables.picks) if (p.id === id) Object.assign(p, { status, payout });
        return ok(undefined);
      },
      settledPicksOn: (fixtureId) =>
        ok(this.tables.picks.filter((p) => p.fixtureId === fixtureId && p.status !== 'OPEN').map((p) => ({ ...p }))),
      insertSettlement: (s) => {
        if (this.tables.settlements.some((x) => x.stageId === s.stageId)) return ok(false);
        this.tables.settlements.push({ ...s });
        return ok(true);
      },
      settlements: (id) => ok(this.tables.settlements.filter((s) => s.tournamentId === id)),
      tournamentsWithSettleableStages: (limit) => {
        const ids = this.tables.stages
          .filter((s) => {
            const tournament = this.tables.tournaments.find((x) => x.id === s.tournamentId);
            return (
              tournament &&
              (tournament.status === 'LIVE' || tournament.status === 'COMPLETED') &&
              tournament.gameType === 'CLASSIC' &&
              !this.tables.settlements.some((x) => x.stageId === s.id) &&
              !this.tables.fixtures.some((f) => f.stageId === s.id && !f.settledAt)
            );
          })
          .map((s) => s.tournamentId);
        return ok([...new Set(ids)].slice(0, limit));
      },
      tournamentOfStage: (stageId) => ok(this.stageTournament(stageId)),
      overrides: (id) => ok(this.tables.overrides.filter((o) => o.tournamentId === id)),
      setOverride: (o) => {
        remove(this.tables.overrides, (x) => x.tournamentId === o.tournamentId && x.scope === o.scope);
        this.tables.overrides.push({ ...o });
        return ok(undefined);
      },
      insertRun: (trigger, startedAt) => {
        const id = `run-${this.tables.runs.length + 1}`;
        this.tables.runs.push({ id, trigger, steps: {}, startedAt, finishedAt: null });
        return ok(id);
      },
      finishRun: (id, steps, finishedAt) => {
        const run = this.tables.runs.find((r) => r.id === id);
        if (run) Object.assign(run, { steps, finishedAt });
        return ok(undefined);
      },
      lastRun: () => ok(this.tables.runs.at(-1) ?? null),
      audit: (a) => {
        this.tables.audit.push(a);
        return ok(undefined);
      },
    };
  }

  private requestMatches(f: CancelRequestFilter) {
    return (r: CancelRequestRow) =>
      (!f.status || r.status === f.status) && (!f.tournamentId || r.tournamentId === f.tournamentId.toLowerCase());
  }

  private cancellationRepo(): Partial<CancellationRepository> {
    const requests = () => this.tables.cancelRequests;
    const otherEntries = (id: string) => this.entriesOf(id).filter((e) => !e.isCreator).length;
    return {
      insertRequest: (r) => {
        if (
          requests().some((x) => x.tournamentId === r.tournamentId && same(x.wallet, r.wallet) && x.status === 'OPEN')
        )
          return ok(false);
        requests().push({
          ...r,
          wallet: r.wallet.toLowerCase(),
          status: 'OPEN',
          decidedBy: null,
          decisionReason: null,
          decidedAt: null,
        });
        return ok(true);
      },
      request: (id) => ok(requests().find((r) => r.id === id) ?? null),
      currentRequestOf: (id, wallet) => {
        const order = { OPEN: 0, ACCEPTED: 1, REJECTED: 2 } as const;
        const mine = requests()
          .filter((r) => r.tournamentId === id && same(r.wallet, wallet))
          .sort((a, b) => order[a.status] - order[b.status] || b.createdAt.getTime() - a.createdAt.getTime());
        return ok(mine[0] ?? null);
      },
      openRequest: (id, wallet) =>
        ok(requests().find((r) => r.tournamentId === id && same(r.wallet, wallet) && r.status === 'OPEN') ?? null),
      openCount: (id) => ok(requests().filter((r) => r.tournamentId === id && r.status === 'OPEN').length),
      requests: (f, limit, offset) =>
        ok(
          requests()
            .filter(this.requestMatches(f))
            .slice(offset, offset + limit),
        ),
      requestCount: (f) => ok(requests().filter(this.requestMatches(f)).length),
      reject: (id, by, reason, when) => {
        const r = requests().find((x) => x.id === id && x.status === 'OPEN');
        if (!r) return ok(false);
        Object.assign(r, { status: 'REJECTED', decidedBy: by, decisionReason: reason, decidedAt: when });
        return ok(true);
      },
      acceptOpen: (id, by, reason, when) => {
        const open = requests().filter((r) => r.tournamentId === id && r.status === 'OPEN');
        for (const r of open)
          Object.assign(r, { status: 'ACCEPTED', decidedBy: by, decisionReason: reason, decidedAt: when });
        return ok(open.length);
      },
      markCancelled: (id, when, reason, by) => {
        const tournament = this.tables.tournaments.find((x) => x.id === id && x.status === 'LIVE');
        if (!tournament) return ok(false);
        Object.assign(tournament, { status: 'CANCELED', cancelledAt: when, cancelReason: reason, cancelledBy: by });
        return ok(true);
      },
      markDiscarded: (id, when) => {
        const tournament = this.tables.tournaments.find((x) => x.id === id && !x.discardedAt);
        if (!tournament) return ok(false);
        tournament.discardedAt = when;
        return ok(true);
      },
      otherEntries: (id) => ok(otherEntries(id)),
      refundableDeposits: (id) =>
        ok(
          this.tables.deposits
            .filter((d) => d.tournamentId === id && !d.refundedAt)
            .map((d) => ({ wallet: d.wallet, amount: d.amount })),
        ),
      adminCount: (f) =>
        ok(
          this.tables.tournaments.filter(
            (x) =>
              (!f.statuses?.length || f.statuses.includes(x.status)) &&
              (!f.removable || (!x.discardedAt && x.status !== 'COMPLETED' && otherEntries(x.id) === 0)),
          ).length,
        ),
      adminList: (f, limit, offset) =>
        ok(
          this.tables.tournaments
            .filter(
              (x) =>
                (!f.statuses?.length || f.statuses.includes(x.status)) &&
                (!f.removable || (!x.discardedAt && x.status !== 'COMPLETED' && otherEntries(x.id) === 0)),
            )
            .slice(offset, offset + limit)
            .map((x) => ({ ...this.tournament(x.id)!, otherEntries: otherEntries(x.id) })),
        ),
    };
  }
}

function filtered(rows: readonly TournamentRow[], f: TournamentFilter): TournamentRow[] {
  return rows.filter(
    (x) =>
      (f.includeDiscarded || !x.discardedAt) &&
      (!f.statuses?.length || f.statuses.includes(x.status)) &&
      (!f.gameType || x.gameType === f.gameType) &&
      (!f.sport || same(x.sport, f.sport)) &&
      (!f.ownerWallet || same(x.ownerWallet, f.ownerWallet)),
  );
}

/** Removes the matching rows in place; answers how many. */
function remove<T>(rows: T[], match: (row: T) => boolean): number {
  let removed = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    if (match(rows[i] as T)) {
      rows.splice(i, 1);
      removed++;
    }
  }
  return removed;
}

/** The state a transaction rolls back to. */
interface Savepoint {
  /** Puts every table back in place (same arrays, maps and row objects), so rows held outside stay the stored ones. */
  restore(): void;
  /** Whether any table differs from the saved state. */
  changed(): boolean;
}

type SavedTable =
  | { readonly key: string; readonly table: Map<string, unknown>; readonly entries: [string, unknown][] }
  | { readonly key: string; readonly table: unknown[]; readonly rows: (readonly [object, object])[] };

function savepoint(tables: TournamentTables): Savepoint {
  const t = tables as unknown as Record<string, unknown[] | Map<string, unknown>>;
  const saved = Object.entries(t).map(([key, table]): SavedTable =>
    table instanceof Map
      ? { key, table, entries: [...table] }
      : { key, table, rows: table.map((row) => [row as object, { ...(row as object) }] as const) },
  );
  const sameValues = (a: object, b: object) =>
    Object.keys(a).length === Object.keys(b).length &&
    Object.entries(a).every(([k, v]) => Object.is(v, (b as Record<string, unknown>)[k]));
  return {
    restore: () => {
      for (const s of saved) {
        t[s.key] = s.table;
        if ('entries' in s) {
          s.table.clear();
          for (const [k, v] of s.entries) s.table.set(k, v);
        } else {
          s.table.splice(0, s.table.length, ...s.rows.map(([row, values]) => Object.assign(row, values)));
        }
      }
    },
    changed: () =>
      saved.some((s) => {
        if (t[s.key] !== s.table) return true;
        if ('entries' in s)
          return s.table.size !== s.entries.length || s.entries.some(([k, v]) => !Object.is(s.table.get(k), v));
        return (
          s.table.length !== s.rows.length ||
          s.rows.some(([row, values], i) => s.table[i] !== row || !sameValues(row, values))
        );
      }),
  };
}
