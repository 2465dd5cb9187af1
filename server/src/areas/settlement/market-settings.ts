import type { Orm } from '../../platform/db/orm.js';
import type { DuelSettings } from '../markets/duel.service.js';

/** The timings an admin may change at run time (POST /svc/admin/market/duration). */
export interface MarketTimings {
  readonly contestPeriodSeconds: number;
  readonly publicLeadSeconds: number;
  readonly privateLeadSeconds: number;
  readonly resolutionGraceSeconds: number;
}

/** Some timings to change; absent (or undefined) ones keep their value. */
export type TimingChanges = { readonly [K in keyof MarketTimings]?: MarketTimings[K] | undefined };

export interface MarketTimingsRecord extends MarketTimings {
  readonly updatedAt: Date | null;
  readonly updatedBy: string | null;
}

interface SettingsRow {
  contest_period_seconds: number;
  public_lead_seconds: number;
  private_lead_seconds: number;
  resolution_grace_seconds: number;
  updated_at: Date;
  updated_by: string | null;
}

/**
 * The platform's market settings: the configured defaults, overridden by the `market_settings`
 * row an admin wrote. It is a {@link DuelSettings}, so DuelService reads the current contest period
 * and lead times synchronously; every instance reloads the row every `refreshMs`.
 */
export class MarketSettingsStore implements DuelSettings {
  private current: MarketTimingsRecord;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly orm: Orm,
    private readonly defaults: DuelSettings & { readonly resolutionGraceSeconds: number },
  ) {
    this.current = { ...pickTimings(defaults), updatedAt: null, updatedBy: null };
  }

  get feeBps(): number {
    return this.defaults.feeBps;
  }
  get initialLiquidity(): bigint {
    return this.defaults.initialLiquidity;
  }
  get contestPeriodSeconds(): number {
    return this.current.contestPeriodSeconds;
  }
  get publicLeadSeconds(): number {
    return this.current.publicLeadSeconds;
  }
  get privateLeadSeconds(): number {
    return this.current.privateLeadSeconds;
  }
  get resolutionGraceSeconds(): number {
    return this.current.resolutionGraceSeconds;
  }

  /** Loads the stored timings and keeps reloading them every `refreshMs` (changes made elsewhere apply here too). */
  static async open(
    orm: Orm,
    defaults: DuelSettings & { readonly resolutionGraceSeconds: number },
    refreshMs = 15_000,
  ): Promise<MarketSettingsStore> {
    const store = new MarketSettingsStore(orm, defaults);
    await store.load();
    store.startRefreshing(refreshMs);
    return store;
  }

  timings(): MarketTimingsRecord {
    return this.current;
  }

  /** Reads the stored row; a database without it (or without the table yet) keeps the defaults. */
  async load(): Promise<MarketTimingsRecord> {
    try {
      const [row] = await this.orm.em
        .fork()
        .getConnection()
        .execute<SettingsRow[]>('select * from market_settings where id = 1');
      this.current = row ? fromRow(row) : { ...pickTimings(this.defaults), updatedAt: null, updatedBy: null };
    } catch {
      // Keep what we have: a transient read error must not change the timings.
    }
    return this.current;
  }

  /** Reloads every `refreshMs` so changes made on another instance apply here too. */
  startRefreshing(refreshMs: number): void {
    this.timer ??= setInterval(() => void this.load(), refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Changes some timings; the others keep their current values. */
  async update(changes: TimingChanges, by: string): Promise<MarketTimingsRecord> {
    const next = { ...pickTimings(this.current), ...stripUndefined(changes) };
    const [row] = await this.orm.em
      .fork()
      .getConnection()
      .execute<SettingsRow[]>(
        `insert into market_settings (id, contest_period_seconds, public_lead_seconds, private_lead_seconds,
           resolution_grace_seconds, updated_at, updated_by)
         values (1, ?, ?, ?, ?, now(), ?)
         on conflict (id) do update set contest_period_seconds = excluded.contest_period_seconds,
           public_lead_seconds = excluded.public_lead_seconds, private_lead_seconds = excluded.private_lead_seconds,
           resolution_grace_seconds = excluded.resolution_grace_seconds, updated_at = excluded.updated_at,
           updated_by = excluded.updated_by
         returning *`,
        [next.contestPeriodSeconds, next.publicLeadSeconds, next.privateLeadSeconds, next.resolutionGraceSeconds, by],
      );
    if (row) this.current = fromRow(row);
    return this.current;
  }
}

function pickTimings(t: MarketTimings): MarketTimings {
  return {
    contestPeriodSeconds: t.contestPeriodSeconds,
    publicLeadSeconds: t.publicLeadSeconds,
    privateLeadSeconds: t.privateLeadSeconds,
    resolutionGraceSeconds: t.resolutionGraceSeconds,
  };
}

function stripUndefined(changes: TimingChanges): Partial<MarketTimings> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
}

function fromRow(row: SettingsRow): MarketTimingsRecord {
  return {
    contestPeriodSeconds: row.contest_period_seconds,
    publicLeadSeconds: row.public_lead_seconds,
    privateLeadSeconds: row.private_lead_seconds,
    resolutionGraceSeconds: row.resolution_grace_seconds,
    updatedAt: new Date(row.updated_at),
    updatedBy: row.updated_by,
  };
}
