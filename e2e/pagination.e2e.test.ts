import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, signedInClient, startServer, until } from './support.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ DUEL_PUBLIC_LEAD_SECONDS: '60', INDEXER_INTERVAL_MS: '200', JOBS_ENABLED: 'true' });
}, 120_000);
afterAll(() => server?.stop());

describe('paginated lists through the SDK', () => {
  it('walks every page of a filtered market list, and awaiting gives one page', async () => {
    const { client } = await signedInClient(server, 'pg_alice');
    const category = 'PaginationE2E';
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { duelId } = await client.duels.create({
        body: {
          question: `Page question ${i}?`,
          category,
          startTime: new Date(Date.now() + 5 * 60_000).toISOString(),
          endTime: new Date(Date.now() + 60 * 60_000).toISOString(),
          collateralStack: 'credits',
        },
      });
      created.push(duelId);
    }
    for (const duelId of created) {
      await until(
        () => client.duels.getById({ params: { duelId }, query: {} }),
        (d) => d.chainState === 'confirmed',
      );
    }

    const walked: string[] = [];
    for await (const duel of client.duels.publicAll({ query: { category, limit: 2 } })) walked.push(duel.duelId);
    expect([...walked].sort()).toEqual([...created].sort());

    const first = await client.duels.publicAll({ query: { category, limit: 2 } });
    expect(first.data).toHaveLength(2);
    expect(first.pagination).toMatchObject({ page: 1, total: 3, hasMore: true });

    const pageSizes: number[] = [];
    for await (const page of client.duels.publicAll({ query: { category, limit: 2 } }).pages()) {
      pageSizes.push(page.data.length);
    }
    expect(pageSizes).toEqual([2, 1]);
  }, 90_000);
});
