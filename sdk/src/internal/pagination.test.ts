import { initContract } from '@ts-rest/core';
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { marketsContract } from '@duelkit/contract';
import { ADDRESS, client, DUEL_ID, KEY, M, mockService } from '../../test/mock-service.js';
import { leveled } from '../core/logger.js';
import { bindRouter } from './bind.js';
import { nextPageArgs, paginationOf } from './pagination.js';
import { Transport } from './transport.js';

const server = mockService();

const membership = (n: number) => ({
  duelId: `0x${n.toString(16).padStart(64, '0')}`,
  userAddress: ADDRESS,
  via: 'invite',
  joinedAt: '2026-11-22T12:00:00.000Z',
  txHash: null,
  chainState: 'confirmed',
});

/** Serves `total` memberships in pages of the requested size, recording each page asked for. */
function membershipPages(total: number) {
  const asked: number[] = [];
  server.use(
    http.get(`${M}/svc/user/duel-invitations/memberships/:address`, ({ request }) => {
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page') ?? '1');
      const limit = Number(url.searchParams.get('limit') ?? '20');
      asked.push(page);
      const from = (page - 1) * limit;
      const data = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => membership(from + i));
      return HttpResponse.json({ data, pagination: { page, limit, total, hasMore: from + data.length < total } });
    }),
  );
  return asked;
}

describe('page/limit iteration', () => {
  it('walks every item of every page and stops at the last', async () => {
    const asked = membershipPages(5);
    const seen: string[] = [];
    for await (const m of client().invitations.memberships({ params: { userAddress: ADDRESS }, query: { limit: 2 } })) {
      seen.push(m.duelId);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4].map((n) => membership(n).duelId));
    expect(asked).toEqual([1, 2, 3]);
  });

  it('still answers one page when awaited', async () => {
    const asked = membershipPages(5);
    const page = await client().invitations.memberships({
      params: { userAddress: ADDRESS },
      query: { page: 2, limit: 2 },
    });
    expect(page.data).toHaveLength(2);
    expect(page.pagination.page).toBe(2);
    expect(asked).toEqual([2]);
  });

  it('gives whole pages from the one asked for', async () => {
    membershipPages(5);
    const sizes: number[] = [];
    const call = client().invitations.memberships({ params: { userAddress: ADDRESS }, query: { page: 2, limit: 2 } });
    for await (const page of call.pages()) sizes.push(page.data.length);
    expect(sizes).toEqual([2, 1]);
  });

  it('pages a POST whose paging parameters are in the body', async () => {
    const t = '2026-11-22T12:00:00.000Z';
    const row = (n: number) => ({
      duelId: membership(n).duelId,
      question: `Question ${n}?`,
      category: 'Weather',
      options: ['YES', 'NO'],
      collateralStack: 'credits',
      isPrivate: false,
      status: 'open',
      winningOptionIndex: null,
      startTime: t,
      endTime: t,
      createdAt: t,
      volume: '0',
      trades: 0,
      traders: 0,
      feesGenerated: '0',
    });
    const bodies: { page?: number; limit?: number; userAddress?: string }[] = [];
    server.use(
      http.post(`${M}/svc/user/portfolio/duels`, async ({ request }) => {
        const body = (await request.json()) as { page?: number; limit?: number };
        bodies.push(body);
        const page = body.page ?? 1;
        const data = page === 1 ? [row(0), row(1)] : [row(2)];
        return HttpResponse.json({ data, pagination: { page, limit: 2, total: 3, hasMore: page === 1 } });
      }),
    );
    const questions: string[] = [];
    for await (const r of client().portfolio.duels(
      { body: { userAddress: ADDRESS, limit: 2 } },
      { accessToken: 't' },
    )) {
      questions.push(r.question);
    }
    expect(questions).toEqual(['Question 0?', 'Question 1?', 'Question 2?']);
    expect(bodies).toEqual([
      { userAddress: ADDRESS, limit: 2 },
      { userAddress: ADDRESS, limit: 2, page: 2 },
    ]);
  });
});

describe('limit/offset iteration', () => {
  const c = initContract();
  const contract = c.router({
    list: {
      method: 'GET',
      path: '/things',
      query: z.object({ limit: z.coerce.number().default(2), offset: z.coerce.number().default(0) }),
      responses: { 200: z.object({ things: z.array(z.object({ n: z.number() })), total: z.number() }) },
      metadata: { auth: 'public', section: '0', tag: 't', idempotent: false },
    },
  });

  it('advances the offset by what each page held until the total is reached', async () => {
    const offsets: number[] = [];
    server.use(
      http.get(`${M}/things`, ({ request }) => {
        const offset = Number(new URL(request.url).searchParams.get('offset') ?? '0');
        offsets.push(offset);
        const things = [offset, offset + 1].filter((n) => n < 5).map((n) => ({ n }));
        return HttpResponse.json({ things, total: 5 });
      }),
    );
    const transport = new Transport({
      fetch: globalThis.fetch.bind(globalThis),
      builderApiKey: KEY,
      maxRetries: 0,
      timeoutMs: 5_000,
      totalTimeoutMs: 5_000,
      maxRetryAfterMs: 0,
      logger: leveled(undefined, 'off'),
      userAgent: undefined,
      headers: {},
      adminToken: undefined,
      tokens: undefined,
    });
    const bound = bindRouter(transport, M, contract) as {
      list: (args: object) => AsyncIterable<{ n: number }>;
    };
    const seen: number[] = [];
    for await (const thing of bound.list({ query: { limit: 2 } })) seen.push(thing.n);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(offsets).toEqual([0, 2, 4]);
  });
});

describe('paginationOf', () => {
  it('finds the paging style, where it goes and the items field from the contract', () => {
    expect(paginationOf(marketsContract.duels.publicAll)).toEqual({ style: 'page', location: 'query', items: 'data' });
    expect(paginationOf(marketsContract.portfolio.historyTable)).toEqual({
      style: 'page',
      location: 'body',
      items: 'data',
    });
    expect(paginationOf(marketsContract.duels.canonical)).toBeUndefined();
    expect(paginationOf(marketsContract.priceHistory.duel)).toBeUndefined();
    expect(paginationOf(marketsContract.duels.getById)).toBeUndefined();
  });
});

describe('nextPageArgs', () => {
  const page = { style: 'page', location: 'query', items: 'data' } as const;

  it('stops on an empty page, on hasMore false, and on a short page when hasMore is absent', () => {
    const args = { query: { page: 1, limit: 2 } };
    expect(nextPageArgs(page, args, { data: [] })).toBeUndefined();
    expect(nextPageArgs(page, args, { data: [1, 2], pagination: { page: 1, hasMore: false } })).toBeUndefined();
    expect(nextPageArgs(page, args, { data: [1] })).toBeUndefined();
    expect(nextPageArgs(page, args, { data: [1, 2], pagination: { page: 1, limit: 2, total: 2 } })).toBeUndefined();
  });

  it('asks for the next page, keeping the other parameters', () => {
    const args = { params: { duelId: DUEL_ID }, query: { limit: 2, status: 'open' } };
    expect(nextPageArgs(page, args, { data: [1, 2] })).toEqual({
      params: { duelId: DUEL_ID },
      query: { limit: 2, status: 'open', page: 2 },
    });
  });
});
