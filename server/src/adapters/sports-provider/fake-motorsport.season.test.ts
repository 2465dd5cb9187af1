import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { FakeMotorsportSeason, fakeClassification, fakeEvent, fakeSeason } from './fake-motorsport.season.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const day = Math.floor(Date.UTC(2026, 11, 1) / DAY);

describe('the fake motorsport season', () => {
  it('has three weekends, one of them a sprint weekend, ten sessions in order on its day', () => {
    const s = fakeSeason(day);
    expect(s.rounds.map((r) => [r.roundNumber, r.sprint, r.events.map((e) => e.eventType)])).toEqual([
      [1, false, ['QUALIFYING', 'RACE']],
      [2, true, ['SPRINT_QUALIFYING', 'SPRINT', 'QUALIFYING', 'RACE']],
      [3, false, ['QUALIFYING', 'RACE']],
    ]);
    const events = s.rounds.flatMap((r) => r.events);
    expect(events[0]?.startsAt.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(events[events.length - 1]?.endsAt.toISOString()).toBe('2026-12-01T23:00:00.000Z');
    for (let i = 1; i < events.length; i++) {
      expect((events[i]?.startsAt.getTime() ?? 0) >= (events[i - 1]?.endsAt.getTime() ?? 0)).toBe(true);
    }
    expect(new Set(s.drivers.map((d) => d.id)).size).toBe(20);
    expect(s.teams).toHaveLength(10);
    for (const e of events) expect(fakeEvent(e.id)).toEqual(e);
    expect(fakeEvent(42)).toBeNull();
  });

  it('finishes every session the same way: a permutation of the grid, retirements last, only in sprints and races', () => {
    const grid = fakeSeason(day)
      .drivers.map((d) => d.id)
      .sort();
    for (const e of fakeSeason(day).rounds.flatMap((r) => r.events)) {
      const c = fakeClassification(e);
      expect(fakeClassification(e)).toEqual(c);
      expect([...c.order].sort()).toEqual(grid);
      expect(c.order.slice(20 - c.dnfDriverIds.length)).toEqual(c.dnfDriverIds);
      const racing = e.eventType === 'RACE' || e.eventType === 'SPRINT';
      if (!racing) expect([c.dnfDriverIds.length, c.safetyCar, c.fastestLapDriverId]).toEqual([0, false, null]);
      else expect(c.order.slice(0, 10)).toContain(c.fastestLapDriverId);
    }
    // Different sessions do not all finish alike.
    const winners = new Set(
      fakeSeason(day)
        .rounds.flatMap((r) => r.events)
        .map((e) => fakeClassification(e).order.join()),
    );
    expect(winners.size).toBeGreaterThan(5);
  });

  it('moves with the injected clock: scheduled, running, then finished', async () => {
    const clock = new ManualClock(Date.UTC(2026, 11, 1, 9));
    const fake = new FakeMotorsportSeason(clock);
    const q = fakeSeason(day).rounds[0]?.events[0];
    if (!q) throw new Error('no session');
    expect((await fake.eventState(q.id)).state).toBe('scheduled');
    clock.advance(HOUR);
    expect((await fake.eventState(q.id)).state).toBe('running');
    clock.advance(HOUR - 1);
    expect((await fake.eventState(q.id)).state).toBe('running');
    clock.advance(1);
    expect(await fake.eventState(q.id)).toEqual(fakeClassification(q));
    expect((await fake.eventState(7)).state).toBe('cancelled');
  });

  it('offers the day’s season until its first session starts, then the next day’s', async () => {
    const fake = new FakeMotorsportSeason(new ManualClock(0));
    expect(await fake.currentSeasonId(new Date(Date.UTC(2026, 11, 1, 9, 59)))).toBe(day);
    expect(await fake.currentSeasonId(new Date(Date.UTC(2026, 11, 1, 10)))).toBe(day + 1);
    expect(await fake.season(0)).toBeNull();
    expect((await fake.season(day))?.id).toBe(day);
  });
});
