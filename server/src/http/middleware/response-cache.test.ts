import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type { Request, Response } from 'express';
import { EventEmitter } from 'node:events';
import { marketsContract } from '@duelkit/contract';
import { earlyCacheHit, responseCache, ResponseCache, type SharedAnswerStore } from './response-cache.js';

/** A shared store in memory, standing in for Redis between two instances. */
function memoryStore(): SharedAnswerStore & { entries: Map<string, { body: unknown; fetchedAt: number }> } {
  const entries = new Map<string, { body: unknown; fetchedAt: number }>();
  return {
    entries,
    get: (key) => Promise.resolve(entries.get(key) ?? null),
    set: (key, entry) => {
      entries.set(key, { body: entry.body, fetchedAt: entry.fetchedAt });
      return Promise.resolve();
    },
  };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('ResponseCache', () => {
  it('serves an answer one instance stored to another through the shared store, within the window only', async () => {
    const clock = new ManualClock();
    const store = memoryStore();
    const a = new ResponseCache(2_000, clock, store);
    const b = new ResponseCache(2_000, clock, store);
    a.set('/list?page=1', '{"n":1}', a.currentGeneration, clock.now());
    await flush();
    clock.advance(1_500);
    expect(b.get('/list?page=1')).toBeUndefined();
    expect(await b.getShared('/list?page=1')).toBe('{"n":1}');
    // Now in b's memory too, with the age it had in the store: it expires when a's does.
    expect(b.get('/list?page=1')).toBe('{"n":1}');
    clock.advance(500);
    expect(a.get('/list?page=1')).toBeUndefined();
    expect(b.get('/list?page=1')).toBeUndefined();
    expect(await b.getShared('/list?page=1')).toBeUndefined();
  });

  it('ages an answer from when its data was read, not from when it was stored', () => {
    const clock = new ManualClock();
    const cache = new ResponseCache(2_000, clock);
    const readAt = clock.now();
    clock.advance(1_900);
    cache.set('/list', 'slow', cache.currentGeneration, readAt);
    clock.advance(100);
    expect(cache.get('/list')).toBeUndefined();
  });

  it('after its own write, ignores shared answers read before it and keeps none computed across it', async () => {
    const clock = new ManualClock();
    const store = memoryStore();
    const a = new ResponseCache(60_000, clock, store);
    const b = new ResponseCache(60_000, clock, store);
    b.set('/list', 'before the write', b.currentGeneration, clock.now());
    await flush();
    const generation = a.currentGeneration;
    clock.advance(10);
    a.invalidate();
    expect(await a.getShared('/list')).toBeUndefined();
    // A page whose read started before the write is not kept.
    a.set('/list', 'read across the write', generation, clock.now());
    expect(a.get('/list')).toBeUndefined();
    // Other instances keep serving theirs until the window ends.
    expect(await b.getShared('/list')).toBe('before the write');
  });

  it('reads a store that fails as a miss', async () => {
    const clock = new ManualClock();
    const failing: SharedAnswerStore = {
      get: () => Promise.reject(new Error('redis down')),
      set: () => Promise.reject(new Error('redis down')),
    };
    const cache = new ResponseCache(2_000, clock, failing);
    cache.set('/list', 'local', cache.currentGeneration, clock.now());
    await flush();
    expect(cache.get('/list')).toBe('local');
    expect(await cache.getShared('/other')).toBeUndefined();
  });
});

describe('earlyCacheHit', () => {
  /** Runs the middleware on a request; what it sent, or that it passed the request on. */
  function run(cache: ResponseCache, scope: string, req: { method: string; url: string; auth?: string }) {
    let sent: string | undefined;
    let passed = false;
    const res = {
      status: () => res,
      type: () => res,
      send: (body: string) => {
        sent = body;
        return res;
      },
    };
    const request = {
      method: req.method,
      originalUrl: req.url,
      headers: req.auth ? { authorization: req.auth } : {},
    };
    earlyCacheHit(cache, scope)(request as unknown as Request, res as unknown as Response, () => {
      passed = true;
    });
    return { sent, passed };
  }

  it("serves a fresh answer of its own host's cache before the routes, and passes everything else on", () => {
    const clock = new ManualClock();
    const cache = new ResponseCache(2_000, clock);
    cache.set('markets:/svc/public/duels/all?page=2', '{"page":2}', cache.currentGeneration, clock.now());
    const url = '/svc/public/duels/all?page=2';
    expect(run(cache, 'markets', { method: 'GET', url })).toEqual({ sent: '{"page":2}', passed: false });
    expect(run(cache, 'tournaments', { method: 'GET', url })).toEqual({ sent: undefined, passed: true });
    expect(run(cache, 'markets', { method: 'GET', url, auth: 'Bearer t' })).toEqual({ sent: undefined, passed: true });
    expect(run(cache, 'markets', { method: 'POST', url })).toEqual({ sent: undefined, passed: true });
    clock.advance(2_000);
    expect(run(cache, 'markets', { method: 'GET', url })).toEqual({ sent: undefined, passed: true });
  });
});

describe('responseCache: concurrent misses of one key', () => {
  const route = marketsContract.duels.canonical;
  const url = '/svc/user/duels/canonical?limit=20';

  /** A request to the cacheable route through the middleware; `route()` is what the route would do. */
  function request(cache: ResponseCache) {
    const res = Object.assign(new EventEmitter(), {
      statusCode: 200,
      sent: undefined as string | undefined,
      status(code: number) {
        res.statusCode = code;
        return res;
      },
      type: () => res,
      send(body: string) {
        res.sent = body;
        res.emit('close');
        return res;
      },
      json(body: unknown) {
        return res.send(JSON.stringify(body));
      },
    });
    const req = { method: 'GET', originalUrl: url, headers: {}, tsRestRoute: route };
    let ran = false;
    responseCache(cache, 'markets')(req as unknown as Request, res as unknown as Response, () => {
      ran = true;
    });
    return {
      res,
      ran: () => ran,
      answer: (status: number, body: unknown) => res.status(status).json(body),
    };
  }

  it('runs the route once and gives every waiting request its answer', async () => {
    const cache = new ResponseCache(2_000, new ManualClock());
    const first = request(cache);
    const second = request(cache);
    const third = request(cache);
    expect([first.ran(), second.ran(), third.ran()]).toEqual([true, false, false]);
    first.answer(200, { data: [1, 2] });
    await flush();
    expect(second.res.sent).toBe('{"data":[1,2]}');
    expect(third.res.sent).toBe('{"data":[1,2]}');
    expect(second.ran() || third.ran()).toBe(false);
  });

  it('lets the waiting requests run the route themselves when the first gives no answer to share', async () => {
    const cache = new ResponseCache(2_000, new ManualClock());
    const failing = request(cache);
    const waiting = request(cache);
    failing.answer(503, { code: 'DATABASE_UNAVAILABLE' });
    await flush();
    expect(waiting.ran()).toBe(true);
    expect(waiting.res.sent).toBeUndefined();

    const leaving = request(cache);
    const next = request(cache);
    leaving.res.emit('close');
    await flush();
    expect(next.ran()).toBe(true);
  });

  it('does not let a request that arrives after an invalidation join a flight started before it', async () => {
    const cache = new ResponseCache(2_000, new ManualClock());
    const before = request(cache);
    const joined = request(cache);
    cache.invalidate();
    const after = request(cache);
    expect(after.ran()).toBe(true);
    before.answer(200, { read: 'before the write' });
    after.answer(200, { read: 'after the write' });
    await flush();
    expect(joined.res.sent).toBe('{"read":"before the write"}');
    expect(after.res.sent).toBe('{"read":"after the write"}');
    // Only the answer read after the write is kept.
    expect(cache.get(`markets:${url}`)).toBe('{"read":"after the write"}');
  });
});
