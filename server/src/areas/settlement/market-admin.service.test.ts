import { describe, expect, it } from 'vitest';
import { MarketWorld } from '../../../test/fakes/market-world.js';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { createLogger } from '../../logger.js';
import type { DistributionService } from './distribution.service.js';
import type { MarketAdminQueries } from './market-admin.queries.js';
import type { MarketAdminRepository } from './market-admin.repository.js';
import { MarketAdminService } from './market-admin.service.js';
import type { MarketSettingsStore } from './market-settings.js';

const admin = { adminId: 'admin-1', email: 'ops@example.com' };

function setup() {
  const world = new MarketWorld();
  const repo = repositoryMock<MarketAdminRepository>();
  const cancellations = new Map<string, { reason: string; txHash: string | null }>();
  repo.insertBatch.mockResolvedValue('00000000-0000-4000-8000-000000000001');
  repo.recordCancellation.mockImplementation((c) => {
    if (cancellations.has(c.duelId)) return Promise.resolve(false);
    cancellations.set(c.duelId, { reason: c.reason, txHash: null });
    return Promise.resolve(true);
  });
  repo.recordCancellationTx.mockImplementation((duelId, txHash) => {
    const row = cancellations.get(duelId);
    if (row) row.txHash = txHash;
    return Promise.resolve();
  });
  repo.deleteCancellation.mockImplementation((duelId) => Promise.resolve(void cancellations.delete(duelId)));
  const service = new MarketAdminService({
    repo,
    lifecycle: world.chain.lifecycle,
    duels: world.duels,
    distribution: repositoryMock<DistributionService>(),
    queries: repositoryMock<MarketAdminQueries>(),
    settings: repositoryMock<MarketSettingsStore>(),
    threshold: { minParticipants: 2, minVolume: 0n },
    logger: createLogger('silent'),
    clock: world.clock,
  });
  return { world, service, cancellations };
}

describe('MarketAdminService.discard', () => {
  it('cancels every named market on chain and records each cancellation with its transaction', async () => {
    const { world, service, cancellations } = setup();
    const creator = await world.user('creator');
    const a = await world.market(creator);
    const b = await world.market(creator);
    const { results } = await service.discard(world.context(), admin, [a.duelId, b.duelId], 'Duplicate markets');
    expect(results.map((r) => r.success)).toEqual([true, true]);
    expect(await world.chain.lifecycle.marketStatus(a.duelId as `0x${string}`)).toBe('cancelled');
    expect(await world.chain.lifecycle.marketStatus(b.duelId as `0x${string}`)).toBe('cancelled');
    expect(cancellations.get(a.duelId)).toEqual({ reason: 'Duplicate markets', txHash: results[0]?.txHash });
  });

  it('checks the whole batch first: one settled market refuses it (INVALID_STATE) and nothing is sent', async () => {
    const { world, service } = setup();
    const creator = await world.user('creator');
    const open = await world.market(creator);
    const settled = await world.market(creator);
    settled.status = 'settled';
    await expect(
      service.discard(world.context(), admin, [open.duelId, settled.duelId], 'Cleanup'),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect(await world.chain.lifecycle.marketStatus(open.duelId as `0x${string}`)).toBe('open');
  });

  it('forgets the cancellation when the chain refuses it up front, and reports the refusal per market', async () => {
    const { world, service, cancellations } = setup();
    const creator = await world.user('creator');
    const duel = await world.market(creator, { endsIn: 3_600 });
    // Settled on chain (no contest period) while the read model still says open.
    world.clock.advance(3_600_000);
    await world.chain.lifecycle.resolve(creator.account, duel.duelId as `0x${string}`, 0);
    const { results } = await service.discard(world.context(), admin, [duel.duelId], 'Again');
    expect(results).toMatchObject([{ duelId: duel.duelId, success: false, code: 'INVALID_STATE' }]);
    expect(cancellations.has(duel.duelId)).toBe(false);
  });
});
