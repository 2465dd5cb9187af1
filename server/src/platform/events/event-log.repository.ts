import type { Orm } from '../db/orm.js';
import { sqlIn, type SqlExec } from '../db/sql.js';
import type { EventBatch, StoredEvent } from './event.types.js';

interface Row {
  id: string;
  seq: string | null;
  type: string;
  version: number;
  builder_app_id: string;
  duel_id: string | null;
  is_private: boolean;
  data: unknown;
  created_at: Date | string;
}

const COLUMNS = 'id, seq::text, type, version, builder_app_id, duel_id, is_private, data, created_at';

export function toStored(r: Row): StoredEvent {
  return {
    id: r.id,
    seq: r.seq,
    type: r.type,
    version: r.version,
    builderAppId: r.builder_app_id,
    duelId: r.duel_id,
    isPrivate: r.is_private,
    data: r.data,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** Runs in the numbering transaction with the ids just numbered (webhook deliveries are created here). */
export type NumberedHook = (sql: SqlExec, events: readonly StoredEvent[]) => Promise<void>;

/** What a reader of the log may see. */
export interface EventFilter {
  readonly builderAppId: string;
  readonly types?: readonly string[] | undefined;
  readonly duelIds?: readonly string[] | undefined;
  /** Private markets' events: all of them (builder), none (null), or those of these markets (a user's). */
  readonly privateDuels: 'all' | readonly string[];
}

/** The event log: numbering by the relay, reading by the stream. */
export class EventLogRepository {
  constructor(private readonly orm: Orm) {}

  /**
   * Numbers up to `limit` unnumbered events after the relay's high-water mark, under the lock of
   * its row (one numbering transaction at a time, in every process), and runs the hooks in the
   * same transaction. Returns the batch, empty when there was nothing to number or another
   * process was numbering.
   */
  async numberPending(limit: number, hooks: readonly NumberedHook[]): Promise<EventBatch> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const [relay] = await sql<{ last_seq: string }>(
        `select last_seq::text from event_relay where name = 'events' for update skip locked`,
      );
      if (!relay) return { prev: '0', last: '0', events: [] };
      const rows = await sql<Row>(
        `with pending as (
           select id, row_number() over (order by created_at, id) as n from events
            where seq is null and type <> 'webhook.test' order by created_at, id limit ?)
         update events e set seq = ?::bigint + p.n from pending p where e.id = p.id
         returning e.id, e.seq::text, e.type, e.version, e.builder_app_id, e.duel_id, e.is_private, e.data, e.created_at`,
        [limit, relay.last_seq],
      );
      if (!rows.length) return { prev: relay.last_seq, last: relay.last_seq, events: [] };
      const events = rows.map(toStored).sort((a, b) => Number(BigInt(a.seq ?? 0) - BigInt(b.seq ?? 0)));
      const last = (BigInt(relay.last_seq) + BigInt(rows.length)).toString();
      await sql(`update event_relay set last_seq = ? where name = 'events'`, [last]);
      for (const hook of hooks) await hook(sql, events);
      return { prev: relay.last_seq, last, events };
    });
  }

  /** The database's name: what names this deployment's event channel on a shared Redis. */
  async databaseName(): Promise<string> {
    const [row] = await this.conn().execute<{ name: string }[]>('select current_database() as name');
    return row?.name ?? 'duelkit';
  }

  /** The relay's high-water mark: every event numbered at or below it is visible. */
  async lastSeq(): Promise<string> {
    const [row] = await this.conn().execute<{ last_seq: string }[]>(
      `select last_seq::text from event_relay where name = 'events'`,
    );
    return row?.last_seq ?? '0';
  }

  /** Numbered events after `seq` (up to `upTo`, when given) that `filter` lets through, in order. */
  async after(seq: string, filter: EventFilter, limit: number, upTo?: string): Promise<StoredEvent[]> {
    const params: unknown[] = [filter.builderAppId, seq];
    let where = `builder_app_id = ? and seq > ?::bigint`;
    if (upTo !== undefined) {
      where += ' and seq <= ?::bigint';
      params.push(upTo);
    }
    if (filter.types?.length) {
      where += ' and type = any(?::text[])';
      params.push(`{${filter.types.join(',')}}`);
    }
    if (filter.duelIds?.length) {
      where += ' and duel_id = any(?::text[])';
      params.push(`{${filter.duelIds.join(',')}}`);
    }
    if (filter.privateDuels !== 'all') {
      where += ' and (not is_private or duel_id = any(?::text[]))';
      params.push(`{${filter.privateDuels.join(',')}}`);
    }
    const rows = await this.conn().execute<Row[]>(`select ${COLUMNS} from events where ${where} order by seq limit ?`, [
      ...params,
      limit,
    ]);
    return rows.map(toStored);
  }

  /** Numbered events in `(from, to]` of every app, in order (a subscriber filling a gap). */
  async range(from: string, to: string): Promise<StoredEvent[]> {
    const rows = await this.conn().execute<Row[]>(
      `select ${COLUMNS} from events where seq > ?::bigint and seq <= ?::bigint order by seq`,
      [from, to],
    );
    return rows.map(toStored);
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
