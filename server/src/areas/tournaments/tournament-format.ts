/**
 * The rules of tournament play, in one pure module: who plays which stage, how chips move, how
 * group tables and knockout brackets are decided, and who finishes where. No I/O and no clock:
 * every function is a function of its input, so the same facts always give the same standings,
 * whether they are recomputed from scratch or built up one result at a time (see ChipLedger and
 * the property tests beside this file). docs/tournaments.md explains every rule in prose.
 */

export type TournamentFormat = 'GROUP_KNOCKOUT' | 'KNOCKOUT';
export type PickOutcome = 'HOME' | 'DRAW' | 'AWAY';
/** A fixture's settled result: an outcome, or void (cancelled, abandoned, never finished). */
export type FixtureResult = PickOutcome | 'VOID';
export type StageKind = 'GROUP' | 'KNOCKOUT';
export type ParticipantStatus = 'ALIVE' | 'ADVANCED' | 'ELIMINATED' | 'FORFEITED' | 'CHAMPION';

/** The numbers a tournament is created with (docs/tournaments.md, "Formats"). */
export interface FormatRules {
  readonly format: TournamentFormat;
  readonly totalStages: number;
  /** Largest group of the group stage (GROUP_KNOCKOUT). */
  readonly groupSize: number;
  /** How many of each group reach the knockout bracket (GROUP_KNOCKOUT). */
  readonly advancePerGroup: number;
}

export interface EntrantInput {
  readonly id: string;
  /** 1-based entry order: the creator is 1. Breaks every tie (the better seed wins). */
  readonly seed: number;
}

export interface StageInput {
  readonly index: number;
  /** Chips every participant of the stage starts it with. */
  readonly startChips: number;
  /** A later stage with its own buy-in: participants who have not paid it by the end forfeit. */
  readonly paid: boolean;
  readonly fixtureIds: readonly string[];
}

export interface PickInput {
  readonly id: string;
  readonly entrantId: string;
  readonly stageIndex: number;
  readonly fixtureId: string;
  readonly outcome: PickOutcome;
  /** Chips staked (a positive integer). */
  readonly stake: number;
  /** Decimal odds × 100 at the time of the pick (2.10 → 210). */
  readonly oddsX100: number;
}

export interface TournamentInput {
  readonly rules: FormatRules;
  readonly entrants: readonly EntrantInput[];
  readonly stages: readonly StageInput[];
  readonly picks: readonly PickInput[];
  readonly results: ReadonlyMap<string, FixtureResult>;
  /** For paid stages after the first: who has paid that stage's buy-in. */
  readonly stagePayments: ReadonlyMap<number, ReadonlySet<string>>;
}

export interface Standing {
  readonly entrantId: string;
  readonly seed: number;
  readonly startChips: number;
  /** Chips not staked on an open pick: what can still be staked. */
  readonly available: number;
  /** The chip stack standings rank by: start chips plus the net of settled picks (open stakes count at face value). */
  readonly stack: number;
  readonly rank: number;
  readonly group: string | null;
  readonly groupRank: number | null;
  readonly status: ParticipantStatus;
  readonly paid: boolean;
  readonly picks: number;
  readonly wonPicks: number;
}

export interface GroupTable {
  readonly label: string;
  /** Members in table order. */
  readonly members: readonly { readonly entrantId: string; readonly position: number; readonly advancing: boolean }[];
}

export interface MatchSide {
  readonly entrantId: string;
  /** Seed in this bracket (1 = best). */
  readonly seed: number;
}

export interface Match {
  readonly slot: number;
  readonly a: MatchSide | null;
  readonly b: MatchSide | null;
  readonly winner: string | null;
  /** PENDING until the stage completes; BYE when a side is empty. */
  readonly status: 'PENDING' | 'DECIDED' | 'BYE';
}

export interface StageState {
  readonly index: number;
  readonly kind: StageKind;
  /** Whether the participants are known (the previous stage is complete). */
  readonly drawn: boolean;
  readonly complete: boolean;
  readonly standings: readonly Standing[];
  readonly groups: readonly GroupTable[];
  readonly matches: readonly Match[];
}

export interface Placement {
  readonly entrantId: string;
  readonly rank: number;
  readonly stagesPlayed: number;
  /** Sum of the entrant's final stacks over the stages played. */
  readonly points: number;
  readonly status: 'ALIVE' | 'ELIMINATED' | 'CHAMPION';
}

export interface TournamentState {
  readonly stages: readonly StageState[];
  readonly placements: readonly Placement[];
  readonly champion: string | null;
  readonly finished: boolean;
}

