import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { HOUR, T0, TID, UNIT, actorOf, at } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { TournamentReadService } from './tournament-read.service.js';
import type { TournamentStatsQueries } from './tournament-stats.queries.js';
import { TournamentViewsService } from './tournament-views.service.js';
import { tournamentPoolId } from './vault-pools.js';

const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((x) => actorOf(x));
const stranger = actorOf('e');

/**
 * A two-round knockout of four: the semi-finals (s-1, 5 units, locks for good at +26 h) and a
 * 10-unit final (s-2, from +48 h, locks at +50 h) that a and b reached; the clock starts at T0.
 */
function setup() {
  const world = new TournamentWorld();
  const clock = new ManualClock(T0);
  const vault = new PrizeVaultFake();
  const leaderboard = [
    { wallet: a!.wallet.toLowerCase(), placement: 1, points: 9, stagesPlayed: 2, status: 'CHAMPION' as const },
    { wallet: b!.wallet.toLowerCase(), placement: null, points: 3, stagesPlayed: 1, status: 'ALIVE' as const },
  ].map((r) => ({ ...r, username: null, avatarUrl: null }));
  const stats = {
    leaderboard: (_id: string, limit: number, offset: number) =>
      Promise.resolve({ rows: leaderboard.slice(offset, offset + limit), total: leaderboard.length }),
  } as unknown as TournamentStatsQueries;
  const reads = new TournamentReadService(world.db, stats, {} as never, vault, clock);
  const service = new TournamentViewsService(world.db, reads, stats, vault, clock);
  world.addTournament({ ownerWallet: a!.wallet });
  world.addStage(1, { stageName: 'Semi-finals' });
  world.addStage(2, { stageName: 'Final', isFinal: true, buyin: (10n * UNIT).toString() });
  const entries = [a!, b!, c!, d!].map((p, i) => world.addEntry(TID, p, { isCreator: i === 0 }));
  const [ea, eb, ec, ed] = entries;
  world.addSeat('s-1', ea!, { rank: 1, stack: 1500 });
  world.addSeat('s-1', eb!, { rank: 2, stack: 1200 });
  world.addSeat('s-1', ec!, { rank: 3, stack: 900, status: 'ELIMINATED' });
  world.addSeat('s-1', ed!, { rank: 4, stack: 400, status: 'ELIMINATED' });
  world.addSeat('s-2', ea!, { paidTxHash: `0x${'5a'.repeat(32)}` });
  world.addSeat('s-2', eb!);
  return { world, clock, vault, service, entries: { ea: ea!, eb: eb!, ec: ec!, ed: ed! } };
}

