import { describe, expect, it } from 'vitest';
import { fakeSeason } from '../../adapters/sports-provider/fake-motorsport.season.js';
import { eventStatus, reentryProblem, roundStatus, sideBetPick } from './racing.rules.js';

const HOUR = 3_600_000;
const DAY_START = Date.UTC(2026, 11, 1);
const season = fakeSeason(DAY_START / (24 * HOUR));
const [r1, r2] = season.rounds as [(typeof season.rounds)[0], (typeof season.rounds)[0]];
const at = (h: number) => new Date(DAY_START + h * HOUR);

describe('statuses follow the clock and the settled sessions', () => {
  it('opens, goes live at the lock and finishes when settled', () => {
    const q = r1.events[0]!;
    const none = new Map<number, 'finished' | 'cancelled'>();
    expect(eventStatus(q, at(9), none)).toBe('OPEN');
    expect(eventStatus(q, at(10), none)).toBe('LIVE');
    expect(eventStatus(q, at(12), new Map([[q.id, 'finished']]))).toBe('FINISHED');
    expect(eventStatus(q, at(12), new Map([[q.id, 'cancelled']]))).toBe('CANCELLED');
    expect(roundStatus(r1, at(9), none)).toBe('UPCOMING');
    expect(roundStatus(r1, at(11), new Map([[q.id, 'finished']]))).toBe('LIVE');
    expect(roundStatus(r1, at(15), new Map(r1.events.map((e) => [e.id, 'finished'])))).toBe('COMPLETED');
  });
});

describe('re-entry', () => {
  it('needs a weekend finished since the period began and one still to start', () => {
    const start = at(8);
    expect(reentryProblem(season, start, at(13))).toMatch(/No weekend has finished/);
    expect(reentryProblem(season, start, at(14))).toBeNull();
    // A period begun after weekend 1 needs weekend 2 to finish first.
    expect(reentryProblem(season, at(14), at(18))).toMatch(/No weekend has finished/);
    expect(reentryProblem(season, at(14), at(19))).toBeNull();
    expect(reentryProblem(season, start, at(20))).toMatch(/No weekend is left/);
    expect(r2.sprint).toBe(true);
  });
});

describe('side-bet values', () => {
  it('round-trips through storage', () => {
    expect(sideBetPick('FASTEST_LAP', '104')).toEqual({ prop: 'FASTEST_LAP', driverId: 104 });
    expect(sideBetPick('SAFETY_CAR', 'false')).toEqual({ prop: 'SAFETY_CAR', value: false });
    expect(sideBetPick('DNF_COUNT', '2')).toEqual({ prop: 'DNF_COUNT', count: 2 });
  });
});
