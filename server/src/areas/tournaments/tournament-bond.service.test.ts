import type { Address, Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../logger.js';
import { operationContext } from '../../platform/operation.context.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import {
  T0,
  UNIT,
  actorOf,
  codeOf,
  errorOf,
  idempotentRun,
  signersOf,
  tournamentSettings,
} from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { BondService } from './tournament-bond.service.js';
import { bondPoolId } from './vault-pools.js';

const creator = actorOf('a');
const walletOnly = actorOf('b', null);
const BOND = 10n * UNIT;
const EU = { country: 'DE', usdcAllowed: false };
const US = { country: 'US', usdcAllowed: true };

function setup(balances: Record<string, bigint> = {}) {
  const world = new TournamentWorld();
  const vault = new PrizeVaultFake();
  const clock = new ManualClock(T0);
  const chain = {
    addresses: {
      credits: '0x0000000000000000000000000000000000000C7e' as Address,
      usdc: '0x0000000000000000000000000000000000000Dc0' as Address,
    },
    collateralBalance: (_kind: string, owner: Address) => Promise.resolve(balances[owner.toLowerCase()] ?? 0n),
  };
  const service = new BondService(
    world.db,
    vault,
    chain,
    signersOf(creator),
    tournamentSettings(),
    createLogger('silent'),
  );
  const ctx = (run = idempotentRun('rec-1')) => operationContext({ requestId: 'req', clock, run });
  const plain = () => operationContext({ requestId: 'req', clock });
  /** A bond deposit the client sent itself, mined. */
  const clientDeposit = (from: Address, amount: bigint, pool = bondPoolId(from)) =>
    vault.mined(vault.nextHash(), [{ collateral: 'credits', poolId: pool, stage: 0, from, amount }]);
  return { world, vault, service, ctx, plain, clientDeposit };
}