describe('TournamentViewsService', () => {
  it('pages a stage’s standings, its status moving with the clock from OPEN to IN_PLAY', async () => {
    const { clock, service } = setup();
    const page = await service.standings(TID, 's-1', 2, 1);
    expect(page).toMatchObject({ status: 'OPEN', final: false, total: 4 });
    expect(page.standings.map((s) => [s.rank, s.wallet, s.chips, s.paid])).toEqual([
      [2, b!.wallet, 1200, true],
      [3, c!.wallet, 900, true],
    ]);
    clock.advance(26 * HOUR);
    expect((await service.standings(TID, 's-1', 10, 0)).status).toBe('IN_PLAY');
  });

  it('shows a later paid stage as UPCOMING until the previous completes, and who has not paid it', async () => {
    const { world, service } = setup();
    const final = await service.standings(TID, 's-2', 10, 0);
    expect(final.status).toBe('UPCOMING');
    expect(final.standings.map((s) => [s.wallet, s.paid])).toEqual([
      [a!.wallet, true],
      [b!.wallet, false],
    ]);
    world.tables.stages[0]!.completedAt = at(30);
    expect((await service.standings(TID, 's-2', 10, 0)).status).toBe('OPEN');
  });

  it('groups a group stage by label, ranks members and marks the top advancePerGroup as advancing', async () => {
    const { world, service, entries } = setup();
    world.tables.stages[0]!.kind = 'GROUP';
    const seats = world.tables.seats.filter((s) => s.stageId === 's-1');
    const places = new Map([
      [entries.ea.id, ['B', 2]],
      [entries.eb.id, ['A', 1]],
      [entries.ec.id, ['B', 1]],
      [entries.ed.id, ['A', 3]],
    ] as const);
    for (const s of seats) [s.groupLabel, s.groupRank] = places.get(s.entryId)!;
    world.tables.tournaments[0]!.advancePerGroup = 1;
    const res = await service.groups(TID, 's-1');
    expect(res.groups.map((g) => [g.label, g.members.map((m) => [m.wallet, m.position, m.advancing])])).toEqual([
      [
        'A',
        [
          [b!.wallet, 1, true],
          [d!.wallet, 3, false],
        ],
      ],
      [
        'B',
        [
          [c!.wallet, 1, true],
          [a!.wallet, 2, false],
        ],
      ],
    ]);
    expect((await service.groups(TID, 's-2')).groups).toEqual([]);
  });

  it('shows an undrawn knockout round as pending placeholders and a drawn one with its sides and winner', async () => {
    const { world, service, entries } = setup();
    const before = await service.bracket(TID);
    expect(before.bracketSize).toBe(4);
    expect(before.rounds.map((r) => [r.name, r.drawn, r.matches.length])).toEqual([
      ['Semi-finals', false, 2],
      ['Final', false, 1],
    ]);
    world.tables.matches.set('s-1', [
      {
        stageId: 's-1',
        slot: 1,
        aEntryId: entries.ea.id,
        aSeed: 1,
        bEntryId: entries.ed.id,
        bSeed: 4,
        winnerEntryId: entries.ea.id,
        status: 'DECIDED',
      },
    ]);
    const after = await service.bracket(TID);
    expect(after.rounds[0]?.matches).toEqual([
      {
        slot: 1,
        a: { wallet: a!.wallet, username: null, seed: 1, chips: 1500 },
        b: { wallet: d!.wallet, username: null, seed: 4, chips: 400 },
        winner: a!.wallet,
        status: 'DECIDED',
      },
    ]);
  });

  it('tells the bracket’s progress: rounds, the current one, who remains and the next lock', async () => {
    const { world, clock, service } = setup();
    world.addFixture('f1', 's-1', { lockAt: at(24) });
    world.addFixture('f2', 's-2', { lockAt: at(48) });
    world.tables.entries
      .filter((e) => e.wallet === c!.wallet || e.wallet === d!.wallet)
      .forEach((e) => (e.status = 'ELIMINATED'));
    expect(await service.bracketStatus(TID)).toMatchObject({
      roundsTotal: 2,
      roundsCompleted: 0,
      currentRound: 1,
      playersRemaining: 2,
      finished: false,
      nextLockTime: at(24).toISOString(),
    });
    world.tables.stages[0]!.completedAt = at(30);
    clock.advance(30 * HOUR);
    expect(await service.bracketStatus(TID)).toMatchObject({
      roundsCompleted: 1,
      currentRound: 2,
      nextLockTime: at(48).toISOString(),
    });
    world.tables.tournaments[0]!.status = 'COMPLETED';
    expect(await service.bracketStatus(TID)).toMatchObject({ finished: true, currentRound: null, nextLockTime: null });
  });

  it('prices the prize pool from the deposits not refunded, less the fee, per stage and per tier', async () => {
    const { world, vault, service } = setup();
    const stage2 = { tournamentId: TID, stageIndex: 2, amount: (10n * UNIT).toString(), purpose: 'stage' as const };
    world.tables.deposits.push(
      { ...stage2, txHash: '0x01', wallet: a!.wallet, refundTxHash: null, refundedAt: null },
      { ...stage2, txHash: '0x02', wallet: b!.wallet, refundTxHash: '0x03', refundedAt: at(40) },
    );
    vault.balances.set(`credits|${tournamentPoolId(TID)}`, 30n * UNIT);
    const res = await service.prizePool(TID);
    expect(res).toMatchObject({
      total: (30n * UNIT).toString(),
      fee: ((15n * UNIT) / 10n).toString(),
      distributable: ((285n * UNIT) / 10n).toString(),
      byStage: [
        { stageIndex: 1, deposits: 4, amount: (20n * UNIT).toString() },
        { stageIndex: 2, deposits: 1, amount: (10n * UNIT).toString() },
      ],
      vault: { poolId: tournamentPoolId(TID), balance: (30n * UNIT).toString() },
    });
    expect(res.tiers.map((t) => [t.label, t.players, t.amountEach])).toEqual([
      ['Champion', 1, ((171n * UNIT) / 10n).toString()],
      ['Runner-up', 1, ((7125n * UNIT) / 1000n).toString()],
      ['Semi-final losers', 2, ((21375n * UNIT) / 10000n).toString()],
    ]);
  });

  it('projects the payout for full paid stages and secures what the caller’s round already earned', async () => {
    const { world, service } = setup();
    // 4 × 5 units + 2 × 10 units (the final's seats) = 40; 38 after the fee.
    const finalist = await service.estimatePayout(TID, b!.wallet);
    expect(finalist).toMatchObject({
      entrants: 4,
      projectedPool: (40n * UNIT).toString(),
      distributable: (38n * UNIT).toString(),
      caller: {
        hasEntry: true,
        alive: true,
        bestCase: ((228n * UNIT) / 10n).toString(),
        guaranteed: ((95n * UNIT) / 10n).toString(),
      },
    });
    world.tables.entries.find((e) => e.wallet === c!.wallet)!.status = 'ELIMINATED';
    expect((await service.estimatePayout(TID, c!.wallet)).caller).toMatchObject({
      alive: false,
      bestCase: '0',
      guaranteed: ((285n * UNIT) / 100n).toString(),
    });
    world.tables.entries.find((e) => e.wallet === a!.wallet)!.status = 'CHAMPION';
    expect((await service.estimatePayout(TID, a!.wallet)).caller.guaranteed).toBe(((228n * UNIT) / 10n).toString());
    // A newcomer counts themself in.
    expect(await service.estimatePayout(TID, stranger.wallet)).toMatchObject({
      entrants: 5,
      projectedPool: (45n * UNIT).toString(),
      caller: { hasEntry: false, alive: true, guaranteed: '0' },
    });
  });

  it('shows a wallet its latest stage, elimination, and whether it can still withdraw before the first lock', async () => {
    const { world, clock, service } = setup();
    expect(await service.myStatus(TID, stranger.wallet)).toMatchObject({ hasEntry: false, canWithdraw: false });
    expect(await service.myStatus(TID, b!.wallet)).toMatchObject({
      hasEntry: true,
      canWithdraw: true,
      stage: { stageIndex: 2, paid: false, status: 'UPCOMING' },
    });
    expect((await service.myStatus(TID, a!.wallet)).canWithdraw).toBe(false); // the creator
    world.tables.entries.find((e) => e.wallet === d!.wallet)!.status = 'ELIMINATED';
    expect(await service.myStatus(TID, d!.wallet)).toMatchObject({ eliminated: true, eliminatedAtStage: 1 });
    clock.advance(24 * HOUR);
    expect((await service.myStatus(TID, b!.wallet)).canWithdraw).toBe(false);
  });

  it('ranks the leaderboard by placement, and the unplaced by their position in the page', async () => {
    const { service } = setup();
    expect((await service.leaderboard(TID, 10, 0)).leaderboard.map((r) => [r.rank, r.wallet])).toEqual([
      [1, a!.wallet],
      [2, b!.wallet],
    ]);
    expect((await service.leaderboard(TID, 1, 1)).leaderboard.map((r) => r.rank)).toEqual([2]);
  });

  it('describes the format: seats, rounds and groups as the tournament was created', async () => {
    const { world, service } = setup();
    const ko = await service.formatInfo(TID);
    expect(ko).toMatchObject({ format: 'KNOCKOUT', bracketSize: 4, groupSize: null, advancePerGroup: null });
    expect(ko.stages.map((s) => [s.stageName, s.maxPlayers])).toEqual([
      ['Semi-finals', 4],
      ['Final', 2],
    ]);
    Object.assign(world.tables.tournaments[0]!, {
      format: 'GROUP_KNOCKOUT',
      totalStages: 2,
      groupSize: 4,
      advancePerGroup: 1,
    });
    world.tables.stages[0]!.kind = 'GROUP';
    const groups = await service.formatInfo(TID);
    expect(groups).toMatchObject({ bracketSize: 2, groupSize: 4, advancePerGroup: 1 });
    expect(groups.stages.map((s) => s.maxPlayers)).toEqual([4, 2]);
    expect(groups.payout.map((p) => p.label)).toEqual(['Champion', 'Runner-up']);
  });
});
