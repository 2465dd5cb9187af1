import { describe, expect, it } from 'vitest';
import { TournamentAdminLinkService } from './tournament-admin-link.service.js';
import type { CancellationService } from './tournament-cancellation.service.js';

/** The cancellation side as the link sees it: what it was asked, in order, and a scripted outage. */
class RecordingCancellations {
  readonly asked: unknown[][] = [];
  down: Error | undefined;

  private answer(call: unknown[]) {
    this.asked.push(call);
    return this.down ? Promise.reject(this.down) : Promise.resolve({ call });
  }
  requests = (filter: object, limit: number, offset: number) => this.answer(['requests', filter, limit, offset]);
  adminList = (filter: object, limit: number, offset: number) => this.answer(['adminList', filter, limit, offset]);
  cancel = (by: string, id: string, reason: string) => this.answer(['cancel', by, id, reason]);
  discard = (by: string, id: string, reason: string | undefined) => this.answer(['discard', by, id, reason]);
  reject = (by: string, requestId: string, reason: string) => this.answer(['reject', by, requestId, reason]);
}

function setup() {
  const cancellations = new RecordingCancellations();
  const link = new TournamentAdminLinkService(cancellations as unknown as CancellationService);
  return { cancellations, link };
}

describe('TournamentAdminLinkService', () => {
  it('decides cancels, discards and request rejections as the acting admin', async () => {
    const { cancellations, link } = setup();
    const admin = { adminId: 'adm-7' };
    await link.cancel(admin, 't1', 'no fixtures');
    await link.discard(admin, 't2', undefined);
    await link.rejectCancelRequest(admin, 'req-1', 'keep playing');
    expect(cancellations.asked).toEqual([
      ['cancel', 'admin:adm-7', 't1', 'no fixtures'],
      ['discard', 'admin:adm-7', 't2', undefined],
      ['reject', 'admin:adm-7', 'req-1', 'keep playing'],
    ]);
  });

  it('lists tournaments by the catalogue’s status words: active and live mean LIVE, none means every status', async () => {
    const { cancellations, link } = setup();
    await link.tournaments({ status: 'active', removable: true, limit: 10, offset: 0 });
    await link.tournaments({ status: 'LIVE', removable: false, limit: 10, offset: 0 });
    await link.tournaments({ status: 'Completed', removable: false, limit: 10, offset: 0 });
    await link.tournaments({ status: 'canceled', removable: false, limit: 10, offset: 0 });
    await link.tournaments({ removable: false, limit: 5, offset: 20 });
    expect(cancellations.asked.map((c) => c[1])).toEqual([
      { statuses: ['LIVE'], removable: true },
      { statuses: ['LIVE'], removable: false },
      { statuses: ['COMPLETED'], removable: false },
      { statuses: ['CANCELED'], removable: false },
      { removable: false },
    ]);
    expect(cancellations.asked.at(-1)?.slice(2)).toEqual([5, 20]);
  });

  it('filters cancel requests only on what the query names', async () => {
    const { cancellations, link } = setup();
    await link.cancelRequests({ limit: 50, offset: 0 });
    await link.cancelRequests({ status: 'OPEN', tournamentId: 't9', limit: 10, offset: 10 });
    expect(cancellations.asked).toEqual([
      ['requests', {}, 50, 0],
      ['requests', { status: 'OPEN', tournamentId: 't9' }, 10, 10],
    ]);
  });

  it('answers a ping by reading one request, and fails it when the tournaments side cannot answer', async () => {
    const { cancellations, link } = setup();
    await expect(link.ping()).resolves.toBeUndefined();
    expect(cancellations.asked).toEqual([['requests', {}, 1, 0]]);
    cancellations.down = new Error('database unavailable');
    await expect(link.ping()).rejects.toThrow('database unavailable');
  });
});
