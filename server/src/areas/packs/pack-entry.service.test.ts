import { describe, expect, it } from 'vitest';
import { HOUR, PackWorld, UNIT, type PackUser } from '../../../test/fakes/pack-world.js';
import { DomainError } from '../../errors.js';
import { operationContext } from '../../platform/operation.context.js';

/** A published pack (fee 10, lock in a day) of two 50/50 markets; Alice holds 100 credits, Bob 5. */
function setup() {
  const w = new PackWorld();
  const [m1, m2] = [w.market(), w.market()];
  const pack = w.pack({ markets: [m1, m2] });
  const alice = w.user('alice');
  const bob = w.user('bob', 5n);
  return { w, pack, m1, m2, alice, bob };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => ({ code: 'ok' }),
    (e: unknown) =>
      e instanceof DomainError ? { code: e.code, details: e.details, fieldErrors: e.fieldErrors } : { code: String(e) },
  );

/** A context of a request whose Idempotency-Key run took over a dead execution that had started its effect. */
function resumedContext(w: PackWorld) {
  return operationContext({
    requestId: 'req-resumed',
    clock: w.clock,
    run: {
      recordId: 'rec-1',
      successStatus: 201,
      shape: (b) => b,
      resumed: true,
      names: new Set(),
      scoped: new Map(),
      effectStarted: true,
      pending: undefined,
    },
  });
}

