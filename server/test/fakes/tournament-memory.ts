import { getAddress, type Address } from 'viem';
import type {
  AutomationRunRow,
  CloseRepository,
  DisputeFilter,
  DisputeRow,
  OverrideRow,
  SettlementRow,
} from '../../src/areas/tournaments/tournament-close.repository.js';
import type { CancellationRepository } from '../../src/areas/tournaments/tournament-cancellation.repository.js';
import type { DepositRepository } from '../../src/areas/tournaments/tournament-deposit.repository.js';
import type { PlayRepository, StandingWrite } from '../../src/areas/tournaments/tournament-play.repository.js';
import type {
  TournamentDb,
  TournamentFilter,
  TournamentRepos,
  TournamentRepository,
} from '../../src/areas/tournaments/tournament.repository.js';
import type {
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

export const HOUR = 3_600_000;
/** Base units of one whole 18-decimal token. */
export const UNIT = 10n ** 18n;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const ok = <T>(value: T) => Promise.resolve(value);

/** The stored facts of the tournaments area in memory: what the repositories would read and write. */
export interface TournamentTables {
  readonly tournaments: Map<string, TournamentRow>;
  readonly stages: StageRow[];
  readonly fixtures: FixtureRow[];
  readonly entries: EntryRow[];
  readonly seats: StageEntryRow[];
  readonly picks: PickRow[];
  readonly deposits: DepositRow[];
  readonly matches: Map<string, MatchRow[]>;
  readonly runs: AutomationRunRow[];
  readonly settlements: SettlementRow[];
  readonly overrides: OverrideRow[];
  readonly disputes: DisputeRow[];
  /** Tournament ids in the order their row locks were taken. */
  readonly locks: string[];
}

/** Methods a test reaches that the memory does not model fail loudly instead of answering undefined. */
function partial<T extends object>(name: string, impl: Partial<T>): T {
  return new Proxy(impl as T, {
    get(target, prop, receiver) {
      if (prop in target || typeof prop === 'symbol' || prop === 'then') return Reflect.get(target, prop, receiver);
      return () => Promise.reject(new Error(`${name}.${String(prop)} is not modelled by the tournament memory`));
    },
  });
}

/**
 * The tournaments storage without PostgreSQL: the repositories the play, withdrawal, refund and
 * read services use, over plain arrays. A transaction runs on the same tables (a thrown error
 * leaves whatever was written before it, so tests assert on refusals made before any write).
 */
export class TournamentMemory {
  readonly clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  readonly t: TournamentTables = {
    tournaments: new Map(),
    stages: [],
    fixtures: [],
    entries: [],
    seats: [],
    picks: [],
    deposits: [],
    matches: new Map(),
    runs: [],
    settlements: [],
    overrides: [],
    disputes: [],
    locks: [],
  };
  readonly repos: TournamentRepos;
  readonly db: TournamentDb;
  /** Runs as a row lock is taken: what another transaction committed while this one waited for it. */
  onLock: ((tournamentId: string) => void) | undefined;

  constructor() {
    const t = this.t;
    const entriesOf = (id: string) => t.entries.filter((e) => e.tournamentId === id);
    const tournaments = partial<TournamentRepository>('tournaments', {
      // A read is a snapshot, as from the database: later writes do not show through it.
      byId: (id) => ok(copy(t.tournaments.get(id))),
      lock: (id) => {
        t.locks.push(id);
        this.onLock?.(id);
        return ok(t.tournaments.has(id));
      },
      list: (f: TournamentFilter, limit, offset) => ok(filtered(t, f).slice(offset, offset + limit)),
      count: (f: TournamentFilter) => ok(filtered(t, f).length),
      byWallet: (wallet, limit, offset) =>
        ok(
          [...t.tournaments.values()]
            .filter((x) => same(x.ownerWallet, wallet) || entriesOf(x.id).some((e) => same(e.wallet, wallet)))
            .map((x) => ({ ...x, role: same(x.ownerWallet, wallet) ? ('creator' as const) : ('entrant' as const) }))
            .slice(offset, offset + limit),
        ),
      countByWallet: (wallet) =>
        ok(
          [...t.tournaments.values()].filter(
            (x) => same(x.ownerWallet, wallet) || entriesOf(x.id).some((e) => same(e.wallet, wallet)),
          ).length,
        ),
      awaitingActivation: (now, limit) =>
        ok(
          [...t.tournaments.values()]
            .filter(
              (x) =>
                x.status === 'LIVE' && !x.activatedAt && x.startsAt <= now && entriesOf(x.id).length >= x.minEntries,
            )
            .slice(0, limit)
            .map((x) => x.id),
        ),
      setActivated: (id, at) => {
        const row = t.tournaments.get(id);
        if (row && !row.activatedAt) row.activatedAt = at;
        return ok(undefined);
      },
      setCompleted: (id, at, champion) => {
        const row = t.tournaments.get(id);
        if (row?.status === 'LIVE')
          Object.assign(row, { status: 'COMPLETED', completedAt: at, championWallet: champion });
        return ok(undefined);
      },
      setChampion: (id, champion) => {
        const row = t.tournaments.get(id);
        if (row?.status === 'COMPLETED') row.championWallet = champion as Address | null;
        return ok(undefined);
      },
      stages: (id) => ok(t.stages.filter((s) => s.tournamentId === id).sort((a, b) => a.stageIndex - b.stageIndex)),
      markStageCompleted: (stageId, at) => {
        const s = t.stages.find((x) => x.id === stageId);
        if (s && !s.completedAt) s.completedAt = at;
        return ok(undefined);
      },
      fixtures: (id) => ok(t.fixtures.filter((f) => f.tournamentId === id)),
      fixture: (id) => ok(t.fixtures.find((f) => f.id === id) ?? null),
      markFixtureSettled: (id, at) => {
        const f = t.fixtures.find((x) => x.id === id);
        if (f && !f.settledAt) f.settledAt = at;
        return ok(undefined);
      },
      entries: (id) => ok(entriesOf(id).map((e, i) => ({ ...e, seed: i + 1 }))),
      entryOf: (id, wallet) => ok(entriesOf(id).find((e) => same(e.wallet, wallet)) ?? null),
      deleteEntry: (entryId) => {
        remove(t.picks, (p) => p.entryId === entryId);
        remove(t.seats, (s) => s.entryId === entryId);
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
    });

    const seatOf = (stageId: string, entryId: string) =>
      t.seats.find((s) => s.stageId === stageId && s.entryId === entryId);
    const play = partial<PlayRepository>('play', {
      stageEntry: (stageId, entryId) => ok(copy(seatOf(stageId, entryId))),
      stageEntries: (stageId) => ok(t.seats.filter((s) => s.stageId === stageId)),
      stageEntriesOfTournament: (id) => ok(t.seats.filter((s) => s.tournamentId === id).map((s) => ({ ...s }))),
      seat: (w: StandingWrite) => {
        if (!seatOf(w.stageId, w.entryId))
          t.seats.push(seatRow({ ...w, wallet: w.wallet as Address, available: w.startChips }));
        return ok(undefined);
      },
      writeStanding: (w) => {
        const s = seatOf(w.stageId, w.entryId);
        if (s) {
          Object.assign(s, {
            stack: w.stack,
            rank: w.rank,
            groupLabel: w.groupLabel,
            groupRank: w.groupRank,
            status: w.status,
            picks: w.picks,
            wonPicks: w.wonPicks,
          });
        }
        return ok(undefined);
      },
      unseatOthers: (stageId, keep) => {
        remove(t.seats, (s) => s.stageId === stageId && !keep.includes(s.entryId));
        return ok(undefined);
      },
      addAvailable: (stageId, entryId, delta, picksDelta = 0) => {
        const s = seatOf(stageId, entryId);
        if (s) {
          s.available += delta;
          s.picks += picksDelta;
        }
        return ok(undefined);
      },
      picksOfTournament: (id) => ok(t.picks.filter((p) => p.tournamentId === id)),
      openPicksOn: (fixtureId) => ok(t.picks.filter((p) => p.fixtureId === fixtureId && p.status === 'OPEN')),
      settlePick: (id, status, payout, at) => {
        const p = t.picks.find((x) => x.id === id && x.status === 'OPEN');
        if (p) Object.assign(p, { status, payout, settledAt: at });
        return ok(Boolean(p));
      },
      pick: (id) => ok(copy(t.picks.find((p) => p.id === id))),
      pickOn: (fixtureId, entryId) => ok(copy(t.picks.find((p) => p.fixtureId === fixtureId && p.entryId === entryId))),
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
      writeMatches: (_id, stageId, matches) => {
        t.matches.set(stageId, [...matches]);
        return ok(undefined);
      },
    });

    const deposits = partial<DepositRepository>('deposits', {
      deposit: (txHash) => ok(copy(t.deposits.find((d) => same(d.txHash, txHash)))),
      markRefunding: (txHash, at) => {
        const d = t.deposits.find((x) => same(x.txHash, txHash) && !x.refundedAt);
        if (d) d.refundedAt = at;
        return ok(undefined);
      },
      setRefundTx: (txHash, refundTxHash) => {
        const d = t.deposits.find((x) => same(x.txHash, txHash));
        if (d) d.refundTxHash = refundTxHash;
        return ok(undefined);
      },
      pendingRefunds: (limit) =>
        ok(
          t.deposits
            .filter((d) => d.refundedAt && !d.refundTxHash)
            .slice(0, limit)
            .map((d) => {
              const row = t.tournaments.get(d.tournamentId);
              return { ...d, stakeAsset: row?.stakeAsset ?? 'credits', poolId: row?.poolId ?? '' };
            }),
        ),
    });

    const cancellation = partial<CancellationRepository>('cancellation', {
      refundableDeposits: (id) =>
        ok(
          t.deposits
            .filter((d) => d.tournamentId === id && !d.refundedAt)
            .map((d) => ({ wallet: d.wallet, amount: d.amount })),
        ),
    });

    const close = partial<CloseRepository>('close', {
      settlements: (id) => ok(t.settlements.filter((x) => x.tournamentId === id)),
      overrides: (id) => ok(t.overrides.filter((x) => x.tournamentId === id)),
      disputes: (f: DisputeFilter) =>
        ok(
          t.disputes.filter(
            (d) =>
              (!f.status || d.status === f.status) &&
              (!f.tournamentId || d.tournamentId === f.tournamentId) &&
              (!f.stageId || d.stageId === f.stageId) &&
              (!f.fixtureId || d.fixtureId === f.fixtureId),
          ),
        ),
      insertRun: (trigger, startedAt) => {
        const id = `run-${t.runs.length + 1}`;
        t.runs.push({ id, trigger, steps: {}, startedAt, finishedAt: null });
        return ok(id);
      },
      finishRun: (id, steps, finishedAt) => {
        const run = t.runs.find((r) => r.id === id);
        if (run) Object.assign(run, { steps, finishedAt });
        return ok(undefined);
      },
      lastRun: () => ok(t.runs.at(-1) ?? null),
    });

    this.repos = {
      tournaments,
      play,
      deposits,
      cancellation,
      close,
      bonds: partial('bonds', {}),
    };
    const repos = this.repos;
    this.db = { read: repos, transaction: (fn) => fn(repos) } as Pick<
      TournamentDb,
      'read' | 'transaction'
    > as TournamentDb;
  }

  /** A LIVE two-entrant knockout final starting in an hour, with one fixture locking at the start. */
  tournament(over: Partial<TournamentRow> = {}): TournamentRow {
    const now = this.clock.now();
    // A 12-byte hex id, as the service mints them (the vault pool is derived from it).
    const id = over.id ?? (this.t.tournaments.size + 1).toString(16).padStart(24, '0');
    const row: TournamentRow = {
      id,
      builderAppId: null,
      name: 'Cup',
      description: null,
      sport: 'football',
      league: null,
      category: null,
      gameType: 'CLASSIC',
      format: 'KNOCKOUT',
      type: 'COMMUNITY',
      status: 'LIVE',
      stakeAsset: 'credits',
      ownerWallet: CREATOR,
      ownerUserId: null,
      totalStages: 1,
      minEntries: 2,
      maxEntrants: 2,
      chipsPerStage: 1000,
      groupSize: 4,
      advancePerGroup: 2,
      fixturesPerStage: 1,
      leagueId: 39,
      feeBps: 500,
      payoutBps: [10_000],
      creatorDepositTxHash: hash(0xc0),
      poolId: `0x${'ab'.repeat(32)}`,
      startsAt: new Date(now + HOUR),
      endsAt: new Date(now + 4 * HOUR),
      activatedAt: null,
      completedAt: null,
      championWallet: null,
      createdAt: new Date(now),
      cancelledAt: null,
      cancelReason: null,
      cancelledBy: null,
      discardedAt: null,
      entryCount: 0,
      prizePool: '0',
      firstOpenStage: 1,
      ...over,
    };
    this.t.tournaments.set(id, row);
    return row;
  }

  stage(t: TournamentRow, over: Partial<StageRow> = {}): StageRow {
    const index = over.stageIndex ?? this.t.stages.filter((s) => s.tournamentId === t.id).length + 1;
    const row: StageRow = {
      id: `${t.id}-s${index}`,
      tournamentId: t.id,
      stageIndex: index,
      stageName: index === t.totalStages ? 'Final' : `Stage ${index}`,
      kind: 'KNOCKOUT',
      buyin: index === 1 ? (5n * UNIT).toString() : '0',
      multiplier: 1,
      isFinal: index === t.totalStages,
      startChips: t.chipsPerStage,
      windowStart: t.startsAt,
      windowEnd: t.endsAt,
      startsAt: t.startsAt,
      lockAt: t.startsAt,
      endsAt: t.endsAt,
      lastLockAt: t.startsAt,
      completedAt: null,
      participants: 0,
      ...over,
    };
    this.t.stages.push(row);
    return row;
  }

  fixture(stage: StageRow, over: Partial<FixtureRow> = {}): FixtureRow {
    const n = this.t.fixtures.length + 1;
    const row: FixtureRow = {
      id: `f-${n}`,
      tournamentId: stage.tournamentId,
      stageId: stage.id,
      providerFixtureId: 1000 + n,
      title: 'Home v Away',
      homeTeam: 'Home',
      awayTeam: 'Away',
      startsAt: stage.lockAt,
      lockAt: stage.lockAt,
      endsAt: new Date(stage.lockAt.getTime() + 2 * HOUR),
      expiresAt: new Date(stage.lockAt.getTime() + 48 * HOUR),
      oddsHome: 200,
      oddsDraw: 320,
      oddsAway: 300,
      result: null,
      homeScore: null,
      awayScore: null,
      settledAt: null,
      ...over,
    };
    this.t.fixtures.push(row);
    return row;
  }

  /** An entry with its recorded stage-1 deposit of `amount`. */
  entry(t: TournamentRow, wallet: Address, over: Partial<EntryRow> & { amount?: bigint } = {}): EntryRow {
    const { amount = 5n * UNIT, ...rest } = over;
    const n = this.t.entries.length + 1;
    const row: EntryRow = {
      id: `e-${n}`,
      tournamentId: t.id,
      wallet,
      userId: null,
      isCreator: false,
      seed: this.t.entries.filter((e) => e.tournamentId === t.id).length + 1,
      depositTxHash: hash(n),
      enteredAt: new Date(this.clock.now()),
      placement: null,
      stagesPlayed: 0,
      points: 0,
      status: 'ALIVE',
      ...rest,
    };
    this.t.entries.push(row);
    this.t.deposits.push({
      txHash: row.depositTxHash,
      tournamentId: t.id,
      stageIndex: 1,
      wallet,
      amount: amount.toString(),
      purpose: row.isCreator ? 'create' : 'entry',
      refundTxHash: null,
      refundedAt: null,
    });
    return row;
  }

  /** Seats an entry in a stage with the stage's chips. */
  seat(stage: StageRow, entry: EntryRow, over: Partial<StageEntryRow> = {}): StageEntryRow {
    const row = seatRow({
      stageId: stage.id,
      entryId: entry.id,
      tournamentId: stage.tournamentId,
      wallet: entry.wallet,
      startChips: stage.startChips,
      available: stage.startChips,
      stack: stage.startChips,
      rank: null,
      groupLabel: null,
      groupRank: null,
      status: 'ALIVE',
      picks: 0,
      wonPicks: 0,
      ...over,
    });
    this.t.seats.push(row);
    return row;
  }

  seatOf(stage: StageRow, entry: EntryRow): StageEntryRow | undefined {
    return this.t.seats.find((s) => s.stageId === stage.id && s.entryId === entry.id);
  }
}

export const CREATOR = getAddress('0x00000000000000000000000000000000000000c0');
export const ALICE = getAddress('0x00000000000000000000000000000000000000a1');
export const BOB = getAddress('0x00000000000000000000000000000000000000b0');

/** A 32-byte hash made of one repeated byte. */
export function hash(n: number): `0x${string}` {
  return `0x${(n % 256).toString(16).padStart(2, '0').repeat(32)}`;
}

/** An actor acting for `wallet`. */
export function actor(wallet: Address) {
  return { wallet, userId: null, builderAppId: null, senders: [wallet] };
}

function seatRow(
  w: Omit<StageEntryRow, 'available' | 'paidTxHash' | 'seed' | 'username'> &
    Partial<Pick<StageEntryRow, 'available' | 'paidTxHash' | 'seed' | 'username'>>,
): StageEntryRow {
  return { available: w.startChips, paidTxHash: null, seed: 0, username: null, ...w };
}

function filtered(t: TournamentTables, f: TournamentFilter): TournamentRow[] {
  return [...t.tournaments.values()].filter(
    (x) =>
      (f.includeDiscarded || !x.discardedAt) &&
      (!f.statuses?.length || f.statuses.includes(x.status)) &&
      (!f.gameType || x.gameType === f.gameType) &&
      (!f.sport || same(x.sport, f.sport)) &&
      (!f.ownerWallet || same(x.ownerWallet, f.ownerWallet)),
  );
}

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

function copy<T extends object>(row: T | undefined): T | null {
  return row ? { ...row } : null;
}
