import { describe, expect, it } from 'vitest';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { ALICE, BOB, CREATOR, HOUR } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { DomainError } from '../../errors.js';
import type { BondService } from './tournament-bond.service.js';
import { TournamentReadService, statusesOf } from './tournament-read.service.js';
import type { TournamentStatsQueries } from './tournament-stats.queries.js';

const stats = {
  globalLeaderboard: (limit: number, offset: number) =>
    Promise.resolve({
      rows: [ALICE, BOB].slice(0, limit).map((wallet, i) => ({
        wallet: wallet.toLowerCase(),
        username: null,
        avatarUrl: null,
        tournamentsPlayed: 3,
        wins: 2 - i,
        points: 5000 - i * 1000 - offset,
        stagesPlayed: 4,
      })),
      total: 12,
    }),
  creatorStats: (wallet: string) => Promise.resolve({ created: wallet === CREATOR ? 4 : 0 }),
  userStats: (wallet: string) => Promise.resolve({ entered: wallet === ALICE ? 2 : 0 }),
  platformAggregate: () => Promise.resolve({ tournaments: 1 }),
};
const bonds = { status: (wallet: string) => Promise.resolve({ wallet, sufficient: true }) };

function setup() {
  const mem = new TournamentWorld();
  const vault = new PrizeVaultFake();
  const service = new TournamentReadService(
    mem.db,
    stats as unknown as TournamentStatsQueries,
    bonds as unknown as BondService,
    vault,
    mem.clock,
  );
  return { mem, vault, service };
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
  );

describe('TournamentReadService', () => {
  it('reads the list filter’s words: none is every status, completed and canceled their own, anything else LIVE', () => {
    expect(statusesOf(undefined)).toBeUndefined();
    expect(statusesOf('Completed')).toEqual(['COMPLETED']);
    expect(statusesOf('canceled')).toEqual(['CANCELED']);
    expect(statusesOf('active')).toEqual(['LIVE']);
    expect(statusesOf('live')).toEqual(['LIVE']);
  });

  it('lists by status, hides discarded tournaments, and closes entries once the clock passes the start', async () => {
    const { mem, service, vault } = setup();
    const live = mem.liveFinal();
    mem.liveFinal({ status: 'COMPLETED' });
    mem.liveFinal({ discardedAt: new Date(0) });
    const page = await service.list({ status: 'active', limit: 10, offset: 0 });
    expect(page.total).toBe(1);
    expect(page.tournaments[0]).toMatchObject({
      id: live.id,
      entriesOpen: true,
      vault: { address: vault.address('credits'), poolId: live.poolId },
    });
    expect((await service.list({ limit: 10, offset: 0 })).total).toBe(2);
    mem.clock.advance(HOUR);
    expect((await service.list({ status: 'live', limit: 10, offset: 0 })).tournaments[0]?.entriesOpen).toBe(false);
  });

  it('shows stage and fixture status as of the clock: a later stage waits for the previous one, then opens until its lock', async () => {
    const { mem, service } = setup();
    const t = mem.liveFinal({ totalStages: 2 });
    const s1 = mem.stage(t);
    const s2Lock = new Date(mem.clock.now() + 6 * HOUR);
    mem.stage(t, { lockAt: s2Lock, lastLockAt: s2Lock });
    mem.fixture(s1);
    const detail = await service.detail(t.id.toUpperCase());
    expect(detail.stages.map((s) => [s.stageIndex, s.status])).toEqual([
      [1, 'OPEN'],
      [2, 'UPCOMING'],
    ]);
    expect(detail.stages[0]?.fixtures.map((f) => f.status)).toEqual(['SCHEDULED']);
    mem.clock.advance(HOUR);
    s1.completedAt = new Date(mem.clock.now());
    const later = await service.detail(t.id);
    expect(later.stages.map((s) => s.status)).toEqual(['COMPLETED', 'OPEN']);
    expect(later.stages[0]?.fixtures.map((f) => f.status)).toEqual(['LOCKED']);
    mem.clock.advance(5 * HOUR);
    expect((await service.detail(t.id)).stages[1]?.status).toBe('IN_PLAY');
  });

  it('serves one stage’s fixtures and decimal odds, locked from the fixture’s lock time', async () => {
    const { mem, service } = setup();
    const t = mem.liveFinal({ totalStages: 2 });
    const s1 = mem.stage(t);
    const s2 = mem.stage(t);
    const f1 = mem.fixture(s1, { oddsHome: 185, oddsDraw: 340, oddsAway: 410 });
    mem.fixture(s2);
    const fixtures = await service.fixtures(t.id, s1.id);
    expect(fixtures.fixtures.map((f) => f.id)).toEqual([f1.id]);
    const odds = await service.odds(t.id, s1.id);
    expect(odds.odds).toEqual([
      {
        fixtureId: f1.id,
        providerFixtureId: f1.providerFixtureId,
        title: f1.title,
        lockTime: f1.lockAt.toISOString(),
        locked: false,
        odds: { home: '1.85', draw: '3.40', away: '4.10' },
      },
    ]);
    mem.clock.advance(HOUR);
    expect((await service.odds(t.id, s1.id)).odds[0]?.locked).toBe(true);
  });

  it('answers NOT_FOUND for an unknown tournament or a stage of another tournament', async () => {
    const { mem, service } = setup();
    const t = mem.liveFinal();
    const foreign = mem.stage(mem.liveFinal());
    expect(await code(service.detail('ffffffffffffffffffffffff'))).toBe('NOT_FOUND');
    expect(await code(service.fixtures(t.id, foreign.id))).toBe('NOT_FOUND');
    expect(await code(service.odds(t.id, 'nope'))).toBe('NOT_FOUND');
  });

  it('lists a wallet’s tournaments with its role, whatever the address’s case', async () => {
    const { mem, service } = setup();
    const own = mem.liveFinal({ ownerWallet: ALICE });
    const other = mem.liveFinal();
    mem.entry(other, ALICE);
    mem.liveFinal();
    const res = await service.byWallet(ALICE.toLowerCase(), 10, 0);
    expect(res.wallet).toBe(ALICE);
    expect(res.total).toBe(2);
    expect(res.tournaments.map((t) => [t.id, t.role])).toEqual([
      [own.id, 'creator'],
      [other.id, 'entrant'],
    ]);
  });

  it('ranks the global leaderboard from the page’s offset, with checksummed wallets', async () => {
    const { service } = setup();
    const res = await service.globalLeaderboard(2, 10);
    expect(res.total).toBe(12);
    expect(res.leaderboard.map((r) => [r.rank, r.wallet])).toEqual([
      [11, ALICE],
      [12, BOB],
    ]);
  });

  it('answers a creator’s statistics with its bond, and a user’s for the checksummed wallet', async () => {
    const { service } = setup();
    expect(await service.creatorStats(CREATOR.toLowerCase())).toEqual({
      wallet: CREATOR,
      created: 4,
      bond: { wallet: CREATOR, sufficient: true },
    });
    expect(await service.userStats(ALICE.toLowerCase())).toEqual({ wallet: ALICE, entered: 2 });
  });
});
