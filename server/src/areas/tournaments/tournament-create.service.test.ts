import type { CreateTournamentRequest } from '@duelkit/contract';
import type { Address, Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import type { FixturesPort, ProviderFixture } from '../../adapters/sports-provider/fixtures.port.js';
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../logger.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import {
  HOUR,
  T0,
  UNIT,
  actorOf,
  at,
  codeOf,
  errorOf,
  tournamentSettings,
} from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { BondService } from './tournament-bond.service.js';
import { CreateTournamentService } from './tournament-create.service.js';
import type { StandingsService } from './tournament-standings.service.js';
import { bondPoolId, tournamentPoolId } from './vault-pools.js';

const creator = actorOf('a');
const other = actorOf('b');
const ID = 'cd'.repeat(12);
const BUYIN = 5n * UNIT;

/** A league kicking off a fixture every even hour (its id: hours after T0), with odds where `hasOdds` says. */
function evenHourLeague(hasOdds: (id: number) => boolean = () => true): FixturesPort {
  return {
    fixturesBetween: (_league, from, to) => {
      const out: ProviderFixture[] = [];
      for (let ms = Math.ceil(from.getTime() / (2 * HOUR)) * 2 * HOUR; ms < to.getTime(); ms += 2 * HOUR) {
        const id = (ms - T0) / HOUR;
        out.push({ id, leagueId: 8, name: `F${id}`, homeTeam: `H${id}`, awayTeam: `A${id}`, startsAt: new Date(ms) });
      }
      return Promise.resolve(out);
    },
    odds: (id) => Promise.resolve(hasOdds(id) ? { home: 210, draw: 320, away: 350 } : null),
    state: () => Promise.reject(new Error('unused')),
  };
}

function body(over: Partial<CreateTournamentRequest> = {}): CreateTournamentRequest {
  return {
    name: 'Friday cup',
    type: 'COMMUNITY',
    sport: 'Football',
    gameType: 'CLASSIC',
    format: 'KNOCKOUT',
    stakeAsset: 'credits',
    clientTournamentId: ID,
    creatorDepositTxHash: `0x${'d1'.repeat(32)}`,
    totalStages: 2,
    stages: [
      { stageIndex: 1, buyinUsdc: BUYIN.toString(), multiplier: 1, isFinal: false },
      { stageIndex: 2, buyinUsdc: '0', multiplier: 2, isFinal: true },
    ],
    config: { minEntriesToActivate: 2 },
    ...over,
  };
}

function setup(hasOdds?: (id: number) => boolean) {
  const world = new TournamentWorld();
  const vault = new PrizeVaultFake();
  const clock = new ManualClock(T0);
  const settings = tournamentSettings();
  const recomputed: string[] = [];
  const bonds = new BondService(world.db, vault, {} as never, {} as never, settings, createLogger('silent'));
  const standings = {
    recompute: (id: string) => Promise.resolve(void recomputed.push(id)),
  } as unknown as StandingsService;
  const service = new CreateTournamentService(
    world.db,
    vault,
    evenHourLeague(hasOdds),
    bonds,
    standings,
    settings,
    clock,
  );
  world.setBond(creator.wallet, 10n * UNIT);
  world.setBond(other.wallet, 10n * UNIT);
  /** The creator's stage-1 deposit into the tournament's pool, mined. */
  const deposit = (from: Address = creator.wallet, amount = BUYIN, poolId = tournamentPoolId(ID)): Hash =>
    vault.mined(`0x${'d1'.repeat(32)}`, [{ collateral: 'credits', poolId, stage: 1, from, amount }]);
  return { world, vault, clock, service, deposit, recomputed };
}

describe('CreateTournamentService', () => {
  it('creates a LIVE tournament with its stages, fixtures, the deposit and the creator’s entry in one go', async () => {
    const { world, service, deposit, recomputed } = setup();
    deposit();
    expect(await service.create(creator, body())).toEqual({ id: ID, created: true });
    expect(world.tournament(ID)).toMatchObject({
      status: 'LIVE',
      ownerWallet: creator.wallet,
      maxEntrants: 4, // a two-round bracket, below the deployment's 64
      feeBps: 500,
      payoutBps: [6000, 2500, 1500],
      poolId: tournamentPoolId(ID),
      startsAt: at(2), // the first even hour after now + the 60-minute lead
      endsAt: at(10),
      entryCount: 1,
      prizePool: BUYIN.toString(),
    });
    expect(
      world.tables.stages.map((s) => [s.stageIndex, s.stageName, s.kind, s.buyin, s.startChips, s.isFinal]),
    ).toEqual([
      [1, 'Semi-finals', 'KNOCKOUT', BUYIN.toString(), 1000, false],
      [2, 'Final', 'KNOCKOUT', '0', 2000, true],
    ]);
    expect(world.tables.fixtures.map((f) => f.startsAt)).toEqual([at(2), at(4), at(6), at(8)]);
    expect(world.tables.fixtures[0]).toMatchObject({ lockAt: at(2), endsAt: at(4), expiresAt: at(52), oddsHome: 210 });
    expect(world.tables.deposits).toMatchObject([{ purpose: 'create', amount: BUYIN.toString(), stageIndex: 1 }]);
    expect(world.entriesOf(ID)).toMatchObject([{ wallet: creator.wallet, isCreator: true, seed: 1 }]);
    expect(recomputed).toEqual([ID]);
  });

  it('schedules stage 1 from the requested start time', async () => {
    const { world, service, deposit } = setup();
    deposit();
    await service.create(creator, body({ startTime: at(11).toISOString() }));
    expect(world.tournament(ID)?.startsAt).toEqual(at(12));
  });

  it('answers the same create again without writing twice, and refuses anything else under the id', async () => {
    const { world, service, deposit } = setup();
    deposit();
    await service.create(creator, body());
    expect(await service.create(creator, body({ name: 'renamed' }))).toEqual({ id: ID, created: false });
    expect(await codeOf(service.create(other, body()))).toBe('TOURNAMENT_ID_TAKEN');
    expect(await codeOf(service.create(creator, body({ creatorDepositTxHash: `0x${'d2'.repeat(32)}` })))).toBe(
      'TOURNAMENT_ID_TAKEN',
    );
    expect(world.tables.tournaments).toHaveLength(1);
    expect(world.tables.stages).toHaveLength(2);
  });

  it('answers a create that lost the race to the same create as a replay, and to another as taken', async () => {
    const { world, vault, service, deposit } = setup();
    deposit();
    const verify = vault.receipt.bind(vault);
    let winner = creator.wallet;
    // The concurrent create commits while this one verifies the deposit and schedules.
    vault.receipt = (tx) => {
      world.addTournament({ id: ID, ownerWallet: winner, creatorDepositTxHash: `0x${'d1'.repeat(32)}` });
      return verify(tx);
    };
    expect(await service.create(creator, body())).toEqual({ id: ID, created: false });
    expect(world.tables.tournaments).toHaveLength(1);
    expect(world.tables.deposits).toEqual([]); // the winner's rows are its own
    world.tables.tournaments = [];
    winner = other.wallet;
    expect(await codeOf(service.create(creator, body()))).toBe('TOURNAMENT_ID_TAKEN');
    expect(world.tables.stages).toEqual([]);
  });

  it('refuses a stage-1 buy-in below 5 units with BUYIN_BELOW_MINIMUM', async () => {
    const { service } = setup();
    const stages = body().stages.map((s) => (s.stageIndex === 1 ? { ...s, buyinUsdc: (BUYIN - 1n).toString() } : s));
    expect(await codeOf(service.create(creator, body({ stages })))).toBe('BUYIN_BELOW_MINIMUM');
  });

  it('refuses a create without its id or deposit with PAID_TOURNAMENT_REQUIRES_DEPOSIT naming what is missing', async () => {
    const { service } = setup();
    const { clientTournamentId: _id, creatorDepositTxHash: _tx, ...bare } = body();
    const e = await errorOf(service.create(creator, bare));
    expect(e.code).toBe('PAID_TOURNAMENT_REQUIRES_DEPOSIT');
    expect(e.details).toEqual({ missing: ['clientTournamentId', 'creatorDepositTxHash'] });
  });

  it('refuses an owner wallet other than the caller’s with FORBIDDEN', async () => {
    const { service } = setup();
    expect(await codeOf(service.create(creator, body({ ownerWallet: other.wallet })))).toBe('FORBIDDEN');
  });

  it('collects every rule problem as field errors of one VALIDATION_FAILED', async () => {
    const { world, service } = setup();
    const e = await errorOf(
      service.create(
        creator,
        body({
          totalStages: 3,
          vaultStack: 'usdc',
          stages: [
            { stageIndex: 1, buyinUsdc: BUYIN.toString(), multiplier: 1, isFinal: true },
            { stageIndex: 2, buyinUsdc: '0', multiplier: 1, isFinal: false },
          ],
          config: { minEntriesToActivate: 9, stakeAsset: 'usdc', payoutBps: [5000, 4000] },
        }),
      ),
    );
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(e.fieldErrors ?? {}).sort()).toEqual([
      'body.config.minEntriesToActivate',
      'body.config.payoutBps',
      'body.config.stakeAsset',
      'body.stages',
      'body.stages.0.isFinal',
      'body.vaultStack',
    ]);
    expect(world.tables.tournaments).toEqual([]);
  });

  it('refuses more entrants than the knockout bracket holds', async () => {
    const { service } = setup();
    const e = await errorOf(service.create(creator, body({ config: { minEntriesToActivate: 2, maxEntrants: 5 } })));
    expect(e.fieldErrors).toEqual({ 'body.config.maxEntrants': ['2 knockout stages hold at most 4 players'] });
  });

  it('refuses a deposit that already paid an entry or a bond with DEPOSIT_ALREADY_USED', async () => {
    const { world, service, deposit } = setup();
    const tx = deposit();
    world.tables.movements.push({
      id: 'm-1',
      wallet: creator.wallet,
      asset: 'credits',
      kind: 'deposit',
      amount: UNIT.toString(),
      txHash: tx,
      status: 'sent',
    });
    const e = await errorOf(service.create(creator, body()));
    expect([e.code, e.details?.['usedFor']]).toEqual(['DEPOSIT_ALREADY_USED', 'a creator bond']);
    world.tables.movements = [];
    const t = world.addTournament({ id: 'ef'.repeat(12) });
    world.addEntry(t.id, creator, { txHash: tx });
    expect(await codeOf(service.create(creator, body()))).toBe('DEPOSIT_ALREADY_USED');
    expect(world.tournament(ID)).toBeNull();
  });

  it('refuses a creator whose bond is short with BOND_REQUIRED, storing nothing', async () => {
    const { world, service, deposit } = setup();
    deposit();
    world.setBond(creator.wallet, 10n * UNIT - 1n);
    expect(await codeOf(service.create(creator, body()))).toBe('BOND_REQUIRED');
    expect(world.tables.tournaments).toEqual([]);
  });

  it('checks the bond again under its lock: a withdrawal while the deposit is verified stops the create', async () => {
    const { world, vault, service, deposit } = setup();
    deposit();
    const verify = vault.receipt.bind(vault);
    vault.receipt = (tx) => (world.setBond(creator.wallet, 0n), verify(tx));
    expect(await codeOf(service.create(creator, body()))).toBe('BOND_REQUIRED');
    expect(world.tables.tournaments).toEqual([]);
    expect(world.tables.deposits).toEqual([]);
  });

  it('refuses a deposit that is unmined, short, or for another pool', async () => {
    const { world, vault, service } = setup();
    expect(await codeOf(service.create(creator, body()))).toBe('DEPOSIT_PENDING');
    const tx = `0x${'d1'.repeat(32)}` as const;
    const mismatch = async () => (await errorOf(service.create(creator, body()))).details?.['reason'];
    vault.mined(tx, [
      { collateral: 'credits', poolId: tournamentPoolId(ID), stage: 1, from: creator.wallet, amount: BUYIN - 1n },
    ]);
    expect(await mismatch()).toBe('amount');
    vault.mined(tx, [
      { collateral: 'credits', poolId: bondPoolId(creator.wallet), stage: 1, from: creator.wallet, amount: BUYIN },
    ]);
    expect(await mismatch()).toBe('pool');
    vault.mined(tx, [
      { collateral: 'credits', poolId: tournamentPoolId(ID), stage: 1, from: other.wallet, amount: BUYIN },
    ]);
    expect(await mismatch()).toBe('sender');
    expect(world.tables.tournaments).toEqual([]);
  });

  it('refuses a stage without a fixture with odds in its window with NO_FIXTURES, storing nothing', async () => {
    const { world, service, deposit } = setup((id) => id < 6); // odds for stage 1 only
    deposit();
    const e = await errorOf(service.create(creator, body()));
    expect(e.code).toBe('NO_FIXTURES');
    expect(e.details).toMatchObject({ stageIndex: 2 });
    expect(world.tables.tournaments).toEqual([]);
    expect(world.tables.deposits).toEqual([]);
  });

  it('schedules nothing in the past: the lead moves with the clock', async () => {
    const { world, clock, service, deposit } = setup();
    deposit();
    clock.advance(5 * HOUR);
    await service.create(creator, body());
    expect(world.tournament(ID)?.startsAt).toEqual(at(6)); // now + 1 h, on the hour
  });
});
