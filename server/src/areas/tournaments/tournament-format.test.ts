import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ChipLedger,
  balancesFromScratch,
  bracketOrder,
  computeTournament,
  drawGroups,
  payoutTiers,
  pickReturn,
  ruleProblems,
  stageName,
  type FixtureResult,
  type PickInput,
  type TournamentInput,
} from './tournament-format.js';

const OUTCOMES = ['HOME', 'DRAW', 'AWAY'] as const;
const RESULTS = ['HOME', 'DRAW', 'AWAY', 'VOID'] as const;

const entrants = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `e${i + 1}`, seed: i + 1 }));

function pick(
  id: string,
  entrantId: string,
  stageIndex: number,
  fixtureId: string,
  outcome: PickInput['outcome'],
  stake: number,
  oddsX100 = 200,
): PickInput {
  return { id, entrantId, stageIndex, fixtureId, outcome, stake, oddsX100 };
}

const groupKnockout = (n: number, results: [string, FixtureResult][], picks: PickInput[], payments = new Map()) =>
  computeTournament({
    rules: { format: 'GROUP_KNOCKOUT', totalStages: 3, groupSize: 4, advancePerGroup: 2 },
    entrants: entrants(n),
    stages: [
      { index: 1, startChips: 1000, paid: false, fixtureIds: ['f1', 'f2'] },
      { index: 2, startChips: 2000, paid: false, fixtureIds: ['f3'] },
      { index: 3, startChips: 3000, paid: true, fixtureIds: ['f4'] },
    ],
    picks,
    results: new Map(results),
    stagePayments: payments,
  });

describe('chips', () => {
  it('returns stake × odds on a win, nothing on a loss and the stake on a void', () => {
    const p = { outcome: 'HOME' as const, stake: 100, oddsX100: 215 };
    expect([pickReturn(p, 'HOME'), pickReturn(p, 'AWAY'), pickReturn(p, 'VOID')]).toEqual([215, 0, 100]);
    expect(pickReturn({ ...p, stake: 3, oddsX100: 133 }, 'HOME')).toBe(3);
  });

  it('gives the same balances built up result by result as computed from scratch, in any order', () => {
    const scenario = fc.record({
      picks: fc.array(
        fc.record({
          entrant: fc.integer({ min: 1, max: 4 }),
          fixture: fc.integer({ min: 1, max: 5 }),
          outcome: fc.constantFrom(...OUTCOMES),
          stake: fc.integer({ min: 1, max: 400 }),
          odds: fc.integer({ min: 101, max: 1500 }),
          removed: fc.boolean(),
        }),
        { maxLength: 30 },
      ),
      results: fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.constantFrom(...RESULTS)), { maxLength: 8 }),
    });
    fc.assert(
      fc.property(scenario, ({ picks, results }) => {
        const start = new Map(entrants(4).map((e) => [e.id, 1000]));
        const ledger = new ChipLedger(start);
        const kept: PickInput[] = [];
        const settled = new Map<string, FixtureResult>();
        // Results arrive between placements; a pick on a settled fixture is refused like a locked one.
        const pending = [...results];
        picks.forEach((p, i) => {
          const candidate = pick(`p${i}`, `e${p.entrant}`, 1, `f${p.fixture}`, p.outcome, p.stake, p.odds);
          const available = ledger.balances().get(candidate.entrantId)?.available ?? 0;
          if (!settled.has(candidate.fixtureId) && candidate.stake <= available) {
            ledger.place(candidate);
            if (p.removed) ledger.remove(candidate.id);
            else kept.push(candidate);
          }
          const next = pending.shift();
          if (next && !settled.has(`f${next[0]}`)) {
            settled.set(`f${next[0]}`, next[1]);
            ledger.settle(`f${next[0]}`, next[1]);
          }
        });
        expect(ledger.balances()).toEqual(balancesFromScratch(start, [...kept].reverse(), settled));
      }),
    );
  });
});

