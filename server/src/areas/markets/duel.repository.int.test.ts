import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { entities } from '../../entities.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { insertDuels } from '../../../test/support/duel-fixture.js';
import { DuelRepository, type DuelListFilter } from './duel.repository.js';

let db: TestDatabase;
let orm: Orm;
let repo: DuelRepository;

const base: DuelListFilter = { includePrivate: false, sortBy: 'createdAt', sortOrder: 'desc' };

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 2, false);
  repo = new DuelRepository(orm);
  const now = Date.now();
  const minute = 60_000;
  const hour = 60 * minute;
  await insertDuels(
    orm.em.fork().getConnection(),
    Array.from({ length: 30 }, (_, i) => ({
      duelId: `0x${i.toString(16).padStart(64, '0')}`,
      question: `Question ${i}`,
      category: i % 2 ? 'Football' : 'Cricket',
      collateralStack: i % 3 ? ('credits' as const) : ('usdc' as const),
      isPrivate: i % 5 === 0,
      startTime: new Date(now + (i + 1) * hour),
      endTime: new Date(now + (i + 2) * hour),
      createdAt: new Date(now - i * minute),
      status: i % 4 ? ('open' as const) : ('settled' as const),
      poolBalances: ['1', '1'],
      isCanonical: i % 6 === 0,
      extVolume24h: i % 6 === 0 ? String(1000 - i) : null,
    })),
  );
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('DuelRepository', () => {
  it('pages public duels newest first and never lists private ones', async () => {
    const page1 = await repo.page({ ...base, page: 1, limit: 10 });
    const page3 = await repo.page({ ...base, page: 3, limit: 10 });
    expect(page1).toHaveLength(10);
    expect(page1.every((d) => !d.isPrivate)).toBe(true);
    expect(await repo.count(base)).toBe(24);
    expect(page3).toHaveLength(4);
    const times = page1.map((d) => new Date(d.createdAt).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(await repo.count({ ...base, includePrivate: true })).toBe(30);
  });

  it('filters by category, collateral and status and sorts by a whitelisted key', async () => {
    const rows = await repo.page({
      ...base,
      category: 'Football',
      collateralStack: 'credits',
      status: 'open',
      page: 1,
      limit: 100,
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((d) => d.category === 'Football' && d.collateralStack === 'credits' && d.status === 'open')).toBe(
      true,
    );
    const byStart = await repo.page({ ...base, sortBy: 'startTime', sortOrder: 'asc', page: 1, limit: 5 });
    const starts = byStart.map((d) => new Date(d.startTime).getTime());
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  it('ranks canonical duels by paired external volume', async () => {
    const rows = await repo.page({ ...base, includePrivate: true, sortBy: 'extMarketVolume24h', page: 1, limit: 10 });
    expect(rows.every((d) => d.isCanonical)).toBe(true);
    expect(rows.map((d) => d.extVolume24h)).toEqual(['1000', '994', '988', '982', '976']);
  });

  it('finds by on-chain duelId and tells a database id apart', async () => {
    const [first] = await repo.page({ ...base, page: 1, limit: 1 });
    expect((await repo.byDuelId(first!.duelId))?.id).toBe(first!.id);
    expect(await repo.byDuelId(first!.id)).toBeNull();
    expect(await repo.existsByRowId(first!.id)).toBe(true);
  });

  it('lists canonical credits duels by mode and lets an operator pair or unpair one', async () => {
    const now = new Date();
    const all = await repo.canonical('all', 100, now);
    expect(
      all.every((d) => d.isCanonical && d.collateralStack === 'credits' && !d.isPrivate && d.status === 'open'),
    ).toBe(true);
    const volumes = all.map((d) => BigInt(d.extVolume24h ?? '0'));
    expect([...volumes].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(volumes);
    // Every fixture starts in the future and none is flagged live: nothing is live yet.
    expect(await repo.canonical('live', 100, now)).toEqual([]);
    expect((await repo.canonical('upcoming', 100, now)).length).toBe(all.length);

    const [plain] = await repo.page({ ...base, collateralStack: 'credits', page: 1, limit: 1 });
    expect(await repo.markCanonical(plain!.duelId, { extMarketId: 'ext-1', volume24h: 10n ** 30n, live: true })).toBe(
      'ok',
    );
    const paired = await repo.canonical('live', 5, now);
    expect(paired.map((d) => d.duelId)).toContain(plain!.duelId);
    expect(paired[0]?.extVolume24h).toBe((10n ** 30n).toString());
    expect(await repo.markCanonical(plain!.duelId, null)).toBe('ok');
    expect((await repo.byDuelId(plain!.duelId))?.isCanonical).toBe(false);
    const [usdc] = await repo.page({ ...base, collateralStack: 'usdc', page: 1, limit: 1 });
    expect(await repo.markCanonical(usdc!.duelId, { extMarketId: 'x', volume24h: 1n, live: false })).toBe(
      'not_credits',
    );
    expect(await repo.markCanonical(`0x${'f'.repeat(64)}`, null)).toBe('not_found');
  });
});
