import { createHash, randomUUID } from 'node:crypto';
import type { Orm } from '../../platform/db/orm.js';
import type { SqlExec } from '../../platform/db/sql.js';

export interface DeviceRecord {
  id: string;
  user_id: string;
  provider: 'expo' | 'webpush';
  token: string;
  label: string | null;
  created_at: Date;
}

export interface DeliveryRecord {
  id: string;
  notification_id: string | null;
  user_id: string | null;
  device_id: string | null;
  provider: string;
  kind: string;
  status: 'ok' | 'error';
  error: string | null;
  provider_answer: string | null;
  pruned: boolean;
  created_at: Date;
}

export type NewDelivery = Omit<DeliveryRecord, 'id' | 'created_at'> & { created_at: Date };

export interface PrematchCandidate {
  user_id: string;
  provider_fixture_id: string;
  title: string;
  starts_at: Date;
}

export interface OutboxRow {
  id: string;
  user_id: string;
  kind: string;
  payload: { title: string; body: string; data: Record<string, string> };
}

const sha = (token: string) => createHash('sha256').update(token).digest('hex');
const DELIVERY = `id, notification_id, user_id, device_id, provider, kind, status, error, provider_answer, pruned, created_at`;

/** Devices, deliveries, the outbox's pre-match rows and the diagnostics' counts. */
export class NotificationRepository {
  constructor(private readonly orm: Orm) {}

  /** Registers a token for a user (moving it from another user who had it); the device. */
  async upsertDevice(d: { userId: string; provider: string; token: string; label: string | null; now: Date }) {
    const [row] = await this.sql()<DeviceRecord>(
      `insert into push_devices (id, user_id, provider, token, token_sha256, label, status, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, 'active', ?, ?)
       on conflict (provider, token_sha256) do update set user_id = excluded.user_id, label = excluded.label,
         status = 'active', pruned_reason = null, updated_at = excluded.updated_at
       returning id, user_id, provider, token, label, created_at`,
      [randomUUID(), d.userId, d.provider, d.token, sha(d.token), d.label, d.now, d.now],
    );
    if (!row) throw new Error('device upsert returned nothing');
    return row;
  }

  async removeDevice(userId: string, deviceId: string, now: Date): Promise<boolean> {
    const rows = await this.sql()(
      `update push_devices set status = 'removed', updated_at = ? where id = ? and user_id = ? and status <> 'removed' returning id`,
      [now, deviceId, userId],
    );
    return rows.length > 0;
  }

  async deviceOwner(deviceId: string): Promise<string | undefined> {
    const [row] = await this.sql()<{ user_id: string }>('select user_id from push_devices where id = ?', [deviceId]);
    return row?.user_id;
  }

  activeDevices(userId: string): Promise<DeviceRecord[]> {
    return this.sql()<DeviceRecord>(
      `select id, user_id, provider, token, label, created_at from push_devices
        where user_id = ? and status = 'active' order by created_at`,
      [userId],
    );
  }

  /** Marks every device with this token dead; how many were. */
  async prune(provider: string, token: string, reason: string, now: Date): Promise<number> {
    const rows = await this.sql()(
      `update push_devices set status = 'pruned', pruned_reason = ?, updated_at = ?
        where provider = ? and token_sha256 = ? and status = 'active' returning id`,
      [reason.slice(0, 300), now, provider, sha(token)],
    );
    return rows.length;
  }

  async recordDelivery(d: NewDelivery): Promise<DeliveryRecord> {
    const [row] = await this.sql()<DeliveryRecord>(
      `insert into push_deliveries (${DELIVERY}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${DELIVERY}`,
      [
        randomUUID(),
        d.notification_id,
        d.user_id,
        d.device_id,
        d.provider,
        d.kind,
        d.status,
        d.error,
        d.provider_answer,
        d.pruned,
        d.created_at,
      ],
    );
    if (!row) throw new Error('delivery insert returned nothing');
    return row;
  }

  deliveries(filter: { notificationId?: string; failedOnly?: boolean; limit: number }): Promise<DeliveryRecord[]> {
    return this.sql()<DeliveryRecord>(
      `select ${DELIVERY} from push_deliveries
        where (cast(? as uuid) is null or notification_id = ?) and (? = false or status = 'error')
        order by created_at desc, id desc limit ?`,
      [filter.notificationId ?? null, filter.notificationId ?? null, filter.failedOnly ?? false, filter.limit],
    );
  }

  async userExists(userId: string): Promise<boolean> {
    return (await this.sql()('select 1 from users where id = ?', [userId])).length > 0;
  }

  /** Records a notification in the outbox once per dedupe key: its id when this call recorded it. */
  async enqueue(n: {
    dedupeKey: string;
    userId: string;
    kind: string;
    title: string;
    body: string;
    data: Record<string, string>;
    now: Date;
  }): Promise<string | undefined> {
    const [row] = await this.sql()<{ id: string }>(
      `insert into notification_outbox (id, dedupe_key, user_id, kind, payload, status, attempts, created_at)
       values (?, ?, ?, ?, ?, 'pending', 0, ?) on conflict (dedupe_key) do nothing returning id`,
      [
        randomUUID(),
        n.dedupeKey,
        n.userId,
        n.kind,
        JSON.stringify({ title: n.title, body: n.body, data: n.data }),
        n.now,
      ],
    );
    return row?.id;
  }