/** Chips a pick returns once its fixture is settled: stake × odds on a win, nothing on a loss, the stake on a void. */
export function pickReturn(pick: Pick<PickInput, 'outcome' | 'stake' | 'oddsX100'>, result: FixtureResult): number {
  if (result === 'VOID') return pick.stake;
  return result === pick.outcome ? Math.floor((pick.stake * pick.oddsX100) / 100) : 0;
}

/** Number of knockout rounds: every stage of KNOCKOUT, every stage after the group stage of GROUP_KNOCKOUT. */
export function knockoutRounds(rules: FormatRules): number {
  return rules.format === 'KNOCKOUT' ? rules.totalStages : rules.totalStages - 1;
}

/** Players the first knockout round holds (byes fill the empty seats). */
export function bracketSize(rules: FormatRules): number {
  return 2 ** knockoutRounds(rules);
}

export function stageKind(rules: FormatRules, index: number): StageKind {
  return rules.format === 'GROUP_KNOCKOUT' && index === 1 ? 'GROUP' : 'KNOCKOUT';
}

/** Players a knockout stage starts with at most. */
export function playersInStage(rules: FormatRules, index: number): number {
  const round = rules.format === 'KNOCKOUT' ? index : index - 1;
  return bracketSize(rules) / 2 ** (round - 1);
}

export function stageName(rules: FormatRules, index: number): string {
  if (stageKind(rules, index) === 'GROUP') return 'Group stage';
  const players = playersInStage(rules, index);
  if (players === 2) return 'Final';
  if (players === 4) return 'Semi-finals';
  if (players === 8) return 'Quarter-finals';
  return `Round of ${players}`;
}

/** Problems with a set of rules, as `field: message`; empty when they can be played. */
export function ruleProblems(rules: FormatRules, maxEntrants: number): string[] {
  const problems: string[] = [];
  if (rules.format === 'KNOCKOUT') {
    if (rules.totalStages < 1 || rules.totalStages > 7) problems.push('totalStages: KNOCKOUT takes 1 to 7 stages');
    else if (maxEntrants > bracketSize(rules)) {
      problems.push(
        `config.maxEntrants: ${rules.totalStages} knockout stages hold at most ${bracketSize(rules)} players`,
      );
    }
  } else {
    if (rules.totalStages < 2 || rules.totalStages > 7) {
      problems.push('totalStages: GROUP_KNOCKOUT takes 2 to 7 stages (a group stage and at least a final)');
    }
    if (rules.groupSize < 2) problems.push('config.groupSize: at least 2');
    if (rules.advancePerGroup < 1 || rules.advancePerGroup >= rules.groupSize) {
      problems.push('config.advancePerGroup: at least 1 and less than groupSize');
    }
  }
  return problems;
}

/** Group labels A…Z, then AA, AB, … */
export function groupLabel(n: number): string {
  let label = '';
  let i = n;
  do {
    label = String.fromCharCode(65 + (i % 26)) + label;
    i = Math.floor(i / 26) - 1;
  } while (i >= 0);
  return label;
}

/**
 * Entrants into groups of at most `groupSize`: as few groups as that allows, filled in snake
 * order of seed (A, B, …, B, A, …) so every group gets a spread of seeds.
 */
export function drawGroups(entrants: readonly EntrantInput[], groupSize: number): Map<string, string> {
  const ordered = [...entrants].sort(bySeed);
  const count = Math.max(1, Math.ceil(ordered.length / groupSize));
  const groups = new Map<string, string>();
  ordered.forEach((e, i) => {
    const lap = Math.floor(i / count);
    const pos = i % count;
    groups.set(e.id, groupLabel(lap % 2 === 0 ? pos : count - 1 - pos));
  });
  return groups;
}

/** Standard bracket order: seeds 1 and 2 can only meet in the final (8 → 1,8,4,5,2,7,3,6). */
export function bracketOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const n = order.length * 2;
    order = order.flatMap((s) => [s, n + 1 - s]);
  }
  return order;
}

/**
 * The incremental view of one stage's chips: picks placed and removed, fixtures settled one at a
 * time. `balances()` always equals `balancesFromScratch` of the same facts.
 */
export class ChipLedger {
  private readonly available = new Map<string, number>();
  private readonly stacks = new Map<string, number>();
  private readonly open = new Map<string, PickInput>();
  private readonly settled = new Set<string>();

  constructor(startChips: ReadonlyMap<string, number>) {
    for (const [id, chips] of startChips) {
      this.available.set(id, chips);
      this.stacks.set(id, chips);
    }
  }

