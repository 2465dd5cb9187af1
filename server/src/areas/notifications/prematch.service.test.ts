import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type { OutboxRow, PrematchCandidate } from './notification.repository.js';
import {
  PREMATCH_KIND,
  PrematchService,
  prematchKey,
  type OutboxDeliverer,
  type PrematchStore,
} from './prematch.service.js';

const MINUTE = 60_000;

/** The outbox as the repository keeps it: one row per dedupe key, a claimed row is not claimed again. */
class OutboxStore implements PrematchStore {
  readonly fixtures: (PrematchCandidate & { finished?: boolean })[] = [];
  readonly rows = new Map<string, OutboxRow & { claimed: boolean }>();
  readonly runs: Parameters<PrematchStore['recordPrematchRun']>[0][] = [];

  prematchCandidates(from: Date, to: Date) {
    return Promise.resolve(
      this.fixtures
        .filter((f) => !f.finished && f.starts_at > from && f.starts_at <= to)
        .map(({ finished: _, ...c }) => c),
    );
  }

  fixturesBetween(from: Date, to: Date) {
    const inWindow = this.fixtures.filter((f) => !f.finished && f.starts_at > from && f.starts_at <= to);
    return Promise.resolve(new Set(inWindow.map((f) => f.provider_fixture_id)).size);
  }

  enqueue(n: Parameters<PrematchStore['enqueue']>[0]) {
    if (this.rows.has(n.dedupeKey)) return Promise.resolve(undefined);
    const id = `n${this.rows.size + 1}`;
    this.rows.set(n.dedupeKey, {
      id,
      user_id: n.userId,
      kind: n.kind,
      payload: { title: n.title, body: n.body, data: n.data },
      claimed: false,
    });
    return Promise.resolve(id);
  }

  claim(limit: number, kind?: string) {
    const taken = [...this.rows.values()].filter((r) => !r.claimed && (!kind || r.kind === kind)).slice(0, limit);
    for (const r of taken) r.claimed = true;
    return Promise.resolve(taken.map(({ claimed: _, ...r }) => r));
  }

  recordPrematchRun(r: Parameters<PrematchStore['recordPrematchRun']>[0]) {
    this.runs.push(r);
    return Promise.resolve();
  }
}

class Deliveries implements OutboxDeliverer {
  readonly sent: OutboxRow[] = [];
  deliverClaimed(claimed: readonly OutboxRow[]) {
    this.sent.push(...claimed);
    return Promise.resolve(claimed.length);
  }
}

describe('the pre-match cycle', () => {
  let clock: ManualClock;
  let store: OutboxStore;
  let deliveries: Deliveries;
  let cycle: PrematchService;
  const fixture = (user: string, id: string, inMinutes: number): PrematchCandidate => ({
    user_id: user,
    provider_fixture_id: id,
    title: `Fixture ${id}`,
    starts_at: new Date(clock.now() + inMinutes * MINUTE),
  });

  beforeEach(() => {
    clock = new ManualClock();
    store = new OutboxStore();
    deliveries = new Deliveries();
    cycle = new PrematchService(store, deliveries, { windowMinutes: 30, intervalMs: 5 * MINUTE });
  });

  it('reminds each user of a fixture starting within the window, with the minutes left', async () => {
    store.fixtures.push(fixture('u1', 'f1', 20), fixture('u2', 'f1', 20), fixture('u1', 'f2', 45));
    const run = await cycle.run(new Date(clock.now()));
    expect(run).toMatchObject({ windowMinutes: 30, fixtures: 1, candidates: 2, enqueued: 2, delivered: 2 });
    expect(deliveries.sent.map((r) => [r.user_id, r.kind, r.payload.body])).toEqual([
      ['u1', PREMATCH_KIND, 'Fixture f1 starts in 20 min: check your picks.'],
      ['u2', PREMATCH_KIND, 'Fixture f1 starts in 20 min: check your picks.'],
    ]);
    expect(deliveries.sent[0]?.payload.data).toEqual({
      fixtureId: 'f1',
      startsAt: new Date(clock.now() + 20 * MINUTE).toISOString(),
    });
  });

  it('reminds once per user and fixture however often it runs, and picks up a fixture as it enters the window', async () => {
    store.fixtures.push(fixture('u1', 'f1', 20), fixture('u1', 'f2', 45));
    await cycle.run(new Date(clock.now()));
    clock.advance(5 * MINUTE);
    const second = await cycle.run(new Date(clock.now()));
    expect(second).toMatchObject({ candidates: 1, enqueued: 0, delivered: 0 });

    // f2 (45 min out at the start) is inside the 30-minute window 20 minutes later.
    clock.advance(15 * MINUTE);
    const third = await cycle.run(new Date(clock.now()));
    expect(third).toMatchObject({ enqueued: 1, delivered: 1 });
    expect(deliveries.sent.map((r) => r.payload.body)).toEqual([
      'Fixture f1 starts in 20 min: check your picks.',
      'Fixture f2 starts in 25 min: check your picks.',
    ]);
    expect([...store.rows.keys()]).toEqual([
      prematchKey({ user_id: 'u1', provider_fixture_id: 'f1' }),
      prematchKey({ user_id: 'u1', provider_fixture_id: 'f2' }),
    ]);
  });

  it('delivers a backlog larger than one claim in batches of fifty', async () => {
    for (let i = 0; i < 120; i++) store.fixtures.push(fixture(`u${i}`, 'f1', 10));
    const run = await cycle.run(new Date(clock.now()));
    expect(run).toMatchObject({ candidates: 120, enqueued: 120, delivered: 120 });
    expect(new Set(deliveries.sent.map((r) => r.id)).size).toBe(120);
  });

  it('records every run, including one with nothing to do', async () => {
    await cycle.run(new Date(clock.now()));
    expect(store.runs).toEqual([
      {
        windowMinutes: 30,
        fixtures: 0,
        candidates: 0,
        enqueued: 0,
        delivered: 0,
        ranAt: new Date(clock.now()),
      },
    ]);
  });
});
