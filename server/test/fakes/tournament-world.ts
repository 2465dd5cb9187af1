import type { Address } from 'viem';
import type {
  CancelRequestFilter,
  CancelRequestRow,
  CancellationRepository,
} from '../../src/areas/tournaments/tournament-cancellation.repository.js';
import type { BondMovementRow, BondRepository } from '../../src/areas/tournaments/tournament-bond.repository.js';
import type {
  CloseRepository,
  DisputeFilter,
  DisputeRow,
  OverrideRow,
  SettlementRow,
} from '../../src/areas/tournaments/tournament-close.repository.js';
import type { DepositRepository } from '../../src/areas/tournaments/tournament-deposit.repository.js';
import type { PlayRepository } from '../../src/areas/tournaments/tournament-play.repository.js';
import type {
  NewFixture,
  NewStage,
  NewTournament,
  TournamentDb,
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
import { UNIT, at, fixtureRow, stageRow, tournamentRow } from './tournament-rows.js';

type StoredEntry = Omit<EntryRow, 'seed'> & { seq: number };
type AuditRow = Parameters<CloseRepository['audit']>[0];
type StoredTournament = Omit<TournamentRow, 'entryCount' | 'prizePool'>;

/** Every table the tournaments area writes, as plain rows. */
export interface TournamentTables {
  tournaments: StoredTournament[];
  stages: StageRow[];
  fixtures: FixtureRow[];
  entries: StoredEntry[];
  deposits: DepositRow[];
  seats: StageEntryRow[];
  matches: MatchRow[];
  picks: PickRow[];
  bonds: Map<string, bigint>;
  movements: BondMovementRow[];
  disputes: DisputeRow[];
  settlements: SettlementRow[];
  overrides: OverrideRow[];
  audit: AuditRow[];
  cancelRequests: CancelRequestRow[];
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  a != null && b != null && a.toLowerCase() === b.toLowerCase();
/** Answers a copy, as a query would: a caller mutating a row changes no table. */
const ok = <T>(value: T) => Promise.resolve(structuredClone(value));

/**
 * The tournaments area's storage in memory, behind the `TournamentDb` its services take: the
 * repositories' methods the services use, with the same answers (entry seeds, the computed entry
 * count and prize pool, insert-once semantics). A transaction runs on the same tables and is
 * rolled back when its function throws, as PostgreSQL would. A method nobody implemented here is
 * undefined: calling it fails the test.
 */
export class TournamentWorld {
  tables: TournamentTables = {
    tournaments: [],
    stages: [],
    fixtures: [],
    entries: [],
    deposits: [],
    seats: [],
    matches: [],
    picks: [],
    bonds: new Map(),
    movements: [],
    disputes: [],
    settlements: [],
    overrides: [],
    audit: [],
    cancelRequests: [],
  };
  /** The tournament ids whose row lock was taken, in order. */
  readonly locks: string[] = [];
  private ids = 0;

  readonly repos: TournamentRepos = {
    tournaments: this.tournamentRepo() as unknown as TournamentRepository,
    play: this.playRepo() as unknown as PlayRepository,
    bonds: this.bondRepo() as unknown as BondRepository,
    deposits: this.depositRepo() as unknown as DepositRepository,
    close: this.closeRepo() as unknown as CloseRepository,
    cancellation: this.cancellationRepo() as unknown as CancellationRepository,
  };

  readonly db: TournamentDb = {
    read: this.repos,
    transaction: async <T>(fn: (r: TournamentRepos) => Promise<T>): Promise<T> => {
      const before = structuredClone(this.tables);
      try {
        return await fn(this.repos);
      } catch (err) {
        this.tables = before;
        throw err;
      }
    },
  } as unknown as TournamentDb;

  // ---- seeding -------------------------------------------------------------------------------

  addTournament(over: Partial<TournamentRow> = {}): TournamentRow {
    const { entryCount: _count, prizePool: _pool, ...row } = tournamentRow(over);
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
    const entry: StoredEntry = {
      id: `e-${++this.ids}`,
      tournamentId,
      wallet: actor.wallet,
      userId: actor.userId,
      isCreator: false,
      depositTxHash: txHash,
      enteredAt: at(0),
      placement: null,
      stagesPlayed: 0,
      points: 0,
      status: 'ALIVE',
      seq: this.tables.entries.length + 1,
      ...rest,
    };
    this.tables.entries.push(entry);
    if (amount > 0n) {
      this.tables.deposits.push({
        txHash,
        tournamentId,
        stageIndex: 1,
        wallet: actor.wallet,
        amount: amount.toString(),
        purpose: entry.isCreator ? 'create' : 'entry',
        refundTxHash: null,
        refundedAt: null,
      });
    }
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
    return {
      byId: (id) => ok(this.tournament(id)),
      lock: (id) => {
        this.locks.push(id);
        return ok(this.tournament(id) !== null);
      },
      liveCountOf: (wallet) =>
        ok(this.tables.tournaments.filter((t) => t.status === 'LIVE' && same(t.ownerWallet, wallet)).length),
      insertTournament: (t: NewTournament) => {
        if (this.tables.tournaments.some((x) => x.id === t.id || same(x.creatorDepositTxHash, t.creatorDepositTxHash)))
          return ok(false);
        this.tables.tournaments.push({
          ...t,
          activatedAt: null,
          completedAt: null,
          championWallet: null,
          createdAt: at(0),
          cancelledAt: null,
          cancelReason: null,
          cancelledBy: null,
          discardedAt: null,
          firstOpenStage: 1,
        });
        return ok(true);
      },
      insertStage: (s: NewStage) => {
        this.tables.stages.push({ ...s, completedAt: null, participants: 0, lastLockAt: s.lockAt });
        return ok(undefined);
      },
      stages: (id) =>
        ok(this.tables.stages.filter((s) => s.tournamentId === id).sort((a, b) => a.stageIndex - b.stageIndex)),
      insertFixture: (f: NewFixture) => {
        this.tables.fixtures.push({ ...f, result: null, homeScore: null, awayScore: null, settledAt: null });
        return ok(undefined);
      },
      fixtures: (id) => ok(this.tables.fixtures.filter((f) => f.tournamentId === id)),
      fixture: (id) => ok(this.tables.fixtures.find((f) => f.id === id) ?? null),
      entries: (id) => ok(this.entriesOf(id)),
      entryOf: (id, wallet) => ok(this.entriesOf(id).find((e) => same(e.wallet, wallet)) ?? null),
      insertEntry: (e) => {
        if (this.tables.entries.some((x) => x.tournamentId === e.tournamentId && same(x.wallet, e.wallet)))
          return ok(false);
        const seq = Math.max(0, ...this.tables.entries.map((x) => x.seq)) + 1;
        this.tables.entries.push({
          ...e,
          wallet: e.wallet as Address,
          seq,
          placement: null,
          stagesPlayed: 0,
          points: 0,
          status: 'ALIVE',
        });
        return ok(true);
      },
    };
  }

  private playRepo(): Partial<PlayRepository> {
    return {
      stageEntries: (stageId) =>
        ok(this.tables.seats.filter((s) => s.stageId === stageId).sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0))),
      stageEntriesOfTournament: (id) => ok(this.tables.seats.filter((s) => s.tournamentId === id)),
      stageEntry: (stageId, entryId) =>
        ok(this.tables.seats.find((s) => s.stageId === stageId && s.entryId === entryId) ?? null),
      setPaid: (stageId, entryId, txHash) => {
        for (const s of this.tables.seats)
          if (s.stageId === stageId && s.entryId === entryId && !s.paidTxHash) s.paidTxHash = txHash;
        return ok(undefined);
      },
      addAvailable: (stageId, entryId, delta) => {
        for (const s of this.tables.seats)
          if (s.stageId === stageId && s.entryId === entryId) {
            s.available += delta;
            s.stack += delta;
          }
        return ok(undefined);
      },
      matches: (id) => ok(this.tables.matches.filter((m) => this.stageTournament(m.stageId) === id)),
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
        this.tables.overrides = [
          ...this.tables.overrides.filter((x) => !(x.tournamentId === o.tournamentId && x.scope === o.scope)),
          { ...o },
        ];
        return ok(undefined);
      },
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
