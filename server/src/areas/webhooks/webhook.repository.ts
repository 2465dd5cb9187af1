import { randomUUID } from 'node:crypto';
import type { Orm } from '../../platform/db/orm.js';
import { pgArray, sqlIn, type SqlExec } from '../../platform/db/sql.js';
import { eventInsertSql } from '../../platform/events/event-insert.sql.js';
import type { StoredEvent } from '../../platform/events/event.types.js';
import { toStored } from '../../platform/events/event-log.repository.js';

export interface EndpointRow {
  id: string;
  builder_app_id: string;
  url: string;
  description: string | null;
  types: string[] | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  consecutive_failures: number;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A delivery claimed for an attempt: its event and its endpoint. */
export interface ClaimedDelivery {
  readonly delivery: DeliveryRow;
  readonly endpoint: EndpointRow;
  readonly event: StoredEvent;
}

/** The outcome of one attempt, as the dispatcher judged it. */
export interface AttemptOutcome {
  readonly deliveryId: string;
  readonly endpointId: string;
  readonly attempt: number;
  readonly at: Date;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly ok: boolean;
  /** When to try again; null when the delivery is over (succeeded, or failed for good). */
  readonly nextAttemptAt: Date | null;
  /** Disable the endpoint with this reason (it keeps failing). */
  readonly disable: string | null;
}

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, e.type as event_type, d.status, d.attempts, d.next_attempt_at,
  d.created_at, d.delivered_at`;

/** Webhook endpoints, deliveries and attempts. */
export class WebhookRepository {
  constructor(private readonly orm: Orm) {}

  async countForApp(builderAppId: string): Promise<number> {
    const [row] = await this.conn().execute<{ n: number }[]>(
      'select count(*)::int as n from webhook_endpoints where builder_app_id = ?',
      [builderAppId],
    );
    return row?.n ?? 0;
  }

  async insertEndpoint(e: {
    id: string;
    builderAppId: string;
    url: string;
    description: string | null;
    types: readonly string[] | null;
    secretSealed: string;
    at: Date;
  }): Promise<EndpointRow> {
    const [row] = await this.conn().execute<EndpointRow[]>(
      `insert into webhook_endpoints (id, builder_app_id, url, description, types, secret_sealed, status, consecutive_failures, created_at)
       values (?, ?, ?, ?, ?::text[], ?, 'enabled', 0, ?)
       on conflict (id) do update set id = excluded.id returning *`,
      [e.id, e.builderAppId, e.url, e.description, e.types ? pgArray(e.types) : null, e.secretSealed, e.at],
    );
    return row as EndpointRow;
  }

  async endpoints(builderAppId: string): Promise<EndpointRow[]> {
    return this.conn().execute<EndpointRow[]>(
      'select * from webhook_endpoints where builder_app_id = ? order by created_at desc, id',
      [builderAppId],
    );
  }

  async endpoint(builderAppId: string, id: string): Promise<EndpointRow | null> {
    const [row] = await this.conn().execute<EndpointRow[]>(
      'select * from webhook_endpoints where builder_app_id = ? and id = ?',
      [builderAppId, id],
    );
    return row ?? null;
  }

  async rotateSecret(id: string, secretSealed: string, previousExpiresAt: Date, at: Date): Promise<EndpointRow> {
    const [row] = await this.conn().execute<EndpointRow[]>(
      `update webhook_endpoints set previous_secret_sealed = secret_sealed, previous_secret_expires_at = ?,
         secret_sealed = ?, secret_rotated_at = ? where id = ? returning *`,
      [previousExpiresAt, secretSealed, at, id],
    );
    return row as EndpointRow;
  }

  async disable(id: string, reason: string): Promise<EndpointRow> {
    const [row] = await this.conn().execute<EndpointRow[]>(
      `update webhook_endpoints set status = 'disabled', disabled_reason = coalesce(disabled_reason, ?)
       where id = ? returning *`,
      [reason, id],
    );
    return row as EndpointRow;
  }

  /**
   * A delivery per (event, enabled endpoint of its app subscribed to its type), due at once: runs
   * in the relay's numbering transaction, so every numbered event has its deliveries.
   */
  async createDeliveries(sql: SqlExec, events: readonly StoredEvent[], at: Date): Promise<void> {
    if (!events.length) return;
    await sql(
      `insert into webhook_deliveries (id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
       select gen_random_uuid(), w.id, e.id, 'pending', 0, ?, ? from events e
         join webhook_endpoints w on w.builder_app_id = e.builder_app_id and w.status = 'enabled'
          and (w.types is null or e.type = any(w.types))
        where e.id = any(?::uuid[])
       on conflict (endpoint_id, event_id) do nothing`,
      [at, at, pgArray(events.map((e) => e.id))],
    );
  }

  /** A `webhook.test` event for one endpoint and its delivery, in one transaction. */
  async insertTestDelivery(endpoint: EndpointRow, deliveryId: string, data: unknown, at: Date): Promise<DeliveryRow> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const [event] = await sql<{ id: string }>(
        eventInsertSql(`select 'webhook.test', ?::uuid, null::text, false, ?::text, ?::jsonb, ?::timestamptz`),
        [endpoint.builder_app_id, `webhook.test:${deliveryId}`, JSON.stringify(data), at],
      );
      const eventId =
        event?.id ??
        (await sql<{ id: string }>(`select id from events where dedupe_key = ?`, [`webhook.test:${deliveryId}`]))[0]
          ?.id;
      await sql(
        `insert into webhook_deliveries (id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
         values (?, ?, ?, 'pending', 0, ?, ?) on conflict (id) do nothing`,
        [deliveryId, endpoint.id, eventId, at, at],
      );
      const [row] = await sql<DeliveryRow>(
        `select ${DELIVERY_COLUMNS} from webhook_deliveries d join events e on e.id = d.event_id where d.id = ?`,
        [deliveryId],
      );
      return row as DeliveryRow;
    });
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints: each is pushed to `leaseUntil` so
   * no other worker takes it while this one sends (a worker that dies leaves it due again then).
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    return this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      const ids = await sql<{ id: string }>(
        `update webhook_deliveries set next_attempt_at = ? where id in (
           select d.id from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
            where d.status = 'pending' and w.status = 'enabled' and d.next_attempt_at <= ?
            order by d.next_attempt_at limit ? for update of d skip locked)
         returning id`,
        [leaseUntil, now, limit],
      );
      if (!ids.length) return [];
      const rows = await sql<DeliveryRow & { ev: Record<string, unknown>; ep: EndpointRow }>(
        `select ${DELIVERY_COLUMNS}, to_jsonb(e) || jsonb_build_object('seq', e.seq::text) as ev, to_jsonb(w) as ep
           from webhook_deliveries d join events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id
          where d.id = any(?::uuid[])`,
        [pgArray(ids.map((r) => r.id))],
      );
      return rows.map(({ ev, ep, ...delivery }) => ({
        delivery,
        endpoint: ep,
        event: toStored(ev as never),
      }));
    });
  }

  /** Records an attempt and its consequences (delivery state, endpoint failures) in one transaction. */
  async recordAttempt(o: AttemptOutcome): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      const sql = sqlIn(em);
      await sql(
        `insert into webhook_attempts (id, delivery_id, attempt, at, status_code, error, duration_ms) values (?, ?, ?, ?, ?, ?, ?)`,
        [randomUUID(), o.deliveryId, o.attempt, o.at, o.statusCode, o.error?.slice(0, 500) ?? null, o.durationMs],
      );
      await sql(
        `update webhook_deliveries set attempts = ?, status = ?, next_attempt_at = ?, delivered_at = ? where id = ?`,
        [
          o.attempt,
          o.ok ? 'succeeded' : o.nextAttemptAt ? 'pending' : 'failed',
          o.nextAttemptAt,
          o.ok ? o.at : null,
          o.deliveryId,
        ],
      );
      await sql(
        `update webhook_endpoints set consecutive_failures = case when ? then 0 else consecutive_failures + 1 end,
           status = case when ?::text is null then status else 'disabled' end,
           disabled_reason = coalesce(disabled_reason, ?::text)
         where id = ?`,
        [o.ok, o.disable, o.disable, o.endpointId],
      );
    });
  }

  async consecutiveFailures(endpointId: string): Promise<number> {
    const [row] = await this.conn().execute<{ n: number }[]>(
      'select consecutive_failures as n from webhook_endpoints where id = ?',
      [endpointId],
    );
    return row?.n ?? 0;
  }

  /** A page of an endpoint's deliveries, newest first, with their attempts. */
  async deliveries(
    endpointId: string,
    status: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: (DeliveryRow & { attemptRows: AttemptRow[] })[]; total: number }> {
    const where = status ? 'd.endpoint_id = ? and d.status = ?' : 'd.endpoint_id = ?';
    const params = status ? [endpointId, status] : [endpointId];
    const conn = this.conn();
    const [rows, [count]] = await Promise.all([
      conn.execute<DeliveryRow[]>(
        `select ${DELIVERY_COLUMNS} from webhook_deliveries d join events e on e.id = d.event_id where ${where}
          order by d.created_at desc, d.id limit ? offset ?`,
        [...params, limit, offset],
      ),
      conn.execute<{ n: number }[]>(`select count(*)::int as n from webhook_deliveries d where ${where}`, params),
    ]);
    const attempts = rows.length
      ? await conn.execute<AttemptRow[]>(
          `select * from webhook_attempts where delivery_id = any(?::uuid[]) order by attempt`,
          [pgArray(rows.map((r) => r.id))],
        )
      : [];
    return {
      rows: rows.map((r) => ({ ...r, attemptRows: attempts.filter((a) => a.delivery_id === r.id) })),
      total: count?.n ?? 0,
    };
  }

  async delivery(id: string): Promise<(DeliveryRow & { builder_app_id: string; endpoint_status: string }) | null> {
    const [row] = await this.conn().execute<(DeliveryRow & { builder_app_id: string; endpoint_status: string })[]>(
      `select ${DELIVERY_COLUMNS}, w.builder_app_id, w.status as endpoint_status
         from webhook_deliveries d join events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id
        where d.id = ?`,
      [id],
    );
    return row ?? null;
  }

  /** Queues a delivery again from its first attempt (its recorded attempts stay). */
  async requeue(id: string, at: Date): Promise<void> {
    await this.conn().execute(
      `update webhook_deliveries set status = 'pending', next_attempt_at = ?, delivered_at = null where id = ?`,
      [at, id],
    );
  }

  async attemptsOf(deliveryId: string): Promise<AttemptRow[]> {
    return this.conn().execute<AttemptRow[]>('select * from webhook_attempts where delivery_id = ? order by attempt', [
      deliveryId,
    ]);
  }

  private conn() {
    return this.orm.em.fork().getConnection();
  }
}
