import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import type { FixtureState } from '../../adapters/sports-provider/fixtures.port.js';
import type { Logger } from '../../logger.js';
import { conditionIdOf, type ConditionKey } from './parlay-conditions.mapper.js';
import { ParlaySettlementService, resultOf } from './parlay-settlement.service.js';

const finished = (home: number, away: number): FixtureState => ({
  state: 'finished',
  outcome: home > away ? 'HOME' : home === away ? 'DRAW' : 'AWAY',
  homeScore: home,
  awayScore: away,
});
const result = (fixtureId: number): ConditionKey => ({ fixtureId, kind: 'FULL_TIME_RESULT', playerId: 0 });
const goals = (fixtureId: number): ConditionKey => ({ fixtureId, kind: 'GOALS_OVER_UNDER', playerId: 0 });
const scorer = (fixtureId: number, playerId: number): ConditionKey => ({
  fixtureId,
  kind: 'ANYTIME_GOALSCORER',
  playerId,
});
const ticketId = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** The book as the chain would see it: results posted and tickets settled, each once per key. */
class FakeBook {
  results = new Map<string, { conditionId: Hex; isVoid: boolean; winningOutcome: number }>();
  settled = new Map<string, Hex>();
  sends = 0;
  postResult = (conditionId: Hex, isVoid: boolean, winningOutcome: number, w: { key: string }) => {
    this.sends++;
    if (!this.results.has(w.key)) this.results.set(w.key, { conditionId, isVoid, winningOutcome });
    return Promise.resolve<Hex>(`0x${'44'.repeat(32)}`);
  };
  settle = (id: Hex, w: { key: string }) => {
    this.sends++;
    if (!this.settled.has(w.key)) this.settled.set(w.key, id);
    return Promise.resolve<Hex>(`0x${'55'.repeat(32)}`);
  };
}

function setup(o: { conditions: string[]; settleable?: string[]; states: Record<number, FixtureState> }) {
  const book = new FakeBook();
  const limits: { conditions: number[]; settleable: number[] } = { conditions: [], settleable: [] };
  const logged: unknown[] = [];
  const service = new ParlaySettlementService({
    book,
    fixtures: { state: (id) => Promise.resolve(o.states[id] ?? { state: 'scheduled' }) },
    tickets: {
      unresolvedConditions: (limit) => (limits.conditions.push(limit), Promise.resolve(o.conditions)),
      settleable: (limit) => (limits.settleable.push(limit), Promise.resolve(o.settleable ?? [])),
    },
    logger: { info: (fields: unknown) => void logged.push(fields) } as unknown as Logger,
  });
  return { book, service, limits, logged };
}

describe('ParlaySettlementService', () => {
  it('posts the winning outcome of each condition once its game is over', async () => {
    const ids = [conditionIdOf(result(1)), conditionIdOf(goals(1)), conditionIdOf(result(2)), conditionIdOf(goals(2))];
    const { book, service } = setup({ conditions: ids, states: { 1: finished(2, 2), 2: finished(0, 1) } });
    expect(await service.runOnce()).toEqual({ results: 4, settled: 0 });
    expect([...book.results.values()]).toEqual([
      { conditionId: ids[0], isVoid: false, winningOutcome: 1 }, // draw
      { conditionId: ids[1], isVoid: false, winningOutcome: 0 }, // 4 goals: over 2.5
      { conditionId: ids[2], isVoid: false, winningOutcome: 2 }, // away win
      { conditionId: ids[3], isVoid: false, winningOutcome: 1 }, // 1 goal: under 2.5
    ]);
  });

  it('treats exactly three goals as over and two as under the 2.5 line', () => {
    expect(resultOf(goals(1), finished(2, 1))?.winningOutcome).toBe(0);
    expect(resultOf(goals(1), finished(1, 1))?.winningOutcome).toBe(1);
    expect(resultOf(goals(1), finished(0, 0))?.winningOutcome).toBe(1);
  });

  it('waits on games not yet over: scheduled, in play and delayed post nothing', async () => {
    for (const state of ['scheduled', 'in_play', 'delayed'] as const) {
      const { book, service } = setup({ conditions: [conditionIdOf(result(3))], states: { 3: { state } } });
      expect(await service.runOnce()).toEqual({ results: 0, settled: 0 });
      expect(book.sends).toBe(0);
    }
  });

  it('voids every condition of a void game and every goalscorer condition', async () => {
    const ids = [conditionIdOf(result(4)), conditionIdOf(scorer(5, 99))];
    const { book, service } = setup({
      conditions: ids,
      states: { 4: { state: 'void', reason: 'abandoned' }, 5: finished(3, 0) },
    });
    await service.runOnce();
    expect([...book.results.values()]).toEqual([
      { conditionId: ids[0], isVoid: true, winningOutcome: 0 },
      { conditionId: ids[1], isVoid: true, winningOutcome: 0 },
    ]);
  });

  it('skips condition ids it cannot read instead of posting a guess', async () => {
    const good = conditionIdOf(result(6));
    const { book, service } = setup({
      conditions: ['not-an-id', '0x0', `0x${'ff'.repeat(32)}`, good],
      states: { 6: finished(1, 0) },
    });
    expect(await service.runOnce()).toEqual({ results: 1, settled: 0 });
    expect([...book.results.keys()]).toEqual([`parlay:result:${good}`]);
  });

  it('settles every ticket the chain can settle, keyed by the ticket, after posting results', async () => {
    const order: string[] = [];
    const { book, service } = setup({
      conditions: [conditionIdOf(result(7))],
      settleable: [ticketId(1), ticketId(2)],
      states: { 7: finished(1, 0) },
    });
    const post = book.postResult;
    const settle = book.settle;
    book.postResult = (...a) => (order.push('result'), post(...a));
    book.settle = (...a) => (order.push('settle'), settle(...a));
    expect(await service.runOnce()).toEqual({ results: 1, settled: 2 });
    expect(order).toEqual(['result', 'settle', 'settle']);
    expect([...book.settled.entries()]).toEqual([
      [`parlay:settle:${ticketId(1)}`, ticketId(1)],
      [`parlay:settle:${ticketId(2)}`, ticketId(2)],
    ]);
  });

  it('sends a repeated run under the same keys, so the chain takes each write once', async () => {
    const id = conditionIdOf(result(8));
    const { book, service } = setup({ conditions: [id], settleable: [ticketId(3)], states: { 8: finished(0, 0) } });
    await service.runOnce();
    await service.runOnce();
    expect(book.sends).toBe(4);
    expect(book.results.size).toBe(1);
    expect(book.settled.size).toBe(1);
  });

  it('reads at most 200 conditions and 200 tickets a run, and logs only a run that did something', async () => {
    const idle = setup({ conditions: [], states: {} });
    expect(await idle.service.runOnce()).toEqual({ results: 0, settled: 0 });
    expect(idle.limits).toEqual({ conditions: [200], settleable: [200] });
    expect(idle.logged).toEqual([]);
    const busy = setup({ conditions: [], settleable: [ticketId(4)], states: {} });
    await busy.service.runOnce();
    expect(busy.logged).toEqual([{ results: 0, settled: 1 }]);
  });
});
