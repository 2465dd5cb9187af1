import { PACK_MAX_MARKETS } from '@duelkit/contract';
import { keccak256, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { HOUR, PLATFORM, PackWorld, UNIT } from '../../../test/fakes/pack-world.js';
import { DomainError } from '../../errors.js';
import { packPoolId, type PackActor } from './pack.service.js';

const admin: PackActor = { kind: 'admin' };

function setup() {
  const w = new PackWorld();
  const alice = w.user('alice');
  const bob = w.user('bob');
  const creator = (u: typeof alice): PackActor => ({ kind: 'creator', creator: u });
  return { w, alice, bob, creator };
}

function input(w: PackWorld, over: { lockIn?: number; feeBps?: number } = {}) {
  return {
    title: 'Weekend pack',
    category: 'Football',
    collateralStack: 'credits' as const,
    entryFee: (10n * UNIT).toString(),
    lockAt: new Date(w.clock.now() + (over.lockIn ?? 24 * HOUR)).toISOString(),
    ...(over.feeBps === undefined ? {} : { feeBps: over.feeBps }),
  };
}

interface Refusal {
  code: string;
  details?: Record<string, unknown> | undefined;
  fieldErrors?: Record<string, string[]> | undefined;
  retryAfterMs?: number | undefined;
}

const refusal = (p: Promise<unknown>): Promise<Refusal> =>
  p.then(
    () => ({ code: 'ok' }),
    (e: unknown) =>
      e instanceof DomainError
        ? { code: e.code, details: e.details, fieldErrors: e.fieldErrors, retryAfterMs: e.retryAfterMs }
        : { code: String(e) },
  );

describe('PackService', () => {
  it('creates a draft on its own vault pool; a creator pack takes the platform fee, an admin pack may set its own', async () => {
    const { w, alice, creator } = setup();
    const mine = await w.packs.create(creator(alice), 'app-1', input(w, { feeBps: 0 }));
    expect(mine).toMatchObject({
      status: 'draft',
      createdBy: 'creator',
      creatorAddress: alice.address,
      feeBps: 500,
      entryFee: (10n * UNIT).toString(),
      poolId: packPoolId(mine.id),
    });
    expect(packPoolId(mine.id)).toBe(keccak256(toHex(`duelkit:pack:${mine.id}`)));
    const platform = await w.packs.create(admin, 'app-1', input(w, { feeBps: 1500 }));
    expect(platform).toMatchObject({ createdBy: 'admin', creatorAddress: PLATFORM, feeBps: 1500 });
    expect((await w.packs.create(admin, 'app-1', input(w))).feeBps).toBe(500);
  });

  it('refuses a lockAt that is not in the future with VALIDATION_FAILED on body.lockAt', async () => {
    const { w } = setup();
    const res = await refusal(w.packs.create(admin, 'app-1', input(w, { lockIn: 0 })));
    expect(res).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: { 'body.lockAt': ['must be in the future'] } });
    expect(w.repo.packs.size).toBe(0);
  });

  it('adds a new market created through the parent, pending on chain until confirmed', async () => {
    const { w, alice, creator } = setup();
    const pack = await w.packs.create(creator(alice), 'app-1', input(w));
    const now = w.clock.now();
    const res = await w.packs.addMarket(w.context(), creator(alice), pack.id, {
      source: 'new',
      market: {
        question: 'Derby?',
        startTime: new Date(now).toISOString(),
        endTime: new Date(now + 30 * HOUR).toISOString(),
      },
    });
    expect(res.market).toMatchObject({ question: 'Derby?', status: 'pending', chainState: 'pending' });
    expect(res.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await w.packs.get(pack.id, alice.address)).marketCount).toBe(1);
  });

  it('refuses a new market that ends before the pack locks', async () => {
    const { w, alice, creator } = setup();
    const pack = await w.packs.create(creator(alice), 'app-1', input(w));
    const now = w.clock.now();
    const res = await refusal(
      w.packs.addMarket(w.context(), creator(alice), pack.id, {
        source: 'new',
        market: {
          question: 'Early?',
          startTime: new Date(now).toISOString(),
          endTime: new Date(now + HOUR).toISOString(),
        },
      }),
    );
    expect(res.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(res.fieldErrors ?? {})).toEqual(['body.market.endTime']);
    expect(w.duels.size).toBe(0);
  });

  it('attaches only the creator’s own open public markets of the app that trade past the lock', async () => {
    const { w, alice, bob, creator } = setup();
    const pack = await w.packs.create(creator(alice), 'app-1', input(w));
    const add = (marketId: string) =>
      refusal(w.packs.addMarket(w.context(), creator(alice), pack.id, { source: 'existing', marketId }));
    const own = { creatorUserId: alice.userId };
    expect((await add(w.market({ creatorUserId: bob.userId }).duelId)).code).toBe('FORBIDDEN');
    expect((await add(w.market({ ...own, builderAppId: 'app-2' }).duelId)).code).toBe('NOT_FOUND');
    expect((await add(w.market({ ...own, isPrivate: true }).duelId)).code).toBe('INVALID_STATE');
    expect((await add(w.market({ ...own, endsIn: 2 * HOUR }).duelId)).code).toBe('INVALID_STATE');
    expect((await add(w.market({ ...own, status: 'settled' }).duelId)).code).toBe('INVALID_STATE');
    const good = w.market(own);
    expect(await add(good.duelId)).toEqual({ code: 'ok' });
    expect(good.parentMarketId).toBe(pack.id);
    expect(w.repo.marketRows.map((m) => m.duelId)).toEqual([good.duelId.toLowerCase()]);
  });

  it('lets only the pack’s creator or an admin change a draft, and only while it is a draft', async () => {
    const { w, alice, bob, creator } = setup();
    const pack = await w.packs.create(creator(alice), 'app-1', input(w));
    const market = w.market();
    const body = { source: 'existing' as const, marketId: market.duelId };
    expect((await refusal(w.packs.addMarket(w.context(), creator(bob), pack.id, body))).code).toBe('FORBIDDEN');
    expect((await refusal(w.packs.publish(creator(bob), pack.id))).code).toBe('FORBIDDEN');
    expect(await refusal(w.packs.addMarket(w.context(), admin, pack.id, body))).toEqual({ code: 'ok' });
    await w.packs.publish(admin, pack.id);
    expect(
      await refusal(w.packs.addMarket(w.context(), admin, pack.id, { ...body, marketId: w.market().duelId })),
    ).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'published', allowedFrom: ['draft'] },
    });
  });

  it(`refuses a market beyond the ${PACK_MAX_MARKETS} a pack bundles`, async () => {
    const { w } = setup();
    const row = w.pack({ status: 'draft', markets: Array.from({ length: PACK_MAX_MARKETS }, () => w.market()) });
    const res = await refusal(
      w.packs.addMarket(w.context(), admin, row.id, { source: 'existing', marketId: w.market().duelId }),
    );
    expect(res).toMatchObject({ code: 'VALIDATION_FAILED', details: { marketCount: PACK_MAX_MARKETS } });
  });

  it('publishes a draft whose markets are all confirmed and open past the lock', async () => {
    const { w } = setup();
    const row = w.pack({ status: 'draft', markets: [w.market(), w.market()] });
    const dto = await w.packs.publish(admin, row.id);
    expect(dto).toMatchObject({
      status: 'published',
      publishedAt: new Date(w.clock.now()).toISOString(),
      marketCount: 2,
    });
    expect((await refusal(w.packs.publish(admin, row.id))).code).toBe('INVALID_STATE');
  });

  it('refuses to publish an empty pack, one past its lockAt, or one whose markets are unconfirmed or closed', async () => {
    const { w } = setup();
    expect((await refusal(w.packs.publish(admin, w.pack({ status: 'draft' }).id))).code).toBe('INVALID_STATE');

    const pending = w.market({ chainState: 'pending' });
    const res = await refusal(w.packs.publish(admin, w.pack({ status: 'draft', markets: [pending, w.market()] }).id));
    expect(res).toMatchObject({
      code: 'INVALID_STATE',
      retryAfterMs: 2_000,
      details: { pendingMarkets: [pending.duelId] },
    });

    const ending = w.market({ endsIn: 30 * HOUR });
    const late = w.pack({ status: 'draft', markets: [ending] });
    w.clock.advance(30 * HOUR - 1);
    expect((await refusal(w.packs.publish(admin, late.id))).code).toBe('INVALID_STATE');
    expect(w.repo.packs.get(late.id)?.status).toBe('draft');

    const closing = w.pack({ status: 'draft', markets: [w.market({ endsIn: HOUR })], lockIn: 2 * HOUR });
    expect((await refusal(w.packs.publish(admin, closing.id))).code).toBe('INVALID_STATE');
  });

  it('shows a draft only to its creator, and leaves out markets whose creation failed on chain', async () => {
    const { w, alice, bob, creator } = setup();
    const pack = await w.packs.create(creator(alice), 'app-1', input(w));
    expect((await refusal(w.packs.get(pack.id, bob.address))).code).toBe('NOT_FOUND');
    expect((await refusal(w.packs.get(pack.id, undefined))).code).toBe('NOT_FOUND');
    expect((await w.packs.get(pack.id, alice.address.toLowerCase())).id).toBe(pack.id);

    const failed = w.market({ chainState: 'failed' });
    const ok = w.market();
    const row = w.pack({ markets: [failed, ok] });
    expect((await w.packs.get(row.id, undefined)).markets.map((m) => m.marketId)).toEqual([ok.duelId]);
    expect((await refusal(w.packs.market(row.id, failed.duelId))).code).toBe('NOT_FOUND');
  });

  it('charts the markets’ price series in pack order, and nothing for a draft', async () => {
    const { w } = setup();
    const [a, b] = [w.market(), w.market()];
    const row = w.pack({ markets: [a, b] });
    const series = (duelId: string) => ({ duelId, options: [] }) as never;
    w.history.parentHistory = () =>
      Promise.resolve({ bucketSeconds: 300, series: [series(b.duelId), series('0xother'), series(a.duelId)] });
    const chart = await w.packs.priceHistory(row.id, { timeRange: '1D', limit: 100 });
    expect(chart.bucketSeconds).toBe(300);
    expect(chart.series.map((s) => s.duelId)).toEqual([a.duelId, b.duelId]);
    const empty = await w.packs.priceHistory(w.pack().id, { timeRange: '1D', limit: 100 });
    expect(empty).toMatchObject({ bucketSeconds: 60, series: [] });
    expect(
      (await refusal(w.packs.priceHistory(w.pack({ status: 'draft' }).id, { timeRange: '1D', limit: 1 }))).code,
    ).toBe('NOT_FOUND');
  });

  it('lists published packs by page, never drafts', async () => {
    const { w } = setup();
    w.pack({ status: 'draft' });
    for (let i = 0; i < 3; i++) w.pack();
    w.pack({ status: 'cancelled' });
    const first = await w.packs.list({ page: 1, limit: 2, status: 'published' });
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 3, hasMore: true });
    expect(first.data.every((p) => p.vaultAddress === w.vault.address('credits'))).toBe(true);
    expect((await w.packs.list({ page: 1, limit: 10 })).pagination.total).toBe(4);
  });
});