  place(pick: PickInput): void {
    const available = this.available.get(pick.entrantId) ?? 0;
    if (pick.stake < 1 || pick.stake > available) throw new RangeError('stake exceeds available chips');
    this.available.set(pick.entrantId, available - pick.stake);
    this.open.set(pick.id, pick);
  }

  /** Takes back an open pick: its stake returns. */
  remove(pickId: string): void {
    const pick = this.open.get(pickId);
    if (!pick) return;
    this.open.delete(pickId);
    this.available.set(pick.entrantId, (this.available.get(pick.entrantId) ?? 0) + pick.stake);
  }

  /** Settles every open pick on `fixtureId`; settling a fixture twice changes nothing. */
  settle(fixtureId: string, result: FixtureResult): void {
    if (this.settled.has(fixtureId)) return;
    this.settled.add(fixtureId);
    for (const [id, pick] of [...this.open]) {
      if (pick.fixtureId !== fixtureId) continue;
      this.open.delete(id);
      const back = pickReturn(pick, result);
      this.available.set(pick.entrantId, (this.available.get(pick.entrantId) ?? 0) + back);
      this.stacks.set(pick.entrantId, (this.stacks.get(pick.entrantId) ?? 0) + back - pick.stake);
    }
  }

  balances(): Map<string, { available: number; stack: number }> {
    return new Map([...this.available].map(([id, available]) => [id, { available, stack: this.stacks.get(id) ?? 0 }]));
  }
}

/** One stage's chips from its facts: start chips, every pick still standing, the results known. */
export function balancesFromScratch(
  startChips: ReadonlyMap<string, number>,
  picks: readonly PickInput[],
  results: ReadonlyMap<string, FixtureResult>,
): Map<string, { available: number; stack: number }> {
  const out = new Map([...startChips].map(([id, chips]) => [id, { available: chips, stack: chips }]));
  for (const pick of picks) {
    const b = out.get(pick.entrantId);
    if (!b) continue;
    const result = results.get(pick.fixtureId);
    if (result === undefined) {
      b.available -= pick.stake;
      continue;
    }
    const back = pickReturn(pick, result);
    b.available += back - pick.stake;
    b.stack += back - pick.stake;
  }
  return out;
}

const bySeed = (a: { seed: number }, b: { seed: number }) => a.seed - b.seed;

/** Stack, then the better seed. */
const byStack = (a: { stack: number; seed: number }, b: { stack: number; seed: number }) =>
  b.stack - a.stack || a.seed - b.seed;

interface Draft {
  entrantId: string;
  seed: number;
  startChips: number;
  available: number;
  stack: number;
  group: string | null;
  groupRank: number | null;
  status: ParticipantStatus;
  paid: boolean;
  picks: number;
  wonPicks: number;
}