describe('groups and brackets', () => {
  it('draws groups in snake order of seed with as few groups as the size allows', () => {
    const groups = drawGroups(entrants(10), 4);
    const byGroup = (label: string) => [...groups].filter(([, g]) => g === label).map(([id]) => id);
    expect(byGroup('A')).toEqual(['e1', 'e6', 'e7']);
    expect(byGroup('B')).toEqual(['e2', 'e5', 'e8']);
    expect(byGroup('C')).toEqual(['e3', 'e4', 'e9', 'e10']);
  });

  it('orders brackets so the top two seeds can only meet in the final', () => {
    expect(bracketOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    expect(bracketOrder(2)).toEqual([1, 2]);
  });

  it('names stages by the players left', () => {
    const rules = { format: 'GROUP_KNOCKOUT' as const, totalStages: 4, groupSize: 4, advancePerGroup: 2 };
    expect([1, 2, 3, 4].map((i) => stageName(rules, i))).toEqual([
      'Group stage',
      'Quarter-finals',
      'Semi-finals',
      'Final',
    ]);
  });

  it('refuses rules that cannot be played', () => {
    expect(ruleProblems({ format: 'KNOCKOUT', totalStages: 2, groupSize: 4, advancePerGroup: 2 }, 8)).toEqual([
      'config.maxEntrants: 2 knockout stages hold at most 4 players',
    ]);
    expect(
      ruleProblems({ format: 'GROUP_KNOCKOUT', totalStages: 1, groupSize: 4, advancePerGroup: 4 }, 8),
    ).toHaveLength(2);
  });

  it('advances the top of the group stage by stack and breaks ties by seed', () => {
    const state = groupKnockout(
      3,
      [
        ['f1', 'HOME'],
        ['f2', 'AWAY'],
      ],
      [pick('a', 'e3', 1, 'f1', 'HOME', 500), pick('b', 'e1', 1, 'f2', 'HOME', 100)],
    );
    const group = state.stages[0];
    expect(group?.complete).toBe(true);
    expect(group?.standings.map((s) => [s.entrantId, s.stack, s.status])).toEqual([
      ['e3', 1500, 'ADVANCED'],
      ['e2', 1000, 'ADVANCED'],
      ['e1', 900, 'ELIMINATED'],
    ]);
    // Three players in one group and two advance into a 4-seat bracket (two knockout stages): two byes.
    const semis = state.stages[1];
    expect(semis?.drawn).toBe(true);
    expect(semis?.matches.map((m) => [m.a?.entrantId ?? null, m.b?.entrantId ?? null])).toEqual([
      ['e3', null],
      ['e2', null],
    ]);
  });

  it('keeps later stages undrawn until the stage before them is complete', () => {
    const state = groupKnockout(5, [['f1', 'HOME']], []);
    expect(state.stages.map((s) => [s.drawn, s.complete])).toEqual([
      [true, false],
      [false, false],
      [false, false],
    ]);
    expect(state.placements.every((p) => p.status === 'ALIVE')).toBe(true);
  });

  it('plays a bracket to a champion, forfeiting a finalist who did not pay the paid final', () => {
    const results: [string, FixtureResult][] = [
      ['f1', 'HOME'],
      ['f2', 'DRAW'],
      ['f3', 'AWAY'],
      ['f4', 'HOME'],
    ];
    const picks = [
      pick('1', 'e5', 1, 'f1', 'HOME', 1000),
      pick('2', 'e6', 1, 'f2', 'DRAW', 1000, 300),
      pick('3', 'e1', 3, 'f4', 'HOME', 3000),
    ];
    const unpaid = groupKnockout(8, results, picks, new Map([[3, new Set<string>()]]));
    expect(unpaid.stages[2]?.matches[0]?.winner).toBe(null);
    expect(unpaid.champion).toBe(null);

    const state = groupKnockout(8, results, picks, new Map([[3, new Set(['e6'])]]));
    const [groups, semis, final] = state.stages;
    expect(groups?.groups.map((g) => g.members.map((m) => m.entrantId))).toEqual([
      ['e5', 'e1', 'e4', 'e8'],
      ['e6', 'e2', 'e3', 'e7'],
    ]);
    expect(semis?.matches.map((m) => [m.a?.entrantId, m.b?.entrantId, m.winner])).toEqual([
      ['e6', 'e2', 'e6'],
      ['e5', 'e1', 'e5'],
    ]);
    expect(final?.standings.find((s) => s.entrantId === 'e5')?.status).toBe('FORFEITED');
    expect(state.champion).toBe('e6');
    expect(state.finished).toBe(true);
    expect(state.placements.slice(0, 3).map((p) => [p.entrantId, p.rank, p.status, p.stagesPlayed])).toEqual([
      ['e6', 1, 'CHAMPION', 3],
      ['e5', 2, 'ELIMINATED', 3],
      ['e1', 3, 'ELIMINATED', 2],
    ]);
  });

  it('draws a single-elimination bracket from the first stage by entry order', () => {
    const state = computeTournament({
      rules: { format: 'KNOCKOUT', totalStages: 2, groupSize: 4, advancePerGroup: 2 },
      entrants: entrants(3),
      stages: [
        { index: 1, startChips: 100, paid: false, fixtureIds: ['f1'] },
        { index: 2, startChips: 100, paid: false, fixtureIds: ['f2'] },
      ],
      picks: [pick('p', 'e3', 1, 'f1', 'AWAY', 100, 250), pick('q', 'e2', 1, 'f1', 'HOME', 10)],
      results: new Map([['f1', 'AWAY']]),
      stagePayments: new Map(),
    });
    expect(
      state.stages[0]?.matches.map((m) => [m.a?.entrantId ?? null, m.b?.entrantId ?? null, m.winner, m.status]),
    ).toEqual([
      ['e1', null, 'e1', 'BYE'],
      ['e2', 'e3', 'e3', 'DECIDED'],
    ]);
    expect(state.stages[1]?.standings.map((s) => s.entrantId)).toEqual(['e1', 'e3']);
  });

  it('computes the same tournament whatever order its facts arrive in', () => {
    const facts = fc.record({
      n: fc.integer({ min: 2, max: 12 }),
      picks: fc.array(
        fc.record({
          e: fc.integer({ min: 1, max: 12 }),
          stage: fc.integer({ min: 1, max: 3 }),
          f: fc.integer({ min: 1, max: 4 }),
          outcome: fc.constantFrom(...OUTCOMES),
          stake: fc.integer({ min: 1, max: 300 }),
        }),
        { maxLength: 40 },
      ),
      results: fc.array(fc.constantFrom(...RESULTS), { minLength: 4, maxLength: 4 }),
      known: fc.integer({ min: 0, max: 4 }),
      seed: fc.integer(),
    });
    fc.assert(
      fc.property(facts, ({ n, picks, results, known, seed }) => {
        const stageOf = (f: number) => (f <= 2 ? 1 : f - 1);
        const list = picks
          .filter((p) => p.e <= n)
          .map((p, i) => pick(`p${i}`, `e${p.e}`, stageOf(p.f), `f${p.f}`, p.outcome, p.stake));
        const res = results.slice(0, known).map((r, i) => [`f${i + 1}`, r] as [string, FixtureResult]);
        const base = groupKnockout(n, res, list);
        const shuffled: TournamentInput = {
          rules: { format: 'GROUP_KNOCKOUT', totalStages: 3, groupSize: 4, advancePerGroup: 2 },
          entrants: shuffle(entrants(n), seed),
          stages: shuffle(
            [
              { index: 1, startChips: 1000, paid: false, fixtureIds: ['f1', 'f2'] },
              { index: 2, startChips: 2000, paid: false, fixtureIds: ['f3'] },
              { index: 3, startChips: 3000, paid: true, fixtureIds: ['f4'] },
            ],
            seed,
          ),
          picks: shuffle(list, seed),
          results: new Map(shuffle(res, seed)),
          stagePayments: new Map(),
        };
        expect(computeTournament(shuffled)).toEqual(base);
      }),
    );
  });
});

describe('payout table', () => {
  it('splits the default table over champion, runner-up and semi-final losers', () => {
    const rules = { format: 'GROUP_KNOCKOUT' as const, totalStages: 3, groupSize: 4, advancePerGroup: 2 };
    expect(payoutTiers(rules, [6000, 2500, 1500])).toEqual([
      { place: 1, label: 'Champion', players: 1, shareBpsEach: 6000 },
      { place: 2, label: 'Runner-up', players: 1, shareBpsEach: 2500 },
      { place: 3, label: 'Semi-final losers', players: 2, shareBpsEach: 750 },
    ]);
  });

  it('gives tiers a short bracket cannot fill to the champion', () => {
    const rules = { format: 'KNOCKOUT' as const, totalStages: 1, groupSize: 4, advancePerGroup: 2 };
    expect(payoutTiers(rules, [6000, 2500, 1500]).map((t) => t.shareBpsEach)).toEqual([7500, 2500]);
  });
});

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
