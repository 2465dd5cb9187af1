import type { Request, RequestHandler } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { LRUCache } from 'lru-cache';
import { routeMeta } from '@duelkit/contract';
import type { Clock } from '../../platform/clock.js';

/** A stored answer: its serialised body and when the data in it was read (epoch ms). */
interface StoredAnswer {
  readonly body: string;
  readonly at: number;
}

/**
 * Where instances share answers (Redis when configured): the shape of the cache port's `get` and
 * `set`, which the container hands in. A store that fails reads as a miss.
 */
export interface SharedAnswerStore {
  get(key: string): Promise<{ readonly body: unknown; readonly fetchedAt: number } | null>;
  set(
    key: string,
    entry: { body: unknown; fetchedAt: number; freshUntil: number; staleUntil: number },
    ttlMs: number,
  ): Promise<void>;
}

/** An answer being computed by one request, which concurrent misses of the same key wait for. */
interface Flight {
  readonly answer: Promise<string | undefined>;
  /** Ends the flight with the answer, or undefined when it gave none to share (not a 200, failed). */
  readonly land: (body: string | undefined) => void;
}

/**
 * A micro-cache of serialised 200 answers of routes the contract marks `cacheable`: hot public
 * reads (duel lists) skip the handler, response validation and JSON serialisation. An answer is
 * served for `ttlMs` after its data was read, judged on the injected clock, and never longer:
 * one found in the shared store keeps the age it had there. With a shared store (Redis), an
 * answer computed by one instance serves every instance. `invalidate()` (the indexer calls it on
 * every change this instance writes) drops this instance's answers and makes it ignore shared
 * ones read before, so an instance never serves a list older than its own last write; other
 * instances converge within `ttlMs`.
 *
 * Concurrent misses of one key are coalesced: the first runs the route, the others wait for its
 * answer (`inFlight`), so a key that expires under load is computed once, not once per waiting
 * request. A flight started before an invalidation is not joined after it.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, StoredAnswer>;
  private readonly flights = new Map<string, Flight>();
  private generation = 0;
  private invalidatedAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly shared?: SharedAnswerStore,
    max = 2_000,
  ) {
    this.entries = new LRUCache<string, StoredAnswer>({ max });
  }

  private fresh(at: number): boolean {
    return at >= this.invalidatedAt && this.clock.now() - at < this.ttlMs;
  }

  /** This instance's answer for `key`, if it is fresh. */
  get(key: string): string | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    if (this.fresh(hit.at)) return hit.body;
    this.entries.delete(key);
    return undefined;
  }

  /** The shared store's answer for `key`, if there is a store and a fresh answer in it. */
  async getShared(key: string): Promise<string | undefined> {
    if (!this.shared) return undefined;
    const generation = this.generation;
    const entry = await this.shared.get(key).catch(() => null);
    if (!entry || typeof entry.body !== 'string' || !this.fresh(entry.fetchedAt)) return undefined;
    if (generation === this.generation) this.entries.set(key, { body: entry.body, at: entry.fetchedAt });
    return entry.body;
  }

  /**
   * Stores `body`, whose data was read from `at` on, unless the cache was invalidated since
   * `generation` was read; shares it when there is a store.
   */
  set(key: string, body: string, generation: number, at: number): void {
    if (generation !== this.generation) return;
    this.entries.set(key, { body, at });
    if (this.shared) {
      const until = at + this.ttlMs;
      void this.shared
        .set(key, { body, fetchedAt: at, freshUntil: until, staleUntil: until }, this.ttlMs)
        .catch(() => undefined);
    }
  }

  /** The answer another request is computing for `key`, if one is (see `lead`). */
  inFlight(key: string): Promise<string | undefined> | undefined {
    return this.flights.get(key)?.answer;
  }

  /**
   * Makes the caller the one computing `key`'s answer: later misses wait for it. The returned
   * function ends the flight (once; later calls do nothing) with the answer to share, or
   * undefined, after which the waiters run the route themselves.
   */
  lead(key: string): (body: string | undefined) => void {
    let resolve!: (body: string | undefined) => void;
    const flight: Flight = {
      answer: new Promise<string | undefined>((r) => (resolve = r)),
      land: (body) => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
        resolve(body);
      },
    };
    this.flights.set(key, flight);
    return flight.land;
  }

  get currentGeneration(): number {
    return this.generation;
  }

  /** Whether answers are shared with other instances (a miss then asks the store first). */
  get sharing(): boolean {
    return this.shared !== undefined;
  }

  /** The injected clock's time: when a request's data starts being read. */
  now(): number {
    return this.clock.now();
  }

  invalidate(): void {
    this.generation += 1;
    this.invalidatedAt = this.clock.now();
    this.entries.clear();
    // Requests from now on compute afresh; those already waiting get the answer they waited for.
    this.flights.clear();
  }
}

/**
 * Serves cacheable routes from the cache; a request with credentials always runs for real.
 * `scope` (the host) keeps one host's answers from being served on the other.
 */
export function responseCache(cache: ResponseCache, scope: string): RequestHandler {
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
    const key = `${scope}:${req.originalUrl}`;
    const hit = cache.get(key);
    if (hit !== undefined) {
      res.status(200).type('application/json').send(hit);
      return;
    }
    const running = cache.inFlight(key);
    if (running) {
      // Another request is computing this answer: share it, or run the route if it gives none.
      running.then(
        (body) => {
          if (body === undefined) next();
          else res.status(200).type('application/json').send(body);
        },
        () => next(),
      );
      return;
    }
    const land = cache.lead(key);
    // Whatever ends this request (an error, the client leaving) ends the flight: waiters never hang.
    res.once('close', () => land(undefined));
    const generation = cache.currentGeneration;
    const startedAt = cache.now();
    const run = () => {
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        if (res.statusCode !== 200) {
          land(undefined);
          return json(body);
        }
        const text = JSON.stringify(body);
        cache.set(key, text, generation, startedAt);
        land(text);
        return res.type('application/json').send(text);
      };
      next();
    };
    if (!cache.sharing) {
      run();
      return;
    }
    cache.getShared(key).then(
      (shared) => {
        if (shared === undefined) {
          run();
          return;
        }
        land(shared);
        res.status(200).type('application/json').send(shared);
      },
      () => run(),
    );
  };
}

/**
 * Serves an answer this instance holds before route matching, right after the builder key and its
 * rate limit: only answers of cacheable routes are ever stored, so a fresh one found under the
 * URL is one `responseCache` would serve, without walking the routes, the body parser and the
 * route middleware first. A request with credentials, or that is not a GET, goes on as usual.
 */
export function earlyCacheHit(cache: ResponseCache, scope: string): RequestHandler {
  return (req, res, next) => {
    if (cache.ttlMs <= 0 || req.method !== 'GET' || req.headers.authorization) {
      next();
      return;
    }
    const hit = cache.get(`${scope}:${req.originalUrl}`);
    if (hit === undefined) {
      next();
      return;
    }
    res.status(200).type('application/json').send(hit);
  };
}
