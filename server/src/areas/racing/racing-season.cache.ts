import type { MotorsportPort, MotorsportSeason } from '../../adapters/sports-provider/motorsport.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';

const SEASON_TTL_MS = 5 * 60_000;

/**
 * Seasons from the motorsport port, kept for a few minutes (a season's calendar and grid change
 * rarely; results are asked for per event and never cached here).
 */
export class SeasonCatalog {
  private readonly cache = new Map<number, { at: number; season: MotorsportSeason }>();

  constructor(
    readonly port: MotorsportPort,
    private readonly clock: Clock,
  ) {}

  async find(seasonId: number): Promise<MotorsportSeason | null> {
    const hit = this.cache.get(seasonId);
    const now = this.clock.now();
    if (hit && now - hit.at < SEASON_TTL_MS) return hit.season;
    const season = await this.port.season(seasonId);
    if (season) this.cache.set(seasonId, { at: now, season });
    return season;
  }

  async get(seasonId: number): Promise<MotorsportSeason> {
    const season = await this.find(seasonId);
    if (!season) {
      throw new DomainError('UPSTREAM_ERROR', `The provider no longer has season ${seasonId}`, {
        details: { seasonId },
      });
    }
    return season;
  }
}

/** A short-lived memo of computed reads (heatmaps, dashboards), judged by the injected clock. */
export class ShortCache<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private readonly clock: Clock,
    readonly ttlMs: number,
  ) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = compute();
    this.entries.set(key, { at: now, value });
    value.catch(() => this.entries.delete(key));
    if (this.entries.size > 1_000) {
      for (const [k, e] of this.entries) if (now - e.at >= this.ttlMs) this.entries.delete(k);
    }
    return value;
  }
}
