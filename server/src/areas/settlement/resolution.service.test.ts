import type { ContestWithAddress } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { UNIT } from '../../../test/fakes/chain-harness.js';
import { MarketWorld, type FakeUser } from '../../../test/fakes/market-world.js';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { createLogger } from '../../logger.js';
import type { ContestRepository, NewContest } from './contest.repository.js';
import { ResolutionService } from './resolution.service.js';

const CONTEST_PERIOD = 24 * 3_600;
const HOUR = 3_600_000;

function setup() {
  const world = new MarketWorld();
  const contests = repositoryMock<ContestRepository>();
  const filed: NewContest[] = [];
  contests.isParticipant.mockResolvedValue(true);
  contests.count.mockImplementation((duelId) => Promise.resolve(filed.filter((c) => c.duelId === duelId).length));
  contests.insert.mockImplementation((c) => {
    if (filed.some((f) => f.duelId === c.duelId && f.userAddress === c.userAddress)) return Promise.resolve(null);
    filed.push(c);
    return Promise.resolve({ ...c, id: `contest-${filed.length}` } as unknown as ContestWithAddress);
  });
  const resolution = new ResolutionService({
    contests,
    lifecycle: world.chain.lifecycle,
    duels: world.duels,
    signers: world.signers,
    access: world.access,
    logger: createLogger('silent'),
    clock: world.clock,
  });
  return { world, resolution };
}

const as = (u: FakeUser) => ({ userId: u.userId, address: u.address });

describe('ResolutionService', () => {
  it('refuses to resolve before the end time with INVALID_STATE and resolves once the clock passes it', async () => {
    const { world, resolution } = setup();
    const creator = await world.user('creator');
    const duel = await world.market(creator, { endsIn: 3_600, contestPeriod: CONTEST_PERIOD });
    const request = { duelIds: [{ duelId: duel.duelId, winningOptionIndex: 1 }] };

    await expect(resolution.resolve(world.context(), as(creator), request)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    world.clock.advance(HOUR);
    const { results } = await resolution.resolve(world.context(), as(creator), request);

    expect(results).toMatchObject([{ duelId: duel.duelId, success: true }]);
    expect(await world.chain.lifecycle.marketStatus(duel.duelId as `0x${string}`)).toBe('resolved');
    expect(world.indexed(duel)).toMatchObject({ status: 'pending_contest', winningOptionIndex: 1 });
  });

  it('lets only the creator resolve: anyone else is FORBIDDEN and nothing is sent', async () => {
    const { world, resolution } = setup();
    const duel = await world.market(await world.user('creator'));
    const mallory = await world.user('mallory');
    world.clock.advance(2 * HOUR);
    await expect(
      resolution.resolve(world.context(), as(mallory), { duelIds: [{ duelId: duel.duelId, winningOptionIndex: 0 }] }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await world.chain.lifecycle.marketStatus(duel.duelId as `0x${string}`)).toBe('open');
  });

  it('takes contests during the contest period and settles only after it, by moving the clock', async () => {
    const { world, resolution } = setup();
    const creator = await world.user('creator');
    const bob = await world.user('bob');
    const carol = await world.user('carol');
    const duel = await world.market(creator, { endsIn: 3_600, contestPeriod: CONTEST_PERIOD });
    world.clock.advance(HOUR);
    await resolution.resolve(world.context(), as(creator), {
      duelIds: [{ duelId: duel.duelId, winningOptionIndex: 0 }],
    });
    world.indexed(duel);

    await resolution.submitContest(as(bob), {
      duelId: duel.duelId,
      reason: 'The other side won',
      proposedOptionIndex: 1,
    });
    await expect(
      resolution.submitContest(as(bob), { duelId: duel.duelId, reason: 'Again', proposedOptionIndex: 1 }),
    ).rejects.toMatchObject({ code: 'CONTEST_EXISTS' });
    await expect(
      resolution.finalize(world.context(), { duelId: duel.duelId }, { actor: 'creator', caller: as(creator) }),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });

    world.clock.advance(CONTEST_PERIOD * 1000);
    await expect(
      resolution.submitContest(as(carol), { duelId: duel.duelId, reason: 'Too late' }),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
    // A contest was filed, so the creator may correct the outcome.
    const settled = await resolution.finalize(
      world.context(),
      { duelId: duel.duelId, winningOptionIndex: 1 },
      { actor: 'creator', caller: as(creator) },
    );
    expect(settled).toMatchObject({ winningOptionIndex: 1, resolvedOptionIndex: 0, corrected: true, contests: 1 });
    expect(world.indexed(duel)).toMatchObject({ status: 'settled', winningOptionIndex: 1 });
  });

  it('refuses the creator’s correction of an uncontested outcome (INVALID_STATE) and settles it as resolved', async () => {
    const { world, resolution } = setup();
    const creator = await world.user('creator');
    const duel = await world.market(creator, { endsIn: 3_600, contestPeriod: CONTEST_PERIOD });
    world.clock.advance(HOUR);
    await resolution.resolve(world.context(), as(creator), {
      duelIds: [{ duelId: duel.duelId, winningOptionIndex: 0 }],
    });
    world.indexed(duel);
    world.clock.advance(CONTEST_PERIOD * 1000);
    const by = { actor: 'creator' as const, caller: as(creator) };
    await expect(
      resolution.finalize(world.context(), { duelId: duel.duelId, winningOptionIndex: 1 }, by),
    ).rejects.toMatchObject({ code: 'INVALID_STATE', details: { contests: 0 } });
    const settled = await resolution.finalize(world.context(), { duelId: duel.duelId }, by);
    expect(settled).toMatchObject({ winningOptionIndex: 0, corrected: false });
  });

  it('keeps the creator out of contests of their own market (FORBIDDEN)', async () => {
    const { world, resolution } = setup();
    const creator = await world.user('creator');
    const duel = await world.market(creator, { endsIn: 3_600, contestPeriod: CONTEST_PERIOD, funding: 10n * UNIT });
    world.clock.advance(HOUR);
    await resolution.resolve(world.context(), as(creator), {
      duelIds: [{ duelId: duel.duelId, winningOptionIndex: 0 }],
    });
    world.indexed(duel);
    await expect(
      resolution.submitContest(as(creator), { duelId: duel.duelId, reason: 'I changed my mind' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
