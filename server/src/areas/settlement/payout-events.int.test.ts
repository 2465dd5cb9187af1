import { EVENT_CATALOGUE } from '@duelkit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDuel } from '../../../test/support/duel-fixture.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { DistributionLedgerRepository } from './distribution-ledger.repository.js';

/** `payout.claimable` (docs/events.md): written with the payout entry that makes a payout claimable, once. */

let server: TestServer;
let app: string;

beforeAll(async () => {
  server = await startTestServer();
  app = (await server.container.builderKeys.resolve(server.builderKey))?.builderAppId as string;
}, 120_000);
afterAll(() => server?.close());

const eventsOf = (duelId: string) =>
  server.container.orm.em
    .fork()
    .getConnection()
    .execute<{ type: string; builder_app_id: string; is_private: boolean; data: Record<string, unknown> }[]>(
      `select type, builder_app_id, is_private, data from events where duel_id = ? order by data->>'account'`,
      [duelId],
    );

describe('payout.claimable', () => {
  it('is written once per market and account with the payout entry, never for a refund entry', async () => {
    const db = server.container.orm.em.fork().getConnection();
    const winner = '0x00000000000000000000000000000000000000A1';
    const creator = '0x00000000000000000000000000000000000000c2';
    const duelId = await insertDuel(db, {
      builderAppId: app,
      creator,
      status: 'settled',
      winningOptionIndex: 1,
      isPrivate: true,
    });
    const ledger = new DistributionLedgerRepository(server.container.orm);
    const at = new Date('2026-01-02T03:04:05.000Z');
    const entry = { duelId, kind: 'payout' as const, batchId: null, at };
    // The sweep and a requeue both ensure the entries: the second pass changes nothing.
    for (let pass = 0; pass < 2; pass++) {
      await ledger.ensureEntry({ ...entry, holder: winner, isCreator: false });
      await ledger.ensureEntry({ ...entry, holder: creator, isCreator: true });
    }
    await ledger.ensureEntry({ ...entry, kind: 'refund', holder: winner, isCreator: false });
    const events = await eventsOf(duelId);
    expect(events).toEqual([
      {
        type: 'payout.claimable',
        builder_app_id: app,
        is_private: true,
        data: { duelId, account: winner, isCreator: false, winningOptionIndex: 1, collateralStack: 'credits' },
      },
      {
        type: 'payout.claimable',
        builder_app_id: app,
        is_private: true,
        data: { duelId, account: creator, isCreator: true, winningOptionIndex: 1, collateralStack: 'credits' },
      },
    ]);
    for (const e of events) expect(EVENT_CATALOGUE['payout.claimable'].data.safeParse(e.data).success).toBe(true);
    const [created] = await db.execute<{ created_at: Date }[]>(
      `select created_at from events where duel_id = ? limit 1`,
      [duelId],
    );
    expect(new Date(created?.created_at ?? 0).toISOString()).toBe(at.toISOString());
  });
});