  /** Takes pending notifications (of `kind`, or any) for 30 s; another deliverer skips them meanwhile. */
  claim(limit: number, kind?: string, id?: string): Promise<OutboxRow[]> {
    return this.sql()<OutboxRow>(
      `update notification_outbox set attempts = attempts + 1, locked_until = now() + interval '30 seconds'
        where id in (select id from notification_outbox where status = 'pending'
                       and (locked_until is null or locked_until < now())
                       and (cast(? as text) is null or kind = ?) and (cast(? as uuid) is null or id = ?)
                     order by created_at limit ? for update skip locked)
        returning id, user_id, kind, payload`,
      [kind ?? null, kind ?? null, id ?? null, id ?? null, limit],
    );
  }

  async outboxDone(id: string, error: string | null): Promise<void> {
    await this.sql()(
      error === null
        ? `update notification_outbox set status = 'delivered', delivered_at = now(), locked_until = null, last_error = null where id = ?`
        : `update notification_outbox set locked_until = null, last_error = ? where id = ?`,
      error === null ? [id] : [error.slice(0, 500), id],
    );
  }

  /**
   * (user, fixture) pairs with a pick on a fixture starting in (from, to], or an entry still alive
   * in its stage, for tournaments not cancelled. A wallet entrant without a user id is found by its
   * managed or signing address.
   */
  async prematchCandidates(from: Date, to: Date): Promise<PrematchCandidate[]> {
    const rows = await this.sql()<Omit<PrematchCandidate, 'starts_at'> & { starts_at: Date | string }>(
      `with fx as (
         select f.id, f.stage_id, f.provider_fixture_id, f.title, f.starts_at from tournament_fixtures f
           join tournaments t on t.id = f.tournament_id
          where f.starts_at > ? and f.starts_at <= ? and f.result is null and t.cancelled_at is null),
       wallets as (
         select fx.id as fixture_id, p.wallet from fx join tournament_picks p on p.fixture_id = fx.id
         union
         select fx.id, se.wallet from fx join tournament_stage_entries se on se.stage_id = fx.stage_id
          where se.status not in ('ELIMINATED', 'FORFEITED'))
       select distinct u.id as user_id, fx.provider_fixture_id::text as provider_fixture_id, fx.title, fx.starts_at
         from wallets w join fx on fx.id = w.fixture_id
         join users u on lower(u.managed_address) = lower(w.wallet) or lower(u.eoa_address) = lower(w.wallet)
        order by fx.starts_at, u.id`,
      [from, to],
    );
    // The raw driver returns timestamptz as text: the cycle does arithmetic on it.
    return rows.map((r) => ({ ...r, starts_at: new Date(r.starts_at) }));
  }

  async fixturesBetween(from: Date, to: Date): Promise<number> {
    const [row] = await this.sql()<{ n: string }>(
      `select count(distinct provider_fixture_id)::text as n from tournament_fixtures where starts_at > ? and starts_at <= ? and result is null`,
      [from, to],
    );
    return Number(row?.n ?? 0);
  }

  async recordPrematchRun(r: {
    windowMinutes: number;
    fixtures: number;
    candidates: number;
    enqueued: number;
    delivered: number;
    ranAt: Date;
  }): Promise<void> {
    await this.sql()(
      `insert into prematch_runs (id, window_minutes, fixtures, candidates, enqueued, delivered, ran_at) values (?, ?, ?, ?, ?, ?, ?)`,
      [randomUUID(), r.windowMinutes, r.fixtures, r.candidates, r.enqueued, r.delivered, r.ranAt],
    );
  }

  async diagnostics(now: Date) {
    const sql = this.sql();
    const since = new Date(now.getTime() - 86_400_000);
    const [counts] = await sql<Record<string, string>>(
      `select
         (select count(*) from push_devices where status = 'active')::text as active,
         (select count(*) from push_devices where status = 'pruned')::text as pruned,
         (select count(*) from push_deliveries where status = 'ok' and created_at >= ?)::text as ok24,
         (select count(*) from push_deliveries where status = 'error' and created_at >= ?)::text as err24,
         (select count(*) from notification_outbox where status = 'pending')::text as pending,
         (select count(*) from notification_outbox where status = 'pending' and last_error is not null)::text as failing,
         (select count(*) from notification_outbox where status = 'delivered' and delivered_at >= ?)::text as delivered24,
         (select count(*) from notification_outbox where kind = 'prematch')::text as prematch_sent`,
      [since, since, since],
    );
    const [lastRun] = await sql<{
      window_minutes: number;
      fixtures: number;
      candidates: number;
      enqueued: number;
      delivered: number;
      ran_at: Date;
    }>(
      `select window_minutes, fixtures, candidates, enqueued, delivered, ran_at from prematch_runs order by ran_at desc limit 1`,
    );
    const pending = await sql<{
      id: string;
      user_id: string;
      kind: string;
      attempts: number;
      last_error: string | null;
      created_at: Date;
    }>(
      `select id, user_id, kind, attempts, last_error, created_at from notification_outbox where status = 'pending'
        order by created_at limit 20`,
    );
    const n = (k: string) => Number(counts?.[k] ?? 0);
    return {
      devices: { active: n('active'), pruned: n('pruned') },
      deliveries24h: { ok: n('ok24'), error: n('err24') },
      outbox: { pending: n('pending'), failing: n('failing'), delivered24h: n('delivered24') },
      prematchSent: n('prematch_sent'),
      lastRun,
      pending,
    };
  }

  private sql(): SqlExec {
    const conn = this.orm.em.fork().getConnection();
    return <T>(q: string, params: readonly unknown[] = []) => conn.execute<T[]>(q, [...params]);
  }
}
