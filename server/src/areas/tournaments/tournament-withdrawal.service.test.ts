import { describe, expect, it } from 'vitest';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { ALICE, BOB, CREATOR, HOUR, UNIT, actor } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { DomainError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import type { StandingsService } from './tournament-standings.service.js';
import { WithdrawalService } from './tournament-withdrawal.service.js';
import { tournamentPoolId } from './vault-pools.js';

function setup() {
  const mem = new TournamentWorld();
  const vault = new PrizeVaultFake();
  const recomputed: string[] = [];
  const standings = { recompute: (id: string) => Promise.resolve(void recomputed.push(id)) };
  const service = new WithdrawalService(
    mem.db,
    vault,
    standings as unknown as StandingsService,
    mem.clock,
    createLogger('silent'),
  );
  const t = mem.liveFinal();
  const creator = mem.entry(t, CREATOR, { isCreator: true });
  const alice = mem.entry(t, ALICE, { amount: 7n * UNIT });
  return { mem, vault, service, recomputed, t, creator, alice };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => ({ code: 'ok' }),
    (e: unknown) => (e instanceof DomainError ? { code: e.code, details: e.details } : { code: String(e) }),
  );

describe('WithdrawalService', () => {
  it('removes the entry before the first lock and releases its stage-1 buy-in back under the deposit’s key', async () => {
    const { mem, vault, service, recomputed, t, alice } = setup();
    const res = await service.withdraw(actor(ALICE), t.id.toUpperCase());
    expect(res).toMatchObject({ tournamentId: t.id, wallet: ALICE, refunded: (7n * UNIT).toString(), hasEntry: false });
    expect(mem.tables.entries.map((e) => e.wallet)).toEqual([CREATOR]);
    expect(vault.of('release')).toEqual([
      {
        op: 'release',
        key: `tournaments:refund:${alice.depositTxHash}`,
        poolId: tournamentPoolId(t.id),
        to: ALICE,
        amount: 7n * UNIT,
        reason: 'entry-withdrawal',
      },
    ]);
    const deposit = mem.tables.deposits.find((d) => d.txHash === alice.depositTxHash);
    expect(deposit).toMatchObject({ refundedAt: new Date(mem.clock.now()), refundTxHash: res.txHash });
    expect(res.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(recomputed).toEqual([t.id]);
  });

  it('refuses a withdrawal at or after the first lock with ENTRY_LOCKED and the start time', async () => {
    const { mem, vault, service, t } = setup();
    mem.clock.advance(HOUR);
    expect(await refusal(service.withdraw(actor(ALICE), t.id))).toEqual({
      code: 'ENTRY_LOCKED',
      details: { startTime: t.startsAt.toISOString() },
    });
    expect(mem.tables.entries).toHaveLength(2);
    expect(vault.writes).toEqual([]);
  });

  it('refuses the creator’s withdrawal even before the lock, and anyone’s from a tournament no longer LIVE', async () => {
    const { mem, service, t } = setup();
    expect((await refusal(service.withdraw(actor(CREATOR), t.id))).code).toBe('ENTRY_LOCKED');
    t.status = 'CANCELED';
    expect((await refusal(service.withdraw(actor(ALICE), t.id))).code).toBe('ENTRY_LOCKED');
    expect(mem.tables.entries).toHaveLength(2);
  });

  it('checks LIVE under the tournament’s lock: a cancellation committed while it waited refuses the withdrawal', async () => {
    const { mem, vault, service, t } = setup();
    mem.onLock = (id) => {
      const row = mem.tables.tournaments.find((x) => x.id === id)!;
      Object.assign(row, { status: 'CANCELED', cancelledAt: new Date(mem.clock.now()) });
    };
    expect((await refusal(service.withdraw(actor(ALICE), t.id))).code).toBe('ENTRY_LOCKED');
    expect(mem.tables.entries.map((e) => e.wallet)).toEqual([CREATOR, ALICE]);
    expect(mem.tables.deposits.every((d) => d.refundedAt === null)).toBe(true);
    expect(vault.writes).toEqual([]);
  });

  it('refuses a wallet without an entry with NOT_ENTERED and an unknown tournament with NOT_FOUND', async () => {
    const { service, t } = setup();
    expect((await refusal(service.withdraw(actor(BOB), t.id))).code).toBe('NOT_ENTERED');
    expect(await refusal(service.withdraw(actor(ALICE), 'ffffffffffffffffffffffff'))).toEqual({
      code: 'NOT_FOUND',
      details: { tournamentId: 'ffffffffffffffffffffffff' },
    });
  });

  it('leaves without a refund when the entry’s deposit was never recorded', async () => {
    const { mem, vault, service, t, alice } = setup();
    mem.tables.deposits.splice(
      mem.tables.deposits.findIndex((d) => d.txHash === alice.depositTxHash),
      1,
    );
    expect(await service.withdraw(actor(ALICE), t.id)).toMatchObject({ refunded: '0', txHash: null, hasEntry: false });
    expect(vault.writes).toEqual([]);
  });

  it('still removes the entry when the release cannot be sent, and the sweep sends it once later', async () => {
    const { mem, vault, service, t, alice } = setup();
    vault.failWith = new Error('rpc down');
    const res = await service.withdraw(actor(ALICE), t.id);
    expect(res).toMatchObject({ refunded: (7n * UNIT).toString(), txHash: null });
    expect(mem.tables.entries.some((e) => e.id === alice.id)).toBe(false);

    expect(await service.retryRefunds()).toBe(0);
    vault.failWith = undefined;
    expect(await service.retryRefunds()).toBe(1);
    expect(await service.retryRefunds()).toBe(0);
    expect(vault.of('release').map((w) => [w.key, w.amount])).toEqual([
      [`tournaments:refund:${alice.depositTxHash}`, 7n * UNIT],
    ]);
    expect(mem.tables.deposits.find((d) => d.txHash === alice.depositTxHash)?.refundTxHash).toMatch(/^0x/);
  });
});
