import { describe, expect, it } from 'vitest';
import { chartWindow } from './chart-window.js';

const now = new Date('2026-11-23T10:30:00.000Z');

describe('chartWindow', () => {
  it('ends with the UTC hour holding now and spans 24 hourly buckets for 1D', () => {
    const w = chartWindow('1D', now);
    expect(w).toMatchObject({ interval: 'hour', seconds: 3_600 });
    expect(w.starts).toHaveLength(24);
    expect(w.from.toISOString()).toBe('2026-11-22T11:00:00.000Z');
    expect(w.starts.at(-1)?.toISOString()).toBe('2026-11-23T10:00:00.000Z');
    expect(w.to.toISOString()).toBe('2026-11-23T11:00:00.000Z');
  });

  it('uses 168 hourly buckets for 1W and 30 daily buckets for 1M', () => {
    expect(chartWindow('1W', now).starts).toHaveLength(168);
    const month = chartWindow('1M', now);
    expect(month.interval).toBe('day');
    expect(month.starts).toHaveLength(30);
    expect(month.from.toISOString()).toBe('2026-10-25T00:00:00.000Z');
  });

  it('starts ALL at the day of the first activity, or gives one bucket without any', () => {
    const all = chartWindow('ALL', now, new Date('2026-11-20T23:59:59Z'));
    expect(all.starts.map((d) => d.toISOString().slice(0, 10))).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
    ]);
    expect(chartWindow('ALL', now, null).starts).toHaveLength(1);
  });
});