/** The whole tournament from its facts. Deterministic: input order never matters. */
export function computeTournament(input: TournamentInput): TournamentState {
  const { rules } = input;
  const entrants = [...input.entrants].sort(bySeed);
  const seedOf = new Map(entrants.map((e) => [e.id, e.seed]));
  const stages = [...input.stages].sort((a, b) => a.index - b.index);
  const out: StageState[] = [];
  // Sides of the next knockout round, in bracket order; undefined until they are known.
  let nextSides: (MatchSide | null)[] | undefined;
  let champion: string | null = null;

  for (const stage of stages) {
    const kind = stageKind(rules, stage.index);
    let sides: (MatchSide | null)[] | undefined;
    let participants: EntrantInput[] | undefined;
    if (kind === 'GROUP') {
      participants = entrants;
    } else if (stage.index === 1) {
      const size = bracketSize(rules);
      sides = bracketOrder(size).map((s) => {
        const e = entrants[s - 1];
        return e ? { entrantId: e.id, seed: s } : null;
      });
    } else {
      sides = nextSides;
    }
    if (sides) {
      participants = sides
        .filter((s): s is MatchSide => s !== null)
        .map((s) => ({ id: s.entrantId, seed: seedOf.get(s.entrantId) ?? s.seed }));
    }
    if (!participants) {
      out.push({ index: stage.index, kind, drawn: false, complete: false, standings: [], groups: [], matches: [] });
      nextSides = undefined;
      continue;
    }

    const ids = new Set(participants.map((p) => p.id));
    const stagePicks = input.picks.filter((p) => p.stageIndex === stage.index && ids.has(p.entrantId));
    const balances = balancesFromScratch(
      new Map(participants.map((p) => [p.id, stage.startChips])),
      stagePicks,
      input.results,
    );
    const complete = stage.fixtureIds.length > 0 && stage.fixtureIds.every((f) => input.results.has(f));
    const paidSet = stage.index > 1 && stage.paid ? input.stagePayments.get(stage.index) : undefined;
    const drafts = new Map<string, Draft>(
      participants.map((p) => {
        const b = balances.get(p.id) ?? { available: stage.startChips, stack: stage.startChips };
        const own = stagePicks.filter((x) => x.entrantId === p.id);
        return [
          p.id,
          {
            entrantId: p.id,
            seed: p.seed,
            startChips: stage.startChips,
            available: b.available,
            stack: b.stack,
            group: null,
            groupRank: null,
            status: 'ALIVE',
            paid: !stage.paid || stage.index === 1 || Boolean(paidSet?.has(p.id)),
            picks: own.length,
            wonPicks: own.filter((x) => input.results.get(x.fixtureId) === x.outcome).length,
          },
        ];
      }),
    );

    let groups: GroupTable[] = [];
    let matches: Match[] = [];
    if (kind === 'GROUP') {
      groups = groupTables(participants, drafts, rules);
      nextSides = complete ? seedBracket(groups, drafts, bracketSize(rules)) : undefined;
      if (complete) {
        const through = new Set((nextSides ?? []).filter((s): s is MatchSide => s !== null).map((s) => s.entrantId));
        for (const d of drafts.values()) d.status = through.has(d.entrantId) ? 'ADVANCED' : 'ELIMINATED';
      }
    } else {
      matches = decideMatches(sides ?? [], drafts, complete);
      const isFinal = stage.index === rules.totalStages;
      if (complete) {
        const winners = new Set(matches.map((m) => m.winner).filter((w): w is string => w !== null));
        for (const d of drafts.values()) {
          if (!d.paid) d.status = 'FORFEITED';
          else if (winners.has(d.entrantId)) d.status = isFinal ? 'CHAMPION' : 'ADVANCED';
          else d.status = 'ELIMINATED';
        }
        if (isFinal) champion = matches[0]?.winner ?? null;
        // Winners of consecutive matches meet next: the list stays in bracket order.
        nextSides = matches.map((m) => (m.winner ? (m.a?.entrantId === m.winner ? m.a : m.b) : null));
      } else {
        nextSides = undefined;
      }
    }

    const ranked = [...drafts.values()].sort(byStack);
    out.push({
      index: stage.index,
      kind,
      drawn: true,
      complete,
      standings: ranked.map((d, i) => ({ ...d, rank: i + 1 })),
      groups,
      matches,
    });
  }

  const finished = out.length > 0 && out[out.length - 1]?.complete === true;
  return { stages: out, placements: placements(entrants, out, champion), champion, finished };
}

function groupTables(participants: readonly EntrantInput[], drafts: Map<string, Draft>, rules: FormatRules) {
  const labels = drawGroups(participants, rules.groupSize);
  const byLabel = new Map<string, Draft[]>();
  for (const d of drafts.values()) {
    const label = labels.get(d.entrantId) ?? 'A';
    d.group = label;
    byLabel.set(label, [...(byLabel.get(label) ?? []), d]);
  }
  return [...byLabel.keys()].sort(compareLabels).map((label) => {
    const members = (byLabel.get(label) ?? []).sort(byStack);
    members.forEach((m, i) => (m.groupRank = i + 1));
    return {
      label,
      members: members.map((m, i) => ({
        entrantId: m.entrantId,
        position: i + 1,
        advancing: i < rules.advancePerGroup,
      })),
    };
  });
}

const compareLabels = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Qualifiers of the group stage seeded into the bracket: group winners first, then runners-up, …;
 * within a position by stack, then seed. The best `size` take the seats; empty seats are byes.
 */
function seedBracket(groups: readonly GroupTable[], drafts: Map<string, Draft>, size: number): (MatchSide | null)[] {
  const qualifiers = groups
    .flatMap((g) => g.members.filter((m) => m.advancing))
    .map((m) => ({ ...m, stack: drafts.get(m.entrantId)?.stack ?? 0, seed: drafts.get(m.entrantId)?.seed ?? 0 }))
    .sort((a, b) => a.position - b.position || byStack(a, b))
    .slice(0, size);
  return bracketOrder(size).map((s) => {
    const q = qualifiers[s - 1];
    return q ? { entrantId: q.entrantId, seed: s } : null;
  });
}

