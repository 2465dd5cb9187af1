import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import type { ReferralsRepository } from './referrals.repository.js';
import { ReferralsService } from './referrals.service.js';

const REFERRER = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const BOB = '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const totals = { referees: '3', invitations_created: '4', invitation_uses: '5', invite_volume: '1200' };

function setup() {
  const repo = repositoryMock<ReferralsRepository>();
  return { repo, service: new ReferralsService(repo) };
}

describe('ReferralsService', () => {
  it('shapes a referrer’s referees: checksummed, counts as numbers, ISO times, paged by the totals', async () => {
    const { repo, service } = setup();
    repo.referees.mockImplementation((_a, _s, limit, offset) =>
      Promise.resolve(
        offset === 0 && limit === 2
          ? [
              {
                address: BOB,
                invitations: '2',
                duels: '1',
                volume: '700',
                first_joined_at: new Date(Date.UTC(2026, 4, 1)),
              },
              {
                address: REFERRER,
                invitations: '1',
                duels: '3',
                volume: '500',
                first_joined_at: new Date(Date.UTC(2026, 4, 2)),
              },
            ]
          : [
              {
                address: BOB,
                invitations: '1',
                duels: '0',
                volume: '0',
                first_joined_at: new Date(Date.UTC(2026, 4, 3)),
              },
            ],
      ),
    );
    repo.totals.mockResolvedValue(totals);

    const page = await service.ofReferrer(REFERRER, { page: 1, limit: 2 });

    expect(page).toEqual({
      referrer: getAddress(REFERRER),
      collateralStack: null,
      totals: { referees: 3, invitationsCreated: 4, invitationUses: 5, inviteVolume: '1200' },
      data: [
        {
          address: getAddress(BOB),
          invitations: 2,
          duels: 1,
          volume: '700',
          firstJoinedAt: '2026-05-01T00:00:00.000Z',
        },
        {
          address: getAddress(REFERRER),
          invitations: 1,
          duels: 3,
          volume: '500',
          firstJoinedAt: '2026-05-02T00:00:00.000Z',
        },
      ],
      pagination: { page: 1, limit: 2, total: 3, hasMore: true },
    });
    const last = await service.ofReferrer(REFERRER, { page: 2, limit: 2, collateralStack: 'usdc' });
    expect(last).toMatchObject({
      collateralStack: 'usdc',
      data: [{ address: getAddress(BOB), duels: 0 }],
      pagination: { page: 2, total: 3, hasMore: false },
    });
  });

  it('lists referrers with their totals', async () => {
    const { repo, service } = setup();
    repo.referrers.mockResolvedValue({ rows: [{ referrer: REFERRER, ...totals }], total: 1 });

    expect(await service.referrers({ page: 1, limit: 10 })).toEqual({
      data: [
        { referrer: getAddress(REFERRER), referees: 3, invitationsCreated: 4, invitationUses: 5, inviteVolume: '1200' },
      ],
      pagination: { page: 1, limit: 10, total: 1, hasMore: false },
    });
  });

  it('summarises the whole platform per collateral', async () => {
    const { repo, service } = setup();
    repo.summary.mockResolvedValue({ ...totals, referrers: '2' });

    expect(await service.summary({ collateralStack: 'credits' })).toEqual({
      collateralStack: 'credits',
      referrers: 2,
      referees: 3,
      invitationsCreated: 4,
      invitationUses: 5,
      inviteVolume: '1200',
    });
  });

  it('shapes a creator’s markets and pages them by the number of markets', async () => {
    const { repo, service } = setup();
    repo.createdMarkets.mockResolvedValue([
      {
        duel_id: '0x01',
        question: 'Will it rain?',
        status: 'open',
        collateral_stack: 'credits',
        is_private: true,
        volume: '900',
        participants: '4',
        created_at: new Date(Date.UTC(2026, 4, 3)),
      },
    ]);
    repo.creationTotals.mockResolvedValue({
      markets: '2',
      open: '1',
      settled: '1',
      cancelled: '0',
      private: '1',
      volume: '1500',
      invitations_created: '6',
    });

    const result = await service.marketCreation(REFERRER, { page: 1, limit: 1 });

    expect(result).toEqual({
      address: getAddress(REFERRER),
      collateralStack: null,
      totals: { markets: 2, open: 1, settled: 1, cancelled: 0, private: 1, volume: '1500', invitationsCreated: 6 },
      data: [
        {
          duelId: '0x01',
          question: 'Will it rain?',
          status: 'open',
          collateralStack: 'credits',
          isPrivate: true,
          volume: '900',
          participants: 4,
          createdAt: '2026-05-03T00:00:00.000Z',
        },
      ],
      pagination: { page: 1, limit: 1, total: 2, hasMore: true },
    });
  });
});
