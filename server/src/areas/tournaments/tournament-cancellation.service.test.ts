import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../logger.js';
import { memoryDistributionBook } from '../../../test/fakes/distribution-book.fake.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { T0, UNIT, actorOf, codeOf, errorOf } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { adminDecider, CancellationService } from './tournament-cancellation.service.js';
import { RefundService } from './tournament-refunds.service.js';

const creator = actorOf('a');
const alice = actorOf('b');
const bob = actorOf('c');
const stranger = actorOf('d');
const admin = adminDecider('adm-1');

function setup(status: 'LIVE' | 'COMPLETED' | 'CANCELED' = 'LIVE') {
  const world = new TournamentWorld();
  const clock = new ManualClock(T0);
  const { book, tables: rows } = memoryDistributionBook();
  const refunds = new RefundService(world.db, book, new PrizeVaultFake());
  const service = new CancellationService(world.db, refunds, clock, createLogger('silent'));
  const t = world.addTournament({ ownerWallet: creator.wallet, status });
  world.addEntry(t.id, creator, { isCreator: true, amount: 5n * UNIT });
  return { world, clock, service, t, distributions: rows };
}

describe('CancellationService', () => {
  it('lets the creator and each entrant ask once, and refuses anyone else with NOT_ENTERED', async () => {
    const { world, service, t } = setup();
    world.addEntry(t.id, alice);
    expect(await service.request(creator, t.id, 'rain')).toMatchObject({ role: 'creator', status: 'OPEN' });
    expect(await service.request(alice, t.id, 'no time')).toMatchObject({ role: 'entrant', wallet: alice.wallet });
    expect(await codeOf(service.request(stranger, t.id, 'why not'))).toBe('NOT_ENTERED');
    const e = await errorOf(service.request(alice, t.id, 'again'));
    expect(e.code).toBe('CANCEL_REQUEST_EXISTS');
    expect(e.details).toMatchObject({ requestId: world.tables.cancelRequests[1]?.id });
    expect(world.tables.cancelRequests).toHaveLength(2);
    expect(await service.requests({ tournamentId: t.id, status: 'OPEN' }, 10, 0)).toMatchObject({
      total: 2,
      requests: [{ role: 'creator' }, { role: 'entrant' }],
    });
  });

  it('refuses requests for a tournament that is not LIVE with INVALID_STATE, and an unknown one with NOT_FOUND', async () => {
    const done = setup('COMPLETED');
    expect(await codeOf(done.service.request(creator, done.t.id, 'late'))).toBe('INVALID_STATE');
    expect(await codeOf(done.service.request(creator, 'cd'.repeat(12), 'x'))).toBe('NOT_FOUND');
    expect(done.world.tables.cancelRequests).toEqual([]);
    const cancelled = setup('CANCELED');
    expect(await codeOf(cancelled.service.request(creator, cancelled.t.id, 'again'))).toBe('INVALID_STATE');
    expect(await cancelled.service.requestState(cancelled.t.id, creator.wallet)).toMatchObject({ canRequest: false });
  });

  it('shows whether a wallet may ask, with its latest request and the open count', async () => {
    const { world, service, t } = setup();
    world.addEntry(t.id, alice);
    expect(await service.requestState(t.id, alice.wallet)).toMatchObject({ canRequest: true, request: null });
    expect(await service.requestState(t.id, stranger.wallet)).toMatchObject({ canRequest: false });
    expect(await service.requestState(t.id, undefined)).toMatchObject({ canRequest: false, wallet: null });
    await service.request(alice, t.id, 'no time');
    expect(await service.requestState(t.id, alice.wallet)).toMatchObject({
      canRequest: false,
      openRequests: 1,
      request: { status: 'OPEN', reason: 'no time' },
    });
  });

  it('rejects an open request once, after which the requester may ask again', async () => {
    const { world, clock, service, t } = setup();
    world.addEntry(t.id, alice);
    const req = await service.request(alice, t.id, 'no time');
    clock.advance(60_000);
    const rejected = await service.reject(admin, req.id, 'not a reason');
    expect(rejected).toMatchObject({
      status: 'REJECTED',
      decidedBy: 'admin:adm-1',
      decisionReason: 'not a reason',
      decidedAt: new Date(T0 + 60_000).toISOString(),
    });
    expect(await codeOf(service.reject(admin, req.id, 'twice'))).toBe('INVALID_STATE');
    expect(await codeOf(service.reject(admin, 'missing', 'x'))).toBe('NOT_FOUND');
    expect(await service.requestState(t.id, alice.wallet)).toMatchObject({ canRequest: true, openRequests: 0 });
    expect(await service.request(alice, t.id, 'really no time')).toMatchObject({ status: 'OPEN' });
  });

  it('cancels a LIVE tournament, grants every open request and builds the refund of every deposit', async () => {
    const { world, clock, service, t } = setup();
    world.addEntry(t.id, alice, { amount: 5n * UNIT });
    world.addEntry(t.id, bob, { amount: 5n * UNIT });
    await service.request(alice, t.id, 'rain');
    await service.request(bob, t.id, 'rain');
    clock.advance(5 * 60_000);
    const res = await service.cancel(admin, t.id, 'venue closed');
    expect(res).toMatchObject({
      status: 'CANCELED',
      alreadyCancelled: false,
      acceptedRequests: 2,
      reason: 'venue closed',
      cancelledBy: 'admin:adm-1',
      cancelledAt: new Date(T0 + 5 * 60_000).toISOString(),
      refund: { total: (15n * UNIT).toString(), leafCount: 3, published: false },
    });
    expect(world.locks.at(-1)).toBe(t.id); // under the row lock entries and withdrawals take
    expect(world.tables.cancelRequests.map((r) => [r.status, r.decisionReason])).toEqual([
      ['ACCEPTED', 'Cancelled: venue closed'],
      ['ACCEPTED', 'Cancelled: venue closed'],
    ]);
  });

  it('answers a second cancellation as already cancelled with the same refund table', async () => {
    const { service, t, distributions } = setup();
    const first = await service.cancel(admin, t.id, 'venue closed');
    const again = await service.cancel('system:min-entries', t.id, 'other reason');
    expect(again).toMatchObject({
      alreadyCancelled: true,
      acceptedRequests: 0,
      reason: 'venue closed',
      cancelledBy: 'admin:adm-1',
    });
    expect(again.refund).toEqual(first.refund);
    expect(distributions.rows).toHaveLength(1);
  });

  it('builds a missing refund table on the next cancel call after a stop between the two steps', async () => {
    const { world, service, t, distributions } = setup('CANCELED');
    world.addEntry(t.id, alice, { amount: 5n * UNIT });
    const res = await service.cancel(admin, t.id, 'retry');
    expect(res).toMatchObject({ alreadyCancelled: true, refund: { total: (10n * UNIT).toString(), leafCount: 2 } });
    expect(distributions.rows).toHaveLength(1);
  });

  it('refuses to cancel a COMPLETED tournament with INVALID_STATE', async () => {
    const { world, service, t } = setup('COMPLETED');
    expect(await codeOf(service.cancel(admin, t.id, 'too late'))).toBe('INVALID_STATE');
    expect(world.tournament(t.id)?.status).toBe('COMPLETED');
  });

  it('refuses to discard a tournament others entered with TOURNAMENT_HAS_ENTRIES, changing nothing', async () => {
    const { world, service, t } = setup();
    world.addEntry(t.id, alice);
    const e = await errorOf(service.discard(admin, t.id, undefined));
    expect(e.code).toBe('TOURNAMENT_HAS_ENTRIES');
    expect(e.details).toMatchObject({ entries: 1 });
    expect(world.tournament(t.id)).toMatchObject({ status: 'LIVE', discardedAt: null });
  });

  it('discards a LIVE tournament only its creator entered by cancelling it, so the buy-in is refundable', async () => {
    const { world, service, t } = setup();
    const res = await service.discard(admin, t.id, undefined);
    expect(res).toMatchObject({
      status: 'CANCELED',
      alreadyDiscarded: false,
      discardedAt: new Date(T0).toISOString(),
      cancellation: { reason: 'Discarded by an admin', refund: { total: (5n * UNIT).toString(), leafCount: 1 } },
    });
    expect(await service.discard(admin, t.id, 'again')).toMatchObject({
      alreadyDiscarded: true,
      cancellation: { alreadyCancelled: true },
    });
    expect(world.tournament(t.id)?.cancelReason).toBe('Discarded by an admin');
  });

  it('discards a cancelled tournament without cancelling it again, and never a COMPLETED one', async () => {
    const cancelled = setup('CANCELED');
    expect(await cancelled.service.discard(admin, cancelled.t.id, 'cleanup')).toMatchObject({
      alreadyDiscarded: false,
      cancellation: { alreadyCancelled: true },
    });
    const done = setup('COMPLETED');
    expect(await codeOf(done.service.discard(admin, done.t.id, 'cleanup'))).toBe('INVALID_STATE');
    expect(done.world.tournament(done.t.id)?.discardedAt).toBeNull();
  });

  it('lists tournaments for the admins, marking as removable only those nobody but the creator entered', async () => {
    const { world, service, t } = setup();
    const other = world.addTournament({ id: 'cd'.repeat(12), ownerWallet: creator.wallet });
    world.addEntry(other.id, alice);
    const all = await service.adminList({}, 10, 0);
    expect(all.total).toBe(2);
    expect(all.tournaments.map((x) => [x.id, x.otherEntries, x.removable])).toEqual([
      [t.id, 0, true],
      [other.id, 1, false],
    ]);
    const removable = await service.adminList({ removable: true }, 10, 0);
    expect(removable.tournaments.map((x) => x.id)).toEqual([t.id]);
  });
});
