import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import { ParlayCatalogueService } from './parlay-catalogue.service.js';
import { conditionIdOf, parseConditionId } from './parlay-conditions.mapper.js';
import { FakeFixtures, HOUR, SETTINGS, T0 } from './parlay.test-kit.js';

function setup() {
  const clock = new ManualClock(T0);
  const fixtures = new FakeFixtures();
  return { clock, fixtures, catalogue: new ParlayCatalogueService({ fixtures, clock, settings: SETTINGS }) };
}

const result = (fixtureId: number) => conditionIdOf({ fixtureId, kind: 'FULL_TIME_RESULT', playerId: 0 });
const goals = (fixtureId: number) => conditionIdOf({ fixtureId, kind: 'GOALS_OVER_UNDER', playerId: 0 });
const scorer = (fixtureId: number, shirt: number) =>
  conditionIdOf({ fixtureId, kind: 'ANYTIME_GOALSCORER', playerId: fixtureId * 100 + shirt });

describe('parlay catalogue', () => {
  it('round-trips condition ids, left-padded to 32 bytes', () => {
    const id = scorer(7, 9);
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(parseConditionId(id)).toEqual({ fixtureId: 7, kind: 'ANYTIME_GOALSCORER', playerId: 709 });
    expect(parseConditionId(`0x${id.slice(2).replace(/^0+/, '')}`)).toEqual(parseConditionId(id));
    expect(parseConditionId('0x1234')).toBeNull();
  });

  it('lists the games of the window and closes them a lead before kick-off', async () => {
    const { catalogue, clock } = setup();
    const { markets } = await catalogue.markets();
    expect(markets.map((m) => m.marketId)).toEqual(Array.from({ length: 11 }, (_, i) => String(i + 1)));
    expect(markets[0]?.status).toBe('open');
    clock.advance(2 * HOUR - 10 * 60_000);
    expect((await catalogue.market('1')).status).toBe('closed');
  });

  it('answers 404 for an unknown market', async () => {
    const { catalogue } = setup();
    await expect(catalogue.market('999')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps the goals line out of the same-game menu', async () => {
    const { catalogue } = setup();
    const menu = await catalogue.sgpMenu('3');
    expect(menu.legs.map((l) => l.kind)).not.toContain('GOALS_OVER_UNDER');
    expect(menu.legs.filter((l) => l.kind === 'ANYTIME_GOALSCORER')).toHaveLength(2);
  });

  it('reports every problem of a leg set, keyed per leg', async () => {
    const { catalogue } = setup();
    const check = await catalogue.checkLegs([
      { conditionId: result(1), outcomeId: 0 },
      { conditionId: result(1), outcomeId: 0 },
      { conditionId: result(2), outcomeId: 0 },
      { conditionId: result(2), outcomeId: 2 },
      { conditionId: goals(3), outcomeId: 0 },
      { conditionId: scorer(3, 9), outcomeId: 0 },
      { conditionId: result(4), outcomeId: 7 },
      { conditionId: '0xzz', outcomeId: 0 },
    ]);
    expect(check.valid).toBe(false);
    if (check.valid) return;
    expect(check.fieldErrors['legs']).toEqual(['a parlay has at most 4 legs']);
    expect(check.fieldErrors['legs.1']).toEqual(['duplicate of leg 0']);
    expect(check.fieldErrors['legs.3']).toEqual(['another outcome of the condition of leg 2']);
    expect(check.fieldErrors['legs.5']).toEqual(['the goals line is not combinable with leg 4 of the same game']);
    expect(check.fieldErrors['legs.6.outcomeId']).toBeDefined();
    expect(check.fieldErrors['legs.7.conditionId']).toEqual(['not a condition id']);
  });

  it('accepts the result with scorers of one game, up to the same-game limit', async () => {
    const { catalogue } = setup();
    const ok = await catalogue.checkLegs([
      { conditionId: result(5), outcomeId: 0 },
      { conditionId: scorer(5, 9), outcomeId: 0 },
      { conditionId: scorer(5, 10), outcomeId: 0 },
    ]);
    expect(ok.valid).toBe(true);
    expect(ok.legs.map((l) => l.view.odds)).toEqual(['2.00', '3.00', '4.50']);
  });

  it('refuses a leg whose game closed when the clock passes its lead', async () => {
    const { catalogue, clock } = setup();
    const legs = [
      { conditionId: result(1), outcomeId: 0 },
      { conditionId: result(2), outcomeId: 0 },
    ];
    expect((await catalogue.checkLegs(legs)).valid).toBe(true);
    clock.advance(2 * HOUR - 10 * 60_000);
    const check = await catalogue.checkLegs(legs);
    expect(check.valid ? null : check.fieldErrors).toEqual({
      'legs.0.conditionId': ['closed: the game starts too soon or has started'],
    });
  });

  it('builds a Saturday accumulator of favourites, one leg per game', async () => {
    const { catalogue, fixtures } = setup();
    fixtures.homeOdds.set(2, 500); // the away side (3.80) becomes the favourite of game 2
    const acc = await catalogue.europeanSaturday();
    expect(acc.date).toBe('2026-12-05');
    expect(acc.legs.map((l) => [l.marketId, l.outcomeId])).toEqual([
      ['1', 0],
      ['2', 1],
      ['3', 0],
      ['4', 0],
    ]);
    // 2.00 × 3.40 × 2.00 × 2.00 = 27.20, less 5% once = 25.84
    expect(acc.combinedOdds).toBe('25.84');
  });

  it('runs one team through its next games, or answers 404 for a team without any', async () => {
    const { catalogue } = setup();
    const run = await catalogue.sameTeamRun('team 3');
    expect(run.team).toBe('Team 3');
    expect(run.legs.map((l) => [l.marketId, l.outcomeId])).toEqual([['2', 2]]);
    await expect(catalogue.sameTeamRun('Nobody FC')).rejects.toBeInstanceOf(DomainError);
  });
});
