import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDuels, newDuelId, type DuelFixture } from '../../../test/support/duel-fixture.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';

interface ListBody {
  data: { duelId: string }[];
  pagination: { page: number; limit: number; total: number; hasMore: boolean };
  nextCursor: string | null;
  code?: string;
}

let server: TestServer;
const base = Date.UTC(2026, 5, 1);
const minute = 60_000;

async function list(query: string): Promise<{ status: number; body: ListBody }> {
  const res = await fetch(`${server.marketsUrl}/svc/public/duels/all?${query}`, {
    headers: { 'x-builder-api-key': server.builderKey },
  });
  return { status: res.status, body: (await res.json()) as ListBody };
}

async function insert(fixtures: DuelFixture[]): Promise<void> {
  await insertDuels(server.container.orm.em.fork().getConnection(), fixtures);
}

/** Every duelId of a list, walked page by page with `cursor` from the first page on. */
async function walkByCursor(query: string): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const { status, body }: { status: number; body: ListBody } = await list(
      cursor ? `${query}&cursor=${cursor}` : query,
    );
    expect(status).toBe(200);
    ids.push(...body.data.map((d) => d.duelId));
    pages.push(body.pagination.page);
    cursor = body.nextCursor;
    expect(body.pagination.hasMore).toBe(cursor !== null);
  } while (cursor);
  return { ids, pages };
}

async function walkByPage(query: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { body } = await list(`${query}&page=${page}`);
    ids.push(...body.data.map((d) => d.duelId));
    if (!body.pagination.hasMore) return ids;
  }
}

beforeAll(async () => {
  // No list cache: every page is read from the table, so inserts show at once.
  server = await startTestServer({ DUEL_LIST_CACHE_MS: '0' });
  // 23 public duels, some sharing a creation time (ties broken by id), a few canonical with a
  // volume (two without), and private ones that never show.
  await insert(
    Array.from({ length: 27 }, (_, i) => ({
      duelId: newDuelId(),
      isPrivate: i % 7 === 6,
      createdAt: new Date(base - Math.floor(i / 3) * minute),
      startTime: new Date(base + (i % 5) * minute),
      endTime: new Date(base + (i + 10) * minute),
      isCanonical: i % 4 === 0,
      extVolume24h: i % 4 === 0 ? (i % 8 === 0 ? null : String(1000 + (i % 3))) : null,
    })),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the public duel list by cursor', () => {
  for (const sortBy of ['createdAt', 'startTime', 'endTime', 'extMarketVolume24h']) {
    for (const sortOrder of ['desc', 'asc']) {
      it(`walks the same rows as page numbers, sorted by ${sortBy} ${sortOrder}`, async () => {
        const query = `limit=4&sortBy=${sortBy}&sortOrder=${sortOrder}`;
        const byPage = await walkByPage(query);
        const { ids, pages } = await walkByCursor(query);
        expect(ids).toEqual(byPage);
        expect(new Set(ids).size).toBe(ids.length);
        expect(pages).toEqual(pages.map((_, i) => i + 1));
      });
    }
  }

  it('neither repeats nor skips a row when duels are added between pages', async () => {
    const first = await list('limit=5');
    const before = await walkByPage('limit=5');
    // Newer duels land on the first page: page numbers would now repeat rows, a cursor does not.
    await insert([
      { duelId: newDuelId(), createdAt: new Date(base + 5 * minute) },
      { duelId: newDuelId(), createdAt: new Date(base + 6 * minute) },
    ]);
    const ids = [...first.body.data.map((d) => d.duelId)];
    let cursor = first.body.nextCursor;
    while (cursor) {
      const { body } = await list(`limit=5&cursor=${cursor}`);
      ids.push(...body.data.map((d) => d.duelId));
      cursor = body.nextCursor;
    }
    expect(ids).toEqual(before);
    const secondByPage = await list('limit=5&page=2');
    expect(secondByPage.body.data.map((d) => d.duelId)).not.toEqual(before.slice(5, 10));
  });

  it('refuses a cursor it did not issue, or one issued for another sort, with 400 CURSOR_INVALID', async () => {
    const { body } = await list('limit=3&sortBy=startTime');
    const issued = body.nextCursor as string;
    expect(issued).toMatch(/^[A-Za-z0-9_-]+$/);
    const forged = Buffer.from(
      JSON.stringify([1, 0, 0, "1' or 1=1", '00000000-0000-0000-0000-000000000000', 2]),
    ).toString('base64url');
    for (const query of [
      `limit=3&sortBy=createdAt&cursor=${issued}`,
      `limit=3&sortBy=startTime&sortOrder=asc&cursor=${issued}`,
      `limit=3&cursor=${forged}`,
      'limit=3&cursor=bm90LWpzb24',
    ]) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('CURSOR_INVALID');
    }
    const malformed = await list('limit=3&cursor=not%20base64!');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_FAILED');
  });
});
