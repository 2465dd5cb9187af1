import type { Address, Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { memoryDistributionBook } from '../../../test/fakes/distribution-book.fake.js';
import { PrizeVaultFake } from '../../../test/fakes/prize-vault.fake.js';
import {
  HOUR,
  T0,
  TID,
  UNIT,
  actorOf,
  at,
  codeOf,
  errorOf,
  tournamentSettings,
} from '../../../test/fakes/tournament-rows.js';
import { TournamentWorld } from '../../../test/fakes/tournament-world.js';
import { PayoutService } from './tournament-payouts.service.js';
import { TournamentReadService } from './tournament-read.service.js';
import type { StageRow } from './tournament.types.js';
import { tournamentPoolId } from './vault-pools.js';

const admin = { adminId: 'adm-1', email: 'ops@example.com' };
const [champ, runnerUp, semi1, semi2] = ['a', 'b', 'c', 'd'].map((d) => actorOf(d));
const stranger = actorOf('e');
const TREASURY: Address = '0x7777777777777777777777777777777777777777';
const POOL = tournamentPoolId(TID);

/**
 * A finished two-round knockout of four 5-unit entries: a 20-unit pool, a 5% fee (1 unit) and
 * 19 units split 60/25/15, the semi-final losers sharing their 15%. The final settled at +60 h,
 * so the 48-hour final window closes at +108 h; the clock starts at +100 h.
 */
function setup() {
  const world = new TournamentWorld();
  const clock = new ManualClock(T0 + 100 * HOUR);
  const vault = new PrizeVaultFake();
  const { book, tables: rows } = memoryDistributionBook();
  const reads = new TournamentReadService(world.db, {} as never, {} as never, vault, clock);
  const service = new PayoutService(world.db, reads, book, vault, tournamentSettings(), TREASURY, clock);
  world.addTournament({ status: 'COMPLETED', championWallet: champ!.wallet, feeBps: 500 });
  const stages: StageRow[] = [world.addStage(1), world.addStage(2, { isFinal: true })];
  const players = [champ!, runnerUp!, semi1!, semi2!].map((p, i) =>
    world.addEntry(TID, p, { placement: i + 1, isCreator: i === 0 }),
  );
  for (const e of players) world.addSeat('s-1', e);
  for (const e of players.slice(0, 2)) world.addSeat('s-2', e);
  for (const [i, s] of stages.entries()) {
    world.tables.settlements.push({
      stageId: s.id,
      tournamentId: TID,
      mode: 'auto',
      actor: 'automation',
      reason: null,
      blockers: [],
      settledAt: at(36 + 24 * i),
    });
  }
  const finalWindowCloses = () => clock.advance(8 * HOUR);
  return { world, clock, vault, service, distributions: rows, finalWindowCloses };
}

const amounts = (rows: { wallet: string; amount: string }[]) => rows.map((r) => [r.wallet, r.amount]);
const EXPECTED = [
  [champ!.wallet, (114n * UNIT) / 10n],
  [runnerUp!.wallet, (475n * UNIT) / 100n],
  [semi1!.wallet, (1425n * UNIT) / 1000n],
  [semi2!.wallet, (1425n * UNIT) / 1000n],
].map(([w, a]) => [w, String(a)]);

describe('PayoutService', () => {
  it('projects the table from the standings: pool less the fee, split by tier in base units', async () => {
    const { service } = setup();
    const res = await service.payouts(TID);
    expect(res).toMatchObject({
      status: 'projected',
      prizePool: (20n * UNIT).toString(),
      fee: UNIT.toString(),
      distributable: (19n * UNIT).toString(),
      root: null,
    });
    expect(amounts(res.payouts)).toEqual(EXPECTED);
    expect(res.payouts.map((p) => p.tier)).toEqual(['Champion', 'Runner-up', 'Semi-final losers', 'Semi-final losers']);
  });

  it('refuses to build the root before the final window closes with PAYOUT_NOT_READY and its reasons', async () => {
    const { world, service, distributions, finalWindowCloses } = setup();
    const e = await errorOf(service.setRoot(admin, TID));
    expect(e.code).toBe('PAYOUT_NOT_READY');
    expect((e.details?.['reasons'] as { code: string }[]).map((r) => r.code)).toEqual(['FINAL_WINDOW_OPEN']);
    finalWindowCloses();
    world.tables.settlements.pop();
    world.tables.tournaments[0]!.status = 'LIVE';
    world.tables.disputes.push({ ...dispute(), status: 'OPEN' });
    const all = await errorOf(service.setRoot(admin, TID));
    expect((all.details?.['reasons'] as { code: string }[]).map((r) => r.code)).toEqual([
      'NOT_COMPLETED',
      'STAGES_UNSETTLED',
      'DISPUTES_PENDING',
    ]);
    expect(distributions.rows).toEqual([]);
  });

  it('builds the root once the final window has closed, once, with an audit entry', async () => {
    const { world, service, distributions, finalWindowCloses } = setup();
    finalWindowCloses();
    const res = await service.setRoot(admin, TID);
    expect(res).toMatchObject({ status: 'built', total: (19n * UNIT).toString(), leafCount: 4, fee: UNIT.toString() });
    expect(amounts(res.payouts)).toEqual(EXPECTED);
    const again = await service.setRoot(admin, TID);
    expect(again.root).toBe(res.root);
    expect(distributions.rows).toHaveLength(1);
    expect(world.tables.audit).toMatchObject([{ action: 'set-root', details: { root: res.root } }]);
    expect((await service.payouts(TID)).status).toBe('built');
  });

  it('refuses to build an empty table: nothing left in the pool', async () => {
    const { world, service, finalWindowCloses } = setup();
    finalWindowCloses();
    for (const d of world.tables.deposits) d.refundedAt = at(50);
    const e = await errorOf(service.setRoot(admin, TID));
    expect(e.details).toMatchObject({ reasons: [{ code: 'EMPTY_TABLE' }] });
  });

  it('publishes the root and releases the fee to the treasury, each write once whatever the retries', async () => {
    const { world, vault, service, finalWindowCloses } = setup();
    expect(await codeOf(service.publish(admin, TID))).toBe('PAYOUT_NOT_READY');
    finalWindowCloses();
    const built = await service.setRoot(admin, TID);
    const res = await service.publish(admin, TID);
    expect(res).toMatchObject({ root: built.root, fee: { amount: UNIT.toString(), to: TREASURY } });
    expect(vault.writes.map((w) => [w.method, w.key, w.amount])).toEqual([
      ['setRoot', `tournaments:set-root:${TID}:payout`, 19n * UNIT],
      ['release', `tournaments:fee:${TID}`, UNIT],
    ]);
    expect(vault.writes[1]?.to).toBe(TREASURY);
    const again = await service.publish(admin, TID);
    expect(again.txHash).toBe(res.txHash);
    expect(vault.writes).toHaveLength(2);
    expect(world.tables.audit.map((a) => a.action)).toEqual(['set-root', 'publish-root']);
    expect(await service.payoutStatus(TID)).toMatchObject({ rootOnChain: true, total: (19n * UNIT).toString() });
  });

  it('serves a winner’s proof once the root is built, and refuses the anonymous, the early and the unpaid', async () => {
    const { service, finalWindowCloses } = setup();
    expect(await codeOf(service.claimProof(TID, null))).toBe('UNAUTHENTICATED');
    expect(await codeOf(service.claimProof(TID, champ!.wallet))).toBe('PAYOUT_NOT_READY');
    finalWindowCloses();
    await service.setRoot(admin, TID);
    const proof = await service.claimProof(TID, champ!.wallet);
    expect(proof).toMatchObject({ amount: ((114n * UNIT) / 10n).toString(), claimed: false });
    expect(await codeOf(service.claimProof(TID, stranger.wallet))).toBe('NOT_FOUND');
  });

  it('confirms a claim only from a mined receipt paying exactly the leaf, and records it once', async () => {
    const { vault, service, finalWindowCloses } = setup();
    finalWindowCloses();
    await service.setRoot(admin, TID);
    const leaf = (114n * UNIT) / 10n;
    const receipt = (tx: Hash, status: 'success' | 'reverted', claims: { account: Address; amount: bigint }[]) =>
      vault.receipts.set(tx, {
        status,
        sender: champ!.wallet,
        deposits: [],
        claims: claims.map((c) => ({ collateral: 'credits', poolId: POOL, kind: 'payout', ...c })),
      });
    const reason = async (tx: Hash) => (await errorOf(service.confirmClaim(champ!, TID, tx))).details?.['reason'];
    expect(await codeOf(service.confirmClaim(champ!, TID, vault.nextHash()))).toBe('CLAIM_PENDING');
    const reverted = vault.nextHash();
    receipt(reverted, 'reverted', []);
    expect(await reason(reverted)).toBe('reverted');
    const othersClaim = vault.nextHash();
    receipt(othersClaim, 'success', [{ account: runnerUp!.wallet, amount: (475n * UNIT) / 100n }]);
    expect(await reason(othersClaim)).toBe('no_claim');
    const short = vault.nextHash();
    receipt(short, 'success', [{ account: champ!.wallet, amount: leaf - 1n }]);
    expect(await reason(short)).toBe('amount');
    const good = vault.nextHash();
    receipt(good, 'success', [{ account: champ!.wallet, amount: leaf }]);
    expect(await service.confirmClaim(champ!, TID, good)).toMatchObject({ amount: leaf.toString(), recorded: true });
    expect(await service.confirmClaim(champ!, TID, good)).toMatchObject({ recorded: false });
    expect(await codeOf(service.confirmClaim(stranger, TID, good))).toBe('NOT_FOUND');
    expect((await service.payoutStatus(TID)).leavesClaimed).toBe(1);
    expect((await service.claimProof(TID, champ!.wallet)).claimed).toBe(true);
  });

  it('reports the root as not ready with its reasons, then ready once built', async () => {
    const { service, finalWindowCloses } = setup();
    expect(await service.payoutRoot(TID)).toMatchObject({
      status: 'none',
      ready: false,
      reasons: [{ code: 'FINAL_WINDOW_OPEN' }],
    });
    finalWindowCloses();
    expect(await service.payoutRoot(TID)).toMatchObject({ status: 'none', ready: true, reasons: [] });
    await service.setRoot(admin, TID);
    expect(await service.payoutRoot(TID)).toMatchObject({ status: 'built', ready: true, leafCount: 4 });
  });
});

function dispute() {
  return {
    id: 'd-1',
    tournamentId: TID,
    stageId: 's-2',
    fixtureId: 'f-1',
    entryId: 'e-1',
    wallet: semi1!.wallet,
    reason: 'x',
    proposedResult: null,
    status: 'OPEN' as const,
    originalResult: 'HOME' as const,
    correctedResult: null,
    resolutionNote: null,
    resolvedBy: null,
    createdAt: at(61),
    expiresAt: at(200),
    resolvedAt: null,
  };
}