describe('BondService', () => {
  it('is sufficient at the configured bond and locked while the creator has a LIVE tournament', async () => {
    const { world, service } = setup();
    world.setBond(creator.wallet, BOND - 1n);
    expect(await service.status(creator.wallet)).toMatchObject({
      sufficient: false,
      locked: false,
      deposited: (BOND - 1n).toString(),
    });
    world.setBond(creator.wallet, BOND);
    world.addTournament({ ownerWallet: creator.wallet });
    expect(await service.status(creator.wallet)).toMatchObject({
      sufficient: true,
      locked: true,
      liveTournaments: 1,
      required: BOND.toString(),
      poolId: bondPoolId(creator.wallet),
    });
  });

  it('refuses a creation whose creator bond is short with BOND_REQUIRED naming both amounts', async () => {
    const { world, service } = setup();
    world.setBond(creator.wallet, 4n * UNIT);
    const e = await errorOf(service.assertSufficient(world.repos, creator.wallet));
    expect(e.code).toBe('BOND_REQUIRED');
    expect(e.details).toEqual({ required: BOND.toString(), deposited: (4n * UNIT).toString(), asset: 'credits' });
    world.setBond(creator.wallet, BOND);
    expect(await codeOf(service.assertSufficient(world.repos, creator.wallet))).toBe('ok');
  });

  it('quotes the missing amount as approve and deposit calls without sending anything', async () => {
    const { world, vault, service, plain } = setup();
    world.setBond(creator.wallet, 3n * UNIT);
    const res = await service.deposit(plain(), creator, { execute: false });
    expect(res).toMatchObject({ amount: (7n * UNIT).toString(), txHash: null, recorded: false });
    expect(res.calls).toHaveLength(2);
    expect(vault.writes).toEqual([]);
  });

  it('deposits the missing bond from a managed wallet and counts it', async () => {
    const { world, vault, service, plain } = setup();
    world.setBond(creator.wallet, 3n * UNIT);
    const res = await service.deposit(plain(), creator, { execute: true });
    expect(res).toMatchObject({ amount: (7n * UNIT).toString(), recorded: true, bond: { sufficient: true } });
    expect(world.bond(creator.wallet)).toBe(BOND);
    expect(vault.writes).toMatchObject([
      { method: 'deposit', amount: 7n * UNIT, poolId: bondPoolId(creator.wallet), stage: 0 },
    ]);
    expect(vault.writes[0]?.key).toBe(`tournaments:bond-deposit:${creator.wallet.toLowerCase()}:0:${7n * UNIT}`);
  });

  it('keys a deposit under an Idempotency-Key by the request, so a retry finds its own write', async () => {
    const { world, vault, service, ctx } = setup();
    await service.deposit(ctx(), creator, { execute: true });
    // The takeover of the same request: its deposit counted already, the bond is full.
    const again = await service.deposit(ctx(idempotentRun('rec-1', true)), creator, { execute: true });
    expect(vault.writes).toHaveLength(1);
    expect(again.txHash).toBe(vault.writes[0]?.hash);
    expect(world.bond(creator.wallet)).toBe(BOND);
  });

  it('refuses to execute a deposit for a wallet credential or when the bond is already met', async () => {
    const { world, service, plain } = setup();
    const e = await errorOf(service.deposit(plain(), walletOnly, { execute: true }));
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(e.fieldErrors ?? {})).toEqual(['body.execute']);
    world.setBond(creator.wallet, BOND);
    expect(await codeOf(service.deposit(plain(), creator, { execute: true }))).toBe('INVALID_STATE');
    // Naming an amount adds to a full bond.
    expect(await service.deposit(plain(), creator, { execute: true, amount: UNIT.toString() })).toMatchObject({
      recorded: true,
    });
    expect(world.bond(creator.wallet)).toBe(BOND + UNIT);
  });

  it('counts a client-sent deposit once, however often it is reported', async () => {
    const { world, service, plain, clientDeposit } = setup();
    const tx = clientDeposit(walletOnly.wallet, 4n * UNIT);
    const first = await service.deposit(plain(), walletOnly, { execute: false, txHash: tx });
    const second = await service.deposit(plain(), walletOnly, { execute: false, txHash: tx });
    expect([first.recorded, second.recorded]).toEqual([true, true]);
    expect(second.amount).toBe((4n * UNIT).toString());
    expect(world.bond(walletOnly.wallet)).toBe(4n * UNIT);
    expect(world.tables.movements).toHaveLength(1);
  });

  it('counts a deposit once when two reports of it cross', async () => {
    const { world, vault, service, plain, clientDeposit } = setup();
    const tx = clientDeposit(walletOnly.wallet, 4n * UNIT);
    const verify = vault.receipt.bind(vault);
    // The other report records the deposit while this one is verifying it.
    vault.receipt = (hash) => {
      world.tables.movements.push({
        id: 'other',
        wallet: walletOnly.wallet,
        asset: 'credits',
        kind: 'deposit',
        amount: (4n * UNIT).toString(),
        txHash: tx,
        status: 'sent',
      });
      world.setBond(walletOnly.wallet, 4n * UNIT);
      return verify(hash);
    };
    expect(await service.deposit(plain(), walletOnly, { execute: false, txHash: tx })).toMatchObject({
      recorded: true,
    });
    expect(world.bond(walletOnly.wallet)).toBe(4n * UNIT);
  });

  it('refuses a deposit counted for another wallet, or that paid a tournament, with DEPOSIT_ALREADY_USED', async () => {
    const { world, service, plain, clientDeposit } = setup();
    const tx = clientDeposit(walletOnly.wallet, 4n * UNIT);
    await service.deposit(plain(), walletOnly, { execute: false, txHash: tx });
    expect(await codeOf(service.deposit(plain(), creator, { execute: false, txHash: tx }))).toBe(
      'DEPOSIT_ALREADY_USED',
    );
    const t = world.addTournament();
    const entry = world.addEntry(t.id, creator);
    const e = await errorOf(service.deposit(plain(), creator, { execute: false, txHash: entry.depositTxHash }));
    expect(e.code).toBe('DEPOSIT_ALREADY_USED');
    expect(e.details).toMatchObject({ usedFor: 'tournament' });
    expect(world.bond(creator.wallet)).toBe(0n);
  });

  it('refuses an unmined deposit with DEPOSIT_PENDING and one to another pool with DEPOSIT_MISMATCH', async () => {
    const { world, vault, service, plain, clientDeposit } = setup();
    expect(await codeOf(service.deposit(plain(), walletOnly, { execute: false, txHash: vault.nextHash() }))).toBe(
      'DEPOSIT_PENDING',
    );
    const elsewhere = clientDeposit(walletOnly.wallet, UNIT, bondPoolId(creator.wallet));
    const e = await errorOf(service.deposit(plain(), walletOnly, { execute: false, txHash: elsewhere }));
    expect(e.code).toBe('DEPOSIT_MISMATCH');
    expect(e.details).toMatchObject({ reason: 'pool' });
    expect(world.bond(walletOnly.wallet)).toBe(0n);
  });

  it('answers an executed deposit that is not mined yet as sent but not recorded', async () => {
    const { vault, service, plain } = setup();
    const sent: Hash = vault.nextHash();
    vault.deposit = () => Promise.resolve(sent); // accepted by the node, no receipt yet
    const res = await service.deposit(plain(), creator, { execute: true });
    expect(res).toMatchObject({ txHash: sent, recorded: false, bond: { deposited: '0' } });
  });

  it('refuses a withdrawal while the creator has a LIVE tournament with BOND_LOCKED', async () => {
    const { world, vault, service, plain } = setup();
    world.setBond(creator.wallet, BOND);
    world.addTournament({ ownerWallet: creator.wallet });
    expect(await codeOf(service.withdraw(plain(), creator, {}))).toBe('BOND_LOCKED');
    expect(world.bond(creator.wallet)).toBe(BOND);
    expect(vault.writes).toEqual([]);
  });

  it('refuses to withdraw nothing or more than the bond holds with INSUFFICIENT_BOND', async () => {
    const { world, service, plain } = setup();
    world.setBond(creator.wallet, BOND);
    expect(await codeOf(service.withdraw(plain(), creator, { amount: (BOND + 1n).toString() }))).toBe(
      'INSUFFICIENT_BOND',
    );
    expect(await codeOf(service.withdraw(plain(), creator, { amount: '0' }))).toBe('INSUFFICIENT_BOND');
    world.setBond(creator.wallet, 0n);
    expect(await codeOf(service.withdraw(plain(), creator, {}))).toBe('INSUFFICIENT_BOND');
    expect(world.tables.movements).toEqual([]);
  });

  it('withdraws the whole bond by default, released to the wallet keyed by its movement', async () => {
    const { world, vault, service, plain } = setup();
    world.setBond(creator.wallet, BOND);
    world.addTournament({ ownerWallet: creator.wallet, status: 'COMPLETED' });
    const res = await service.withdraw(plain(), creator, {});
    expect(res).toMatchObject({ amount: BOND.toString(), bond: { deposited: '0' } });
    const [m] = world.tables.movements;
    expect(m).toMatchObject({ kind: 'withdrawal', status: 'sent', txHash: res.txHash });
    expect(vault.writes).toEqual([
      expect.objectContaining({
        method: 'release',
        to: creator.wallet,
        amount: BOND,
        poolId: bondPoolId(creator.wallet),
        key: `tournaments:bond-withdraw:${m?.id}`,
      }),
    ]);
  });

  it('keeps a withdrawal that could not be sent pending, and the sweep sends it once', async () => {
    const { world, vault, service, plain } = setup();
    world.setBond(creator.wallet, BOND);
    vault.failWith = new Error('node down');
    const res = await service.withdraw(plain(), creator, { amount: (4n * UNIT).toString() });
    expect(res.txHash).toBeNull();
    expect(world.bond(creator.wallet)).toBe(6n * UNIT);
    expect(world.tables.movements[0]?.status).toBe('pending');
    expect(await service.retryWithdrawals()).toBe(0);
    vault.failWith = undefined;
    expect(await service.retryWithdrawals()).toBe(1);
    expect(await service.retryWithdrawals()).toBe(0);
    expect(world.tables.movements[0]?.status).toBe('sent');
    expect(vault.writes.map((w) => w.amount)).toEqual([4n * UNIT]);
  });

  it('a retried withdrawal under the same Idempotency-Key finds its movement instead of deciding another', async () => {
    const { world, vault, service, ctx } = setup();
    world.setBond(creator.wallet, BOND);
    vault.failWith = new Error('node down');
    await service.withdraw(ctx(), creator, { amount: (4n * UNIT).toString() });
    vault.failWith = undefined;
    const again = await service.withdraw(ctx(idempotentRun('rec-1', true)), creator, {
      amount: (4n * UNIT).toString(),
    });
    expect(again.txHash).toBe(vault.writes[0]?.hash);
    expect(world.tables.movements).toHaveLength(1);
    expect(world.bond(creator.wallet)).toBe(6n * UNIT);
  });

  it('lists every reason a paid create would fail before the creator spends anything', async () => {
    const { world, service } = setup({ [creator.wallet.toLowerCase()]: 4n * UNIT });
    const bad = await service.createFlowEligibility(
      { stakeAsset: 'usdc', stage1BuyinRaw: (5n * UNIT - 1n).toString(), minEntriesToActivate: 1 },
      creator.wallet,
      EU,
    );
    expect(bad.canProceed).toBe(false);
    expect(bad.reasons.map((r) => r.code)).toEqual([
      'BUYIN_BELOW_MINIMUM',
      'MIN_ENTRIES_INVALID',
      'GEO_BLOCKED',
      'BOND_REQUIRED',
      'INSUFFICIENT_BALANCE',
    ]);
    expect(
      (
        await service.createFlowEligibility(
          { stakeAsset: 'credits', stage1BuyinRaw: '0', minEntriesToActivate: 257 },
          null,
          US,
        )
      ).reasons.map((r) => r.code),
    ).toEqual(['BUYIN_BELOW_MINIMUM', 'MIN_ENTRIES_INVALID', 'WALLET_REQUIRED']);
    world.setBond(creator.wallet, BOND);
    const good = await service.createFlowEligibility(
      { stakeAsset: 'usdc', stage1BuyinRaw: (4n * UNIT).toString(), minEntriesToActivate: 2 },
      creator.wallet,
      US,
    );
    expect(good.reasons.map((r) => r.code)).toEqual(['BUYIN_BELOW_MINIMUM']);
    expect(
      (
        await service.createFlowEligibility(
          { stakeAsset: 'credits', stage1BuyinRaw: (4n * UNIT).toString(), minEntriesToActivate: 256 },
          creator.wallet,
          EU,
        )
      ).reasons,
    ).toEqual([expect.objectContaining({ code: 'BUYIN_BELOW_MINIMUM' })]);
  });

  it('accepts a create at the minimum buy-in with a full bond and balance', async () => {
    const { world, service } = setup({ [creator.wallet.toLowerCase()]: 5n * UNIT });
    world.setBond(creator.wallet, BOND);
    const res = await service.createFlowEligibility(
      { stakeAsset: 'credits', stage1BuyinRaw: (5n * UNIT).toString(), minEntriesToActivate: 2 },
      creator.wallet,
      EU,
    );
    expect(res).toMatchObject({ canProceed: true, reasons: [], minimumBuyin: (5n * UNIT).toString() });
  });

  it('makes a creator eligible once the bond is full, and asks for a wallet without one', async () => {
    const { world, service } = setup();
    expect(await service.creatorEligibility(null)).toMatchObject({
      eligible: false,
      reasons: [{ code: 'WALLET_REQUIRED' }],
    });
    expect((await service.creatorEligibility(creator.wallet)).reasons.map((r) => r.code)).toEqual(['BOND_REQUIRED']);
    world.setBond(creator.wallet, BOND);
    expect(await service.creatorEligibility(creator.wallet)).toMatchObject({ eligible: true, reasons: [] });
  });
});
