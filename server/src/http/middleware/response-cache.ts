import type { Request, RequestHandler } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { LRUCache } from 'lru-cache';
import { routeMeta } from '@duelkit/contract';

/**
 * A per-instance micro-cache of serialised 200 answers of routes the contract marks `cacheable`:
 * hot public reads (duel lists) skip the handler, response validation and JSON serialisation.
 * Entries live `ttlMs`; `invalidate()` (the indexer calls it on every change) drops them all, so
 * an instance never serves a list older than its own last write.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, string>;
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    max = 2_000,
  ) {
    this.entries = new LRUCache<string, string>({ max, ttl: Math.max(1, ttlMs) });
  }

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  /** Stores `body` unless the cache was invalidated since `generation` was read. */
  set(key: string, body: string, generation: number): void {
    if (generation === this.generation) this.entries.set(key, body);
  }

  get currentGeneration(): number {
    return this.generation;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

/** Serves cacheable routes from the cache; a request with credentials always runs for real. */
export function responseCache(cache: ResponseCache): RequestHandler {
  return (req, res, next) => {
    const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    if (
      cache.ttlMs <= 0 ||
      req.method !== 'GET' ||
      !route ||
      !routeMeta(route).cacheable ||
      req.headers.authorization ||
      req.deferredError !== undefined
    ) {
      next();
      return;
    }
    const key = req.originalUrl;
    const hit = cache.get(key);
    if (hit !== undefined) {
      res.status(200).type('application/json').send(hit);
      return;
    }
    const generation = cache.currentGeneration;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode !== 200) return json(body);
      const text = JSON.stringify(body);
      cache.set(key, text, generation);
      return res.type('application/json').send(text);
    };
    next();
  };
}
