import type { CreateDuelRequest } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { UNIT } from '../../../test/fakes/chain-harness.js';
import { idempotentRun, MarketWorld, type FakeUser } from '../../../test/fakes/market-world.js';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ListCache } from './duel-list.cache.js';
import type { DuelRepository, PendingDuel } from './duel.repository.js';
import { DuelService, type DuelPage } from './duel.service.js';

const PUBLIC_LEAD = 1_860;
const PRIVATE_LEAD = 300;

function setup() {
  const world = new MarketWorld();
  const repo = repositoryMock<DuelRepository>();
  const pending: PendingDuel[] = [];
  repo.insertPending.mockImplementation((_sql, row) => {
    pending.push(row);
    return Promise.resolve();
  });
  const duels = new DuelService({
    collateral: world.chain.collateral,
    lifecycle: world.chain.lifecycle,
    signers: world.signers,
    repo,
    access: world.access,
    listCache: new ListCache<DuelPage>(0),
    settings: {
      feeBps: 100,
      initialLiquidity: 10n * UNIT,
      publicLeadSeconds: PUBLIC_LEAD,
      privateLeadSeconds: PRIVATE_LEAD,
      contestPeriodSeconds: 7_200,
    },
    clock: world.clock,
  });
  return { world, duels, pending };
}

const creatorOf = (u: FakeUser) => ({ userId: u.userId, builderAppId: 'app-1', address: u.address });

function request(world: MarketWorld, startsIn: number, extra: Partial<CreateDuelRequest> = {}): CreateDuelRequest {
  const now = world.clock.now();
  return {
    question: 'Will it rain tomorrow?',
    category: 'weather',
    startTime: new Date(now + startsIn * 1000).toISOString(),
    endTime: new Date(now + (startsIn + 3_600) * 1000).toISOString(),
    ...extra,
  };
}

describe('DuelService.create', () => {
  it('opens the market on chain funded from the creator, and records its pending row with the write', async () => {
    const { world, duels, pending } = setup();
    const alice = await world.user('alice', 25n);
    const created = await duels.create(world.context(), creatorOf(alice), request(world, PUBLIC_LEAD));
    expect(created.chainState).toBe('pending');
    expect(await world.chain.lifecycle.marketStatus(created.duelId)).toBe('open');
    expect(await world.chain.trading.poolBalances(created.duelId)).toEqual([10n * UNIT, 10n * UNIT]);
    expect(await world.chain.collateral.collateralBalance('credits', alice.account.address)).toBe(15n * UNIT);
    expect(pending).toMatchObject([{ duelId: created.duelId, options: ['YES', 'NO'], feeBps: 100, isPrivate: false }]);
  });

  it('holds a public market to its lead and a private one to the shorter lead (START_TIME_TOO_SOON)', async () => {
    const { world, duels } = setup();
    const alice = await world.user('alice', 50n);
    await expect(
      duels.create(world.context(), creatorOf(alice), request(world, PUBLIC_LEAD - 1)),
    ).rejects.toMatchObject({ code: 'START_TIME_TOO_SOON', details: { leadSeconds: PUBLIC_LEAD } });
    await expect(
      duels.create(world.context(), creatorOf(alice), request(world, PRIVATE_LEAD - 1, { isPrivate: true })),
    ).rejects.toMatchObject({ code: 'START_TIME_TOO_SOON', details: { leadSeconds: PRIVATE_LEAD } });
    const ok = await duels.create(world.context(), creatorOf(alice), request(world, PRIVATE_LEAD, { isPrivate: true }));
    expect(await world.chain.lifecycle.marketStatus(ok.duelId)).toBe('open');
  });

  it('judges the lead at the operation’s now: a start that was far enough ahead is too soon later', async () => {
    const { world, duels } = setup();
    const alice = await world.user('alice', 50n);
    const input = request(world, PUBLIC_LEAD + 60);
    world.clock.advance(61_000);
    await expect(duels.create(world.context(), creatorOf(alice), input)).rejects.toMatchObject({
      code: 'START_TIME_TOO_SOON',
    });
  });

  it('refuses an end before the start, liquidity under 5 units, and liquidity the wallet lacks', async () => {
    const { world, duels } = setup();
    const alice = await world.user('alice', 8n);
    const input = request(world, PUBLIC_LEAD);
    await expect(
      duels.create(world.context(), creatorOf(alice), { ...input, endTime: input.startTime }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      duels.create(world.context(), creatorOf(alice), { ...input, initialLiquidity: (5n * UNIT - 1n).toString() }),
    ).rejects.toMatchObject({ code: 'BET_BELOW_MINIMUM' });
    await expect(duels.create(world.context(), creatorOf(alice), input)).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { required: (10n * UNIT).toString(), available: (8n * UNIT).toString() },
    });
    expect(world.chain.state.markets.size).toBe(0);
  });

  it('creates one market for a request resumed under its Idempotency-Key: same duel, funded once', async () => {
    const { world, duels } = setup();
    const alice = await world.user('alice', 30n);
    const input = request(world, PUBLIC_LEAD);
    const first = await duels.create(world.context(idempotentRun('rec-7')), creatorOf(alice), input);
    const resumed = await duels.create(world.context(idempotentRun('rec-7', true)), creatorOf(alice), input);
    expect(resumed).toEqual(first);
    expect(world.chain.state.markets.size).toBe(1);
    expect(await world.chain.collateral.collateralBalance('credits', alice.account.address)).toBe(20n * UNIT);
  });
});