/**
 * Pairs consecutive sides. Once the stage is complete: a bye goes through; a side that has not paid
 * a paid stage forfeits; otherwise the bigger stack wins and a tie goes to the better bracket seed.
 */
function decideMatches(sides: readonly (MatchSide | null)[], drafts: Map<string, Draft>, complete: boolean): Match[] {
  const matches: Match[] = [];
  for (let i = 0; i < sides.length; i += 2) {
    const a = sides[i] ?? null;
    const b = sides[i + 1] ?? null;
    const slot = i / 2 + 1;
    if (!a || !b) {
      const only = a ?? b;
      const through = only && drafts.get(only.entrantId)?.paid ? only.entrantId : null;
      matches.push({ slot, a, b, winner: complete ? through : null, status: 'BYE' });
      continue;
    }
    if (!complete) {
      matches.push({ slot, a, b, winner: null, status: 'PENDING' });
      continue;
    }
    const da = drafts.get(a.entrantId);
    const db = drafts.get(b.entrantId);
    let winner: string | null;
    if (!da?.paid && !db?.paid) winner = null;
    else if (!da?.paid) winner = b.entrantId;
    else if (!db?.paid) winner = a.entrantId;
    else winner = da.stack > db.stack || (da.stack === db.stack && a.seed < b.seed) ? a.entrantId : b.entrantId;
    matches.push({ slot, a, b, winner, status: 'DECIDED' });
  }
  return matches;
}

/** Final order: the champion, then by the last stage reached, the stack there, and seed. */
function placements(entrants: readonly EntrantInput[], stages: readonly StageState[], champion: string | null) {
  const rows = entrants.map((e): Omit<Placement, 'rank'> & { seed: number; lastIndex: number; stack: number } => {
    const played = stages.filter((s) => s.standings.some((x) => x.entrantId === e.id));
    const last = played[played.length - 1];
    const lastStanding = last?.standings.find((x) => x.entrantId === e.id);
    const out = last?.complete && lastStanding?.status !== 'ADVANCED' && lastStanding?.status !== 'CHAMPION';
    return {
      entrantId: e.id,
      seed: e.seed,
      stagesPlayed: played.length,
      points: played.reduce((sum, s) => sum + (s.standings.find((x) => x.entrantId === e.id)?.stack ?? 0), 0),
      lastIndex: last?.index ?? 0,
      stack: lastStanding?.stack ?? 0,
      status: e.id === champion ? 'CHAMPION' : out ? 'ELIMINATED' : 'ALIVE',
    };
  });
  rows.sort(
    (a, b) =>
      Number(b.status === 'CHAMPION') - Number(a.status === 'CHAMPION') ||
      b.lastIndex - a.lastIndex ||
      b.stack - a.stack ||
      a.seed - b.seed,
  );
  return rows.map(({ entrantId, stagesPlayed, points, status }, i) => ({
    entrantId,
    rank: i + 1,
    stagesPlayed,
    points,
    status,
  }));
}

/** A place in the payout table and the share of the distributable pool each of its players gets. */
export interface PayoutTier {
  readonly place: number;
  readonly label: string;
  readonly players: number;
  /** Basis points of the distributable pool for each player of the tier. */
  readonly shareBpsEach: number;
}

/**
 * The payout table of a full bracket: `payoutBps[0]` to the champion, `[1]` to the runner-up,
 * `[2]` split among the two losers of the round before the final, `[3]` among the four before
 * that, … Tiers the bracket cannot fill go to the champion. Amounts are split down to the base unit.
 */
export function payoutTiers(rules: FormatRules, payoutBps: readonly number[]): PayoutTier[] {
  const rounds = knockoutRounds(rules);
  const tiers: PayoutTier[] = [];
  let unused = 0;
  payoutBps.forEach((bps, i) => {
    if (i > rounds) {
      unused += bps;
      return;
    }
    const players = i === 0 ? 1 : 2 ** (i - 1);
    const label = i === 0 ? 'Champion' : i === 1 ? 'Runner-up' : `${stageNameByPlayers(2 ** i)} losers`;
    tiers.push({ place: i + 1, label, players, shareBpsEach: Math.floor(bps / players) });
    unused += bps - Math.floor(bps / players) * players;
  });
  const first = tiers[0];
  if (first) tiers[0] = { ...first, shareBpsEach: first.shareBpsEach + unused };
  return tiers;
}

function stageNameByPlayers(players: number): string {
  if (players === 4) return 'Semi-final';
  if (players === 8) return 'Quarter-final';
  return `Round of ${players}`;
}
