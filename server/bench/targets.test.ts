import { describe, expect, it } from 'vitest';
import type { EmbeddedRun } from './embedded.bench.js';
import type { Measured } from './harness.js';
import type { TradingRow } from './markets.bench.js';
import { judge, type RunFigures } from './targets.js';

const row = (rps: number, p99 = 10): Measured => ({ name: 'row', rps, p99, non2xx: 0, errors: 0, cpuUsPerRequest: 0 });

const trade = (serverCpuMsPerBet: number, chainCpuMsPerBet: number | undefined): TradingRow => ({
  chain: chainCpuMsPerBet === undefined ? 'embedded' : 'node',
  estimate: row(1_000),
  accepted: 1_000,
  rejected: 0,
  acceptedPerSecond: 150,
  placeP50: 80,
  placeP99: 160,
  serverCpuMsPerBet,
  chainCpuMsPerBet,
  indexedPerSecond: 150,
});

const start = (readyMs: number, rssReadyMb: number, rssIdleMb: number): EmbeddedRun => ({
  mode: 'first start',
  readyMs,
  rssReadyMb,
  rssIdleMb,
  cpuToReadyMs: 0,
  load: 0,
});

const passing: RunFigures = {
  kernel: { express: row(10_000), full: row(6_000) },
  lists: {
    oneUrl: { naive: row(800), duelkit: row(4_000, 25) },
    mix: { naive: row(800), duelkit: row(2_400, 20) },
  },
  // The embedded row is not judged: the target is the server's CPU beside a chain node.
  trading: [trade(9, undefined), trade(4, 3)],
  topology: { single: row(5_000), double: row(7_000) },
  embedded: [start(4_000, 400, 420), start(6_000, 500, 500), start(4_500, 430, 440)],
};

describe('the targets of one bench run', () => {
  it('meets each target at its bound', () => {
    expect(judge(passing).map((l) => [l.target.split(':')[0], l.met])).toEqual([
      ['kernel', true],
      ['list, one URL', true],
      ['list, 240-URL mix', true],
      ['trading', true],
      ['topology', true],
      ["embedded start (README's defaults)", true],
    ]);
  });

  const pastBound: [string, Partial<RunFigures>][] = [
    ['kernel', { kernel: { express: row(10_000), full: row(5_999) } }],
    ['list, one URL', { lists: { ...passing.lists, oneUrl: { naive: row(800), duelkit: row(4_000, 26) } } }],
    ['list, 240-URL mix', { lists: { ...passing.lists, mix: { naive: row(800), duelkit: row(2_399, 20) } } }],
    ['trading', { trading: [trade(3, undefined), trade(4.01, 3)] }],
    ['topology', { topology: { single: row(5_000), double: row(6_999) } }],
    [
      "embedded start (README's defaults)",
      { embedded: [start(4_000, 400, 451), start(4_000, 451, 300), start(5_100, 400, 400)] },
    ],
  ];

  it.each(pastBound)('misses the %s target just past its bound, and only it', (name, change) => {
    const missed = judge({ ...passing, ...change }).filter((l) => l.met === false);
    expect(missed.map((l) => l.target.split(':')[0])).toEqual([name]);
  });

  it('says what was not run instead of judging it', () => {
    const lines = judge({ ...passing, trading: [trade(3, undefined)], topology: 'wrk is not installed', embedded: [] });
    expect(lines.filter((l) => l.met === null).map((l) => l.measured)).toEqual([
      'not run',
      'not run: wrk is not installed',
      'not run',
    ]);
  });
});
