import type { Address, Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../logger.js';
import { operationContext } from '../../platform/operation.context.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import { HOUR, T0, TID, UNIT, actorOf, at, codeOf, errorOf, signersOf } from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import type { StandingsService } from './tournament-standings.service.js';
import { EntryService } from './tournament-entry.service.js';
import { tournamentPoolId } from './vault-pools.js';

const creator = actorOf('a');
const alice = actorOf('b');
const bob = actorOf('c');
const walletOnly = actorOf('d', null);
const BUYIN = 5n * UNIT;
const EU = { country: 'DE', usdcAllowed: false };

function setup(balances: Record<string, bigint> = {}) {
  const world = new TournamentWorld();
  const vault = new PrizeVaultFake();
  const clock = new ManualClock(T0);
  const recomputed: string[] = [];
  const chain = {
    addresses: {
      credits: '0x0000000000000000000000000000000000000C7e' as Address,
      usdc: '0x0000000000000000000000000000000000000Dc0' as Address,
    },
    collateralBalance: (_kind: string, owner: Address) => Promise.resolve(balances[owner.toLowerCase()] ?? 0n),
  };
  const standings = {
    recompute: (id: string) => Promise.resolve(void recomputed.push(id)),
  } as unknown as StandingsService;
  const service = new EntryService(
    world.db,
    vault,
    chain,
    signersOf(alice, bob),
    standings,
    clock,
    createLogger('silent'),
  );
  const t = world.addTournament({ ownerWallet: creator.wallet, maxEntrants: 3 });
  world.addStage(1);
  world.addEntry(t.id, creator, { isCreator: true });
  const ctx = () => operationContext({ requestId: 'req', clock });
  /** A deposit the client sent itself, mined. */
  const paid = (from: Address, amount = BUYIN, stage = 1, poolId = tournamentPoolId(TID)): Hash =>
    vault.mined(vault.nextHash(), [{ collateral: 'credits', poolId, stage, from, amount }]);
  return { world, vault, clock, service, t, ctx, paid, recomputed };
}

/** Stage 1 finished, stage 2 costs 10 units and `entrant` is drawn into it. */
function drawnIntoPaidStage(s: ReturnType<typeof setup>, entrant = alice) {
  s.world.tables.stages[0]!.completedAt = at(30);
  const stage2 = s.world.addStage(2, { buyin: (10n * UNIT).toString() });
  const entry = s.world.addEntry(TID, entrant);
  s.world.addSeat(stage2.id, entry);
  s.clock.advance(48 * HOUR); // stage 2 opens at +48 h and locks for good at +50 h
  return { stage2, entry };
}

describe('EntryService', () => {
  it('finds a funded wallet eligible for stage 1 before the first lock', async () => {
    const { service, t } = setup({ [alice.wallet.toLowerCase()]: BUYIN });
    expect(await service.eligibility(t.id, alice.wallet, EU)).toMatchObject({
      eligible: true,
      reasons: [],
      stageIndex: 1,
      buyin: BUYIN.toString(),
    });
  });

  it('lists why a wallet cannot enter: closed, full, region, entered, balance', async () => {
    const { world, clock, service, t } = setup({ [alice.wallet.toLowerCase()]: BUYIN - 1n });
    const codes = async (wallet: string | null, region = EU) =>
      (await service.eligibility(t.id, wallet, region)).reasons.map((r) => r.code);
    expect(await codes(alice.wallet)).toEqual(['INSUFFICIENT_BALANCE']);
    expect(await codes(creator.wallet)).toEqual(['ALREADY_ENTERED']);
    expect(await codes(null)).toEqual(['WALLET_REQUIRED']);
    world.addEntry(t.id, bob);
    world.addEntry(t.id, walletOnly);
    world.tables.tournaments[0]!.stakeAsset = 'usdc';
    clock.advance(24 * HOUR);
    expect(await codes(null)).toEqual(['ENTRIES_CLOSED', 'TOURNAMENT_FULL', 'GEO_BLOCKED', 'WALLET_REQUIRED']);
    world.tables.tournaments[0]!.status = 'CANCELED';
    expect((await codes(null))[0]).toBe('NOT_LIVE');
  });

  it('quotes a paid create before the tournament exists, at least the minimum buy-in and only for stage 1', async () => {
    const { vault, service, ctx } = setup();
    const id = 'cd'.repeat(12);
    const quote = await service.deposit(ctx(), alice, id, {
      stakeAsset: 'credits',
      amount: BUYIN.toString(),
      execute: false,
    });
    expect(quote).toMatchObject({
      tournamentExists: false,
      stageIndex: 1,
      amount: BUYIN.toString(),
      poolId: tournamentPoolId(id),
      executed: false,
    });
    expect(quote.calls).toHaveLength(2);
    expect(await codeOf(service.deposit(ctx(), alice, id, { execute: false }))).toBe('NOT_FOUND');
    expect(
      await codeOf(
        service.deposit(ctx(), alice, id, { stakeAsset: 'credits', amount: (BUYIN - 1n).toString(), execute: false }),
      ),
    ).toBe('BUYIN_BELOW_MINIMUM');
    expect(
      await codeOf(
        service.deposit(ctx(), alice, id, {
          stakeAsset: 'credits',
          amount: BUYIN.toString(),
          stageIndex: 2,
          execute: false,
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(vault.writes).toEqual([]);
  });

  it('quotes the stage-1 buy-in of an existing tournament and refuses a body that does not match it', async () => {
    const { service, t, ctx } = setup();
    expect(await service.deposit(ctx(), alice, t.id, { execute: false })).toMatchObject({
      tournamentExists: true,
      stakeAsset: 'credits',
      amount: BUYIN.toString(),
    });
    const e = await errorOf(
      service.deposit(ctx(), alice, t.id, { stakeAsset: 'usdc', amount: UNIT.toString(), execute: false }),
    );
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(e.fieldErrors ?? {}).sort()).toEqual(['body.amount', 'body.stakeAsset']);
  });

  it('refuses a stage-1 deposit once entered, after the first lock, or of usdc from a blocked region', async () => {
    const { world, clock, service, t, ctx } = setup();
    expect(await codeOf(service.deposit(ctx(), creator, t.id, { execute: false }))).toBe('INVALID_STATE');
    world.tables.tournaments[0]!.stakeAsset = 'usdc';
    expect(await codeOf(service.deposit(ctx(), alice, t.id, { execute: false }, EU))).toBe('GEO_BLOCKED');
    clock.advance(24 * HOUR);
    expect(await codeOf(service.deposit(ctx(), alice, t.id, { execute: false }))).toBe('ENTRIES_CLOSED');
  });

  it('deposits from a managed wallet keyed by tournament, stage, wallet and count; never for a wallet credential', async () => {
    const { vault, service, t, ctx } = setup();
    const res = await service.deposit(ctx(), alice, t.id, { execute: true });
    expect(res).toMatchObject({ executed: true, txHash: vault.writes[0]?.hash });
    expect(vault.writes[0]).toMatchObject({
      method: 'deposit',
      amount: BUYIN,
      stage: 1,
      poolId: tournamentPoolId(t.id),
      key: `tournaments:deposit:${t.id}:1:${alice.wallet.toLowerCase()}:0:${BUYIN}`,
    });
    expect(await codeOf(service.deposit(ctx(), walletOnly, t.id, { execute: true }))).toBe('VALIDATION_FAILED');
    expect(vault.writes).toHaveLength(1);
  });

  it('quotes the paid later stage an entrant was drawn into', async () => {
    const s = setup();
    drawnIntoPaidStage(s);
    expect(await s.service.deposit(s.ctx(), alice, TID, { execute: false })).toMatchObject({
      stageIndex: 2,
      amount: (10n * UNIT).toString(),
    });
  });

  it('enters with a verified deposit: the entry is seeded after the creator and the standings recompute', async () => {
    const { world, service, t, paid, recomputed } = setup();
    const tx = paid(alice.wallet);
    const res = await service.enter(alice, t.id, { depositTxHash: tx, stageIndex: 1 });
    expect(res).toMatchObject({
      created: true,
      hasEntry: true,
      entry: { wallet: alice.wallet, seed: 2, isCreator: false },
    });
    expect(world.tables.deposits.find((d) => d.txHash === tx)).toMatchObject({
      purpose: 'entry',
      amount: BUYIN.toString(),
    });
    expect(world.tournament(t.id)?.prizePool).toBe((2n * BUYIN).toString());
    expect(recomputed).toEqual([t.id]);
    expect(world.locks).toEqual([t.id]); // capacity and seeds decided under the row lock
  });

  it('answers the same deposit again with the same entry, and refuses it for anyone or anything else', async () => {
    const { world, service, t, paid } = setup();
    const tx = paid(alice.wallet);
    await service.enter(alice, t.id, { depositTxHash: tx, stageIndex: 1 });
    expect(
      await service.enter(alice, t.id, { depositTxHash: tx.toUpperCase().replace('0X', '0x'), stageIndex: 1 }),
    ).toMatchObject({
      created: false,
      entry: { seed: 2 },
    });
    expect(await codeOf(service.enter(bob, t.id, { depositTxHash: tx, stageIndex: 1 }))).toBe('DEPOSIT_ALREADY_USED');
    expect(world.entriesOf(t.id)).toHaveLength(2);
  });

  it('refuses an entry naming another wallet with FORBIDDEN and a second deposit with ALREADY_ENTERED', async () => {
    const { service, t, paid } = setup();
    expect(
      await codeOf(
        service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), wallet: bob.wallet, stageIndex: 1 }),
      ),
    ).toBe('FORBIDDEN');
    await service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), stageIndex: 1 });
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), stageIndex: 1 }))).toBe(
      'ALREADY_ENTERED',
    );
  });

  it('refuses an entry after the first lock with ENTRIES_CLOSED, and into a full tournament with TOURNAMENT_FULL', async () => {
    const { world, clock, service, t, paid } = setup();
    world.addEntry(t.id, bob);
    world.addEntry(t.id, walletOnly);
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), stageIndex: 1 }))).toBe(
      'TOURNAMENT_FULL',
    );
    world.tables.entries.pop();
    clock.advance(24 * HOUR);
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), stageIndex: 1 }))).toBe(
      'ENTRIES_CLOSED',
    );
    clock.advance(-1);
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), stageIndex: 1 }))).toBe('ok');
  });

  it('refuses a full tournament before asking the chain about the deposit', async () => {
    const { world, vault, service, t } = setup();
    world.addEntry(t.id, bob);
    world.addEntry(t.id, walletOnly);
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: vault.nextHash(), stageIndex: 1 }))).toBe(
      'TOURNAMENT_FULL',
    );
  });

  it('checks the last seat and the first lock again under the lock, after the deposit is verified', async () => {
    const { world, vault, clock, service, t, paid } = setup();
    world.addEntry(t.id, bob);
    const verify = vault.receipt.bind(vault);
    // Another entrant takes the last seat while this deposit is being verified.
    vault.receipt = (tx) => (world.addEntry(t.id, walletOnly), verify(tx));
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), stageIndex: 1 }))).toBe(
      'TOURNAMENT_FULL',
    );
    world.tables.entries.pop();
    // The first lock passes while this deposit is being verified.
    vault.receipt = (tx) => (clock.advance(24 * HOUR), verify(tx));
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), stageIndex: 1 }))).toBe(
      'ENTRIES_CLOSED',
    );
    expect(world.entriesOf(t.id).map((e) => e.wallet)).toEqual([creator.wallet, bob.wallet]);
    expect(world.tables.deposits.filter((d) => d.wallet === alice.wallet)).toEqual([]);
  });

  it('records nothing for a deposit that is unmined, of the wrong amount, or sent by someone else', async () => {
    const { world, vault, service, t, paid } = setup();
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: vault.nextHash(), stageIndex: 1 }))).toBe(
      'DEPOSIT_PENDING',
    );
    const short = await errorOf(
      service.enter(alice, t.id, { depositTxHash: paid(alice.wallet, BUYIN - 1n), stageIndex: 1 }),
    );
    expect([short.code, short.details?.['reason']]).toEqual(['DEPOSIT_MISMATCH', 'amount']);
    const bobs = await errorOf(service.enter(alice, t.id, { depositTxHash: paid(bob.wallet), stageIndex: 1 }));
    expect([bobs.code, bobs.details?.['reason']]).toEqual(['DEPOSIT_MISMATCH', 'sender']);
    expect(await codeOf(service.enter(alice, t.id, { depositTxHash: paid(alice.wallet), stageIndex: 3 }))).toBe(
      'NOT_FOUND',
    );
    expect(world.entriesOf(t.id)).toHaveLength(1);
    expect(world.tables.deposits).toHaveLength(1);
  });

  it('pays a later stage once for a drawn entrant, marking the seat paid', async () => {
    const s = setup();
    const { stage2 } = drawnIntoPaidStage(s);
    const tx = s.paid(alice.wallet, 10n * UNIT, 2);
    const res = await s.service.enter(alice, TID, { depositTxHash: tx, stageIndex: 2 });
    expect(res).toMatchObject({ created: true, stageIndex: 2 });
    expect(s.world.tables.seats.find((x) => x.stageId === stage2.id)?.paidTxHash).toBe(tx.toLowerCase());
    expect(s.world.tables.deposits.find((d) => d.txHash === tx)).toMatchObject({ purpose: 'stage', stageIndex: 2 });
    // The same deposit again is a replay; another one is refused.
    expect(await s.service.enter(alice, TID, { depositTxHash: tx, stageIndex: 2 })).toMatchObject({ created: false });
    expect(
      await codeOf(s.service.enter(alice, TID, { depositTxHash: s.paid(alice.wallet, 10n * UNIT, 2), stageIndex: 2 })),
    ).toBe('ALREADY_ENTERED');
    // The entry's own deposit pays stage 1 only.
    const entryTx = s.world.entriesOf(TID).find((e) => e.wallet === alice.wallet)!.depositTxHash;
    expect(await codeOf(s.service.enter(alice, TID, { depositTxHash: entryTx, stageIndex: 2 }))).toBe(
      'DEPOSIT_ALREADY_USED',
    );
  });

  it('refuses a stage payment when the tournament is cancelled while the deposit is verified', async () => {
    const s = setup();
    const { stage2 } = drawnIntoPaidStage(s);
    const verify = s.vault.receipt.bind(s.vault);
    s.vault.receipt = (tx) => ((s.world.tables.tournaments[0]!.status = 'CANCELED'), verify(tx));
    const tx = s.paid(alice.wallet, 10n * UNIT, 2);
    expect(await codeOf(s.service.enter(alice, TID, { depositTxHash: tx, stageIndex: 2 }))).toBe('ENTRIES_CLOSED');
    expect(s.world.tables.seats.find((x) => x.stageId === stage2.id)?.paidTxHash).toBeNull();
    expect(s.world.tables.deposits.filter((d) => d.stageIndex === 2)).toEqual([]);
  });

  it('refuses a later stage to non-entrants, the eliminated, before it opens and once it is over', async () => {
    const s = setup();
    const { stage2 } = drawnIntoPaidStage(s);
    const pay = (who = alice) =>
      s.service.enter(who, TID, { depositTxHash: s.paid(who.wallet, 10n * UNIT, 2), stageIndex: 2 });
    expect(await codeOf(pay(bob))).toBe('NOT_ENTERED');
    expect(await codeOf(pay(creator))).toBe('ELIMINATED');
    s.world.tables.stages[0]!.completedAt = null;
    expect(await codeOf(pay())).toBe('STAGE_NOT_OPEN');
    s.world.tables.stages[0]!.completedAt = at(30);
    s.world.tables.stages.find((x) => x.id === stage2.id)!.completedAt = at(52);
    expect(await codeOf(pay())).toBe('STAGE_NOT_OPEN');
    s.world.tables.stages.find((x) => x.id === stage2.id)!.completedAt = null;
    s.world.tables.stages.find((x) => x.id === stage2.id)!.buyin = '0';
    expect(await codeOf(pay())).toBe('INVALID_STATE');
    expect(s.world.tables.seats[0]?.paidTxHash).toBeNull();
  });
});