describe('PackEntryService', () => {
  describe('entering', () => {
    it('deposits the entry fee from the managed wallet into the pack’s pool and confirms the entry once verified', async () => {
      const { w, pack, alice } = setup();
      const entry = await w.entries.enter(w.context(), alice, pack.id);
      expect(entry).toMatchObject({
        packId: pack.id,
        userAddress: alice.address,
        status: 'confirmed',
        amount: (10n * UNIT).toString(),
      });
      expect(w.vault.of('deposit')).toEqual([
        {
          op: 'deposit',
          key: `packs:enter:${pack.id}:${alice.userId}:1`,
          poolId: pack.poolId,
          from: alice.address,
          amount: 10n * UNIT,
        },
      ]);
      expect((await w.packs.get(pack.id, undefined)).entrants).toBe(1);
    });

    it('refuses a second entry with ALREADY_ENTERED and the entry, sending nothing more', async () => {
      const { w, pack, alice } = setup();
      await w.entries.enter(w.context(), alice, pack.id);
      const res = await refusal(w.entries.enter(w.context(), alice, pack.id));
      expect(res).toMatchObject({
        code: 'ALREADY_ENTERED',
        details: { packId: pack.id, entry: { status: 'confirmed' } },
      });
      expect(w.vault.of('deposit')).toHaveLength(1);
    });

    it('refuses a wallet that cannot pay the fee with INSUFFICIENT_CREDITS and records nothing', async () => {
      const { w, pack, bob } = setup();
      const res = await refusal(w.entries.enter(w.context(), bob, pack.id));
      expect(res).toEqual({
        code: 'INSUFFICIENT_CREDITS',
        details: { required: (10n * UNIT).toString(), available: (5n * UNIT).toString(), collateralStack: 'credits' },
        fieldErrors: undefined,
      });
      expect(w.repo.entryRows).toEqual([]);
      expect(w.vault.writes).toEqual([]);
    });

    it('leaves no entry behind when the deposit cannot be sent', async () => {
      const { w, pack, alice } = setup();
      w.vault.failWith = new DomainError('INSUFFICIENT_CREDITS', 'pre-flight refused');
      expect((await refusal(w.entries.enter(w.context(), alice, pack.id))).code).toBe('INSUFFICIENT_CREDITS');
      expect(w.repo.entryRows).toEqual([]);
      w.vault.failWith = undefined;
      expect((await w.entries.enter(w.context(), alice, pack.id)).status).toBe('confirmed');
    });

    it('fails an entry whose deposit reverted, and enters again under a new attempt’s key', async () => {
      const { w, pack, alice } = setup();
      w.vault.depositOutcome = 'reverted';
      const first = await w.entries.enter(w.context(), alice, pack.id);
      expect(first).toMatchObject({ status: 'failed', failureReason: 'the deposit transaction reverted' });
      w.vault.depositOutcome = 'success';
      expect((await w.entries.enter(w.context(), alice, pack.id)).status).toBe('confirmed');
      expect(w.vault.of('deposit').map((d) => d.key)).toEqual([
        `packs:enter:${pack.id}:${alice.userId}:1`,
        `packs:enter:${pack.id}:${alice.userId}:2`,
      ]);
    });

    it('fails an entry whose transaction holds no matching deposit (another pool)', async () => {
      const { w, pack, alice } = setup();
      w.vault.depositOutcome = 'pending';
      const entry = await w.entries.enter(w.context(), alice, pack.id);
      expect(entry.status).toBe('pending');
      w.vault.receipts.set(entry.txHash!, {
        status: 'success',
        sender: alice.address,
        deposits: [
          {
            collateral: 'credits',
            poolId: `0x${'00'.repeat(32)}`,
            stage: 0,
            from: alice.address,
            amount: 10n * UNIT,
            txHash: entry.txHash as `0x${string}`,
            logIndex: 0,
            blockNumber: 1n,
          },
        ],
        claims: [],
      });
      expect(await w.entries.verifyPending(pack.id)).toEqual({ confirmed: 0, failed: 1 });
      expect(w.repo.entryRows[0]).toMatchObject({
        status: 'failed',
        failureReason: 'the transaction holds no matching deposit (pool, amount, sender)',
      });
    });

    it('keeps an entry pending until its deposit is mined, then confirms it on the next verification', async () => {
      const { w, pack, alice } = setup();
      w.vault.depositOutcome = 'pending';
      const entry = await w.entries.enter(w.context(), alice, pack.id);
      expect(await w.entries.verifyPending(null)).toEqual({ confirmed: 0, failed: 0 });
      const receipt = w.vault.receipts.get(entry.txHash!)!;
      w.vault.receipts.set(entry.txHash!, {
        ...receipt,
        status: 'success',
        sender: alice.address,
        deposits: [
          {
            collateral: 'credits',
            poolId: pack.poolId as `0x${string}`,
            stage: 0,
            from: alice.address,
            amount: 10n * UNIT,
            txHash: entry.txHash as `0x${string}`,
            logIndex: 0,
            blockNumber: 1n,
          },
        ],
      });
      expect(await w.entries.verifyPending(null)).toEqual({ confirmed: 1, failed: 0 });
      expect(w.repo.entryRows[0]?.status).toBe('confirmed');
    });

    it('resumes an entry whose deposit was never recorded under the same write key, paying once', async () => {
      const { w, pack, alice } = setup();
      // A request that died after recording the entry and before recording its deposit.
      await w.repo.insertEntry({
        id: 'e-1',
        packId: pack.id,
        userId: alice.userId,
        account: alice.address,
        amount: pack.entryFee,
      });
      const entry = await w.entries.enter(w.context(), alice, pack.id);
      expect(entry.status).toBe('confirmed');
      expect(w.vault.of('deposit').map((d) => d.key)).toEqual([`packs:enter:${pack.id}:${alice.userId}:1`]);
    });

    it('answers the recorded entry to a resumed request instead of ALREADY_ENTERED', async () => {
      const { w, pack, alice } = setup();
      w.vault.depositOutcome = 'pending';
      await w.entries.enter(w.context(), alice, pack.id);
      expect((await refusal(w.entries.enter(w.context(), alice, pack.id))).code).toBe('ALREADY_ENTERED');
      const resumed = await w.entries.enter(resumedContext(w), alice, pack.id);
      expect(resumed).toMatchObject({ status: 'pending', userAddress: alice.address });
      expect(w.vault.of('deposit')).toHaveLength(1);
    });

    it('takes entries only while the pack is published and before lockAt', async () => {
      const { w, pack, alice } = setup();
      expect((await refusal(w.entries.enter(w.context(), alice, w.pack({ status: 'draft' }).id))).code).toBe(
        'PACK_NOT_OPEN',
      );
      expect((await refusal(w.entries.enter(w.context(), alice, w.pack({ status: 'settled' }).id))).code).toBe(
        'PACK_NOT_OPEN',
      );
      expect((await refusal(w.entries.enter(w.context(), alice, w.pack({ status: 'locked' }).id))).code).toBe(
        'PACK_LOCKED',
      );
      w.clock.advance(24 * HOUR);
      expect(await refusal(w.entries.enter(w.context(), alice, pack.id))).toMatchObject({
        code: 'PACK_LOCKED',
        details: { status: 'published', lockAt: pack.lockAt.toISOString() },
      });
      expect(w.vault.writes).toEqual([]);
    });

    it('refuses a usdc pack from a region where usdc is blocked with GEO_BLOCKED', async () => {
      const { w, alice } = setup();
      const usdc = w.pack({ markets: [w.market()] });
      usdc.collateral = 'usdc';
      const blocked: PackUser = { ...alice, region: { country: 'US', usdcAllowed: false } };
      expect((await refusal(w.entries.enter(w.context(), blocked, usdc.id))).code).toBe('GEO_BLOCKED');
      expect(w.repo.entryRows).toEqual([]);
    });
  });

  describe('picking', () => {
    it('prices each pick at its option’s current price: a correct pick scores floor(10000 × (1 − p))', async () => {
      const { w, pack, m1, m2, alice } = setup();
      await w.entries.enter(w.context(), alice, pack.id);
      m2.poolBalances = [(100n * UNIT).toString(), (300n * UNIT).toString()];
      const res = await w.entries.pick(alice, pack.id, [
        { marketId: m1.duelId, optionIndex: 0 },
        { marketId: m2.duelId.toUpperCase().replace('0X', '0x'), optionIndex: 1 },
      ]);
      expect(res.picks.map((p) => [p.optionLabel, p.price, p.pointsIfCorrect, p.result])).toEqual([
        ['Home', (UNIT / 2n).toString(), 5000, 'pending'],
        ['Away', (UNIT / 4n).toString(), 7500, 'pending'],
      ]);
      expect(res).toMatchObject({ final: false, changeableUntil: pack.lockAt.toISOString() });
    });

    it('replaces a pick, pricing it again at the new moment', async () => {
      const { w, pack, m1, alice } = setup();
      await w.entries.enter(w.context(), alice, pack.id);
      await w.entries.pick(alice, pack.id, [{ marketId: m1.duelId, optionIndex: 0 }]);
      m1.poolBalances = [(100n * UNIT).toString(), (300n * UNIT).toString()];
      w.clock.advance(HOUR);
      const res = await w.entries.pick(alice, pack.id, [{ marketId: m1.duelId, optionIndex: 0 }]);
      expect(res.picks).toHaveLength(1);
      expect(res.picks[0]).toMatchObject({ pointsIfCorrect: 2500, pickedAt: new Date(w.clock.now()).toISOString() });
      expect(w.repo.pickRows).toHaveLength(1);
    });

    it('refuses picks without a confirmed entry: NOT_ENTERED, or ENTRY_PENDING while the deposit is unverified', async () => {
      const { w, pack, m1, alice, bob } = setup();
      const picks = [{ marketId: m1.duelId, optionIndex: 0 }];
      expect((await refusal(w.entries.pick(bob, pack.id, picks))).code).toBe('NOT_ENTERED');
      w.vault.depositOutcome = 'pending';
      await w.entries.enter(w.context(), alice, pack.id);
      expect((await refusal(w.entries.pick(alice, pack.id, picks))).code).toBe('ENTRY_PENDING');
      w.repo.entryRows[0]!.status = 'failed';
      expect((await refusal(w.entries.pick(alice, pack.id, picks))).code).toBe('NOT_ENTERED');
      expect(w.repo.pickRows).toEqual([]);
    });

    it('refuses a market outside the pack, an option it does not have, and a voided market', async () => {
      const { w, pack, m1, m2, alice } = setup();
      await w.entries.enter(w.context(), alice, pack.id);
      const foreign = await refusal(w.entries.pick(alice, pack.id, [{ marketId: w.market().duelId, optionIndex: 0 }]));
      expect(foreign).toMatchObject({
        code: 'VALIDATION_FAILED',
        fieldErrors: { 'body.picks.0.marketId': ['is not a market of this pack'] },
      });
      const option = await refusal(
        w.entries.pick(alice, pack.id, [
          { marketId: m1.duelId, optionIndex: 0 },
          { marketId: m2.duelId, optionIndex: 2 },
        ]),
      );
      expect(option).toMatchObject({
        code: 'VALIDATION_FAILED',
        fieldErrors: { 'body.picks.1.optionIndex': ['must be below 2'] },
      });
      m2.status = 'cancelled';
      expect((await refusal(w.entries.pick(alice, pack.id, [{ marketId: m2.duelId, optionIndex: 0 }]))).code).toBe(
        'INVALID_STATE',
      );
      expect(w.repo.pickRows).toEqual([]);
    });

    it('refuses picks once the pack’s lockAt has passed with PACK_LOCKED', async () => {
      const { w, pack, m1, alice } = setup();
      await w.entries.enter(w.context(), alice, pack.id);
      w.clock.advance(24 * HOUR);
      expect((await refusal(w.entries.pick(alice, pack.id, [{ marketId: m1.duelId, optionIndex: 0 }]))).code).toBe(
        'PACK_LOCKED',
      );
    });

    it('estimates what picks would score without recording them, but not on a draft', async () => {
      const { w, pack, m1 } = setup();
      const est = await w.entries.estimate(pack.id, [{ marketId: m1.duelId, optionIndex: 1 }]);
      expect(est).toMatchObject({ pointsIfAllCorrect: 5000, pricedAt: new Date(w.clock.now()).toISOString() });
      expect(w.repo.pickRows).toEqual([]);
      expect((await refusal(w.entries.estimate(w.pack({ status: 'draft' }).id, []))).code).toBe('INVALID_STATE');
    });
  });

  describe('my pack', () => {
    it('scores my picks as markets are decided: a win its locked points, a loss or a void nothing', async () => {
      const { w, pack, m1, m2, alice } = setup();
      await w.entries.enter(w.context(), alice, pack.id);
      await w.entries.pick(alice, pack.id, [
        { marketId: m1.duelId, optionIndex: 0 },
        { marketId: m2.duelId, optionIndex: 1 },
      ]);
      Object.assign(m1, { status: 'settled', winningOptionIndex: 0 });
      const me = await w.entries.me(alice, pack.id);
      expect(me.picks.map((p) => [p.result, p.points])).toEqual([
        ['won', 5000],
        ['pending', null],
      ]);
      expect(me).toMatchObject({ points: 5000, rank: null, payout: null, refund: null });
      m2.status = 'cancelled';
      expect((await w.entries.me(alice, pack.id)).picks.map((p) => [p.result, p.points])).toEqual([
        ['won', 5000],
        ['void', 0],
      ]);
    });

    it('shows my refund once the pack is cancelled, and nothing of an entry I never made', async () => {
      const { w, pack, alice, bob } = setup();
      await w.entries.enter(w.context(), alice, pack.id);
      w.repo.packs.get(pack.id)!.status = 'cancelled';
      expect(await w.entries.me(alice, pack.id)).toMatchObject({ refund: (10n * UNIT).toString(), payout: null });
      expect(await w.entries.me(bob, pack.id)).toMatchObject({ entry: null, picks: [], points: 0, refund: null });
    });
  });
});
