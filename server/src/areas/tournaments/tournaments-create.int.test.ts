import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import {
  T0,
  TOURNAMENT_ENV,
  UNIT,
  createBody,
  depositFor,
  newTournamentId,
  paidCreate,
  player,
  postBond,
  tournamentsApi,
  walletHeaders,
  type Player,
} from './tournaments.test-kit.js';
import { tournamentPoolId } from './vault-pools.js';

const clock = new ManualClock(T0);
let server: TestServer;
const api = tournamentsApi(() => server);
let creator: Player;

beforeAll(async () => {
  server = await startTestServer(TOURNAMENT_ENV, { clock });
  creator = await player(server, 'tc_creator');
  await postBond(api, creator);
}, 120_000);
afterAll(() => server?.close());

const count = async () => (await api('/api/tournaments')).body['total'] as number;
const buyin = (10n * UNIT).toString();

describe('paid tournament creation', () => {
  it('creates from a verified stage-1 deposit: the id is the client’s, the creator holds the first entry', async () => {
    const { id, tx, body } = await paidCreate(api, creator);
    expect(body['created']).toBe(true);
    expect(body['tournament']).toMatchObject({
      id,
      status: 'LIVE',
      format: 'GROUP_KNOCKOUT',
      stakeAsset: 'credits',
      vaultStack: 'credits',
      ownerWallet: creator.address,
      entryCount: 1,
      minEntriesToActivate: 2,
      meetsMinimum: false,
      entriesOpen: true,
      prizePool: buyin,
      totalStages: 2,
      currentStageIndex: 1,
      vault: { address: server.container.prizeVault.address('credits'), poolId: tournamentPoolId(id) },
    });
    const stages = body['stages'] as { stageIndex: number; fixtures: unknown[]; status: string; chips: number }[];
    expect(stages.map((s) => [s.stageIndex, s.fixtures.length, s.status, s.chips])).toEqual([
      [1, 2, 'OPEN', 1000],
      [2, 2, 'UPCOMING', 2000],
    ]);
    const status = await api(`/api/tournaments/${id}/my-status`, { token: creator.token });
    expect(status.body).toMatchObject({ hasEntry: true, entry: { isCreator: true, seed: 1, depositTxHash: tx } });

    // The same create again answers the same tournament; another deposit under the id is refused.
    const replay = await api('/api/tournaments', { token: creator.token, body: createBody(id, tx) });
    expect([replay.status, replay.body['created'], replay.body['tournament']['id']]).toEqual([201, false, id]);
    const other = await depositFor(api, creator, newTournamentId(), { stakeAsset: 'credits', amount: buyin });
    const taken = await api('/api/tournaments', { token: creator.token, body: createBody(id, other) });
    expect([taken.status, taken.body['code']]).toEqual([409, 'TOURNAMENT_ID_TAKEN']);
  });

  it('refuses a free or cheap stage 1 and a paid create without its deposit, with the seed’s message', async () => {
    const free = createBody(newTournamentId(), undefined);
    (free['stages'] as { buyinUsdc: string }[])[0]!.buyinUsdc = '0';
    const res = await api('/api/tournaments', { token: creator.token, body: free });
    expect([res.status, res.body['code']]).toEqual([400, 'BUYIN_BELOW_MINIMUM']);
    (free['stages'] as { buyinUsdc: string }[])[0]!.buyinUsdc = (4n * UNIT).toString();
    expect((await api('/api/tournaments', { token: creator.token, body: free })).body['code']).toBe(
      'BUYIN_BELOW_MINIMUM',
    );

    const noDeposit = await api('/api/tournaments', {
      token: creator.token,
      body: createBody(newTournamentId(), undefined),
    });
    expect([noDeposit.status, noDeposit.body['code']]).toEqual([400, 'PAID_TOURNAMENT_REQUIRES_DEPOSIT']);
    expect(noDeposit.body['message']).toMatch(/^Paid tournaments require clientTournamentId/);
    const noId = await api('/api/tournaments', {
      token: creator.token,
      body: createBody(undefined, `0x${'ab'.repeat(32)}`),
    });
    expect(noId.body['details']).toEqual({ missing: ['clientTournamentId'] });
  });

  it('refuses a deposit of the wrong amount, to the wrong vault, or used by another tournament, and stores nothing', async () => {
    const before = await count();
    const wrongAmount = newTournamentId();
    const tx1 = await depositFor(api, creator, wrongAmount, { stakeAsset: 'credits', amount: (5n * UNIT).toString() });
    const r1 = await api('/api/tournaments', { token: creator.token, body: createBody(wrongAmount, tx1) });
    expect([r1.status, r1.body['code'], r1.body['details']['reason']]).toEqual([400, 'DEPOSIT_MISMATCH', 'amount']);

    const wrongVault = newTournamentId();
    await server.container.chain.mint('usdc', creator.address, BigInt(buyin));
    const tx2 = await depositFor(api, creator, wrongVault, { stakeAsset: 'usdc', amount: buyin });
    const r2 = await api('/api/tournaments', { token: creator.token, body: createBody(wrongVault, tx2) });
    expect([r2.status, r2.body['code'], r2.body['details']['reason']]).toEqual([400, 'DEPOSIT_MISMATCH', 'vault']);

    const first = await paidCreate(api, creator);
    const reused = newTournamentId();
    const r3 = await api('/api/tournaments', { token: creator.token, body: createBody(reused, first.tx) });
    expect([r3.status, r3.body['code']]).toEqual([400, 'DEPOSIT_ALREADY_USED']);
    // A deposit into another tournament's pool that was never used is still the wrong pool.
    const stray = await depositFor(api, creator, newTournamentId(), { stakeAsset: 'credits', amount: buyin });
    const r4 = await api('/api/tournaments', { token: creator.token, body: createBody(reused, stray) });
    expect([r4.status, r4.body['code'], r4.body['details']['reason']]).toEqual([400, 'DEPOSIT_MISMATCH', 'pool']);

    for (const id of [wrongAmount, wrongVault, reused]) {
      expect((await api(`/api/tournaments/${id}`)).status).toBe(404);
    }
    expect(await count()).toBe(before + 1);
  });

  it('needs the creator bond, the caller’s own wallet, and a valid request', async () => {
    const unbonded = await player(server, 'tc_unbonded');
    const id = newTournamentId();
    const tx = await depositFor(api, unbonded, id, { stakeAsset: 'credits', amount: buyin });
    const noBond = await api('/api/tournaments', { token: unbonded.token, body: createBody(id, tx) });
    expect([noBond.status, noBond.body['code']]).toEqual([409, 'BOND_REQUIRED']);
    const notMine = await api('/api/tournaments', {
      token: creator.token,
      body: createBody(id, tx, { ownerWallet: unbonded.address }),
    });
    expect([notMine.status, notMine.body['code']]).toEqual([403, 'FORBIDDEN']);
    // The deposit was not sent by the creator's wallets.
    const foreign = await api('/api/tournaments', { token: creator.token, body: createBody(id, tx) });
    expect([foreign.status, foreign.body['details']['reason']]).toEqual([400, 'sender']);
    expect((await api('/api/tournaments', { body: createBody(id, tx) })).status).toBe(401);
    const badStages = await api('/api/tournaments', {
      token: creator.token,
      body: createBody(id, tx, { totalStages: 3 }),
    });
    expect([badStages.status, badStages.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect(badStages.body['fieldErrors']['body.stages']).toBeDefined();
    expect((await api('/api/tournaments/not-an-id/format-info')).status).toBe(400);
  });

  it('refuses minEntriesToActivate above maxEntrants with a field error on both, before anything is stored', async () => {
    const id = newTournamentId();
    const tx = await depositFor(api, creator, id, { stakeAsset: 'credits', amount: buyin });
    const before = await count();
    const res = await api('/api/tournaments', {
      token: creator.token,
      body: createBody(id, tx, { config: { minEntriesToActivate: 8, maxEntrants: 4 } }),
    });
    expect([res.status, res.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect(Object.keys(res.body['fieldErrors'] as object).sort()).toEqual([
      'body.config.maxEntrants',
      'body.config.minEntriesToActivate',
    ]);
    // Without maxEntrants the limit is the deployment's (or the bracket's): checked by the service.
    const aboveLimit = await api('/api/tournaments', {
      token: creator.token,
      body: createBody(id, tx, { config: { minEntriesToActivate: 256 } }),
    });
    expect([aboveLimit.status, aboveLimit.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect(aboveLimit.body['fieldErrors']).toHaveProperty(['body.config.minEntriesToActivate']);
    expect(await count()).toBe(before);
    const equal = await api('/api/tournaments', {
      token: creator.token,
      body: createBody(id, tx, { config: { minEntriesToActivate: 4, maxEntrants: 4 } }),
    });
    expect(equal.status).toBe(201);
  });

  it('refuses a create whose stage windows hold no fixture, before storing anything', async () => {
    const id = newTournamentId();
    const tx = await depositFor(api, creator, id, { stakeAsset: 'credits', amount: buyin });
    const res = await api('/api/tournaments', {
      token: creator.token,
      body: createBody(id, tx, { config: { minEntriesToActivate: 2, leagueId: 999 } }),
    });
    expect([res.status, res.body['code'], res.body['details']['stageIndex']]).toEqual([400, 'NO_FIXTURES', 1]);
    expect((await api(`/api/tournaments/${id}`)).status).toBe(404);
    // The deposit is still unused: the corrected create goes through with it.
    expect((await api('/api/tournaments', { token: creator.token, body: createBody(id, tx) })).status).toBe(201);
  });

  it('lets a wallet credential create with a deposit it sent itself', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const vault = server.container.prizeVault;
    await server.container.chain.mint('credits', account.address, 20n * UNIT);
    const bondTx = await vault.deposit(
      account,
      'credits',
      (await api(`/api/tournaments/creator/bond-requirement?wallet=${account.address}`)).body['bond'][
        'poolId'
      ] as `0x${string}`,
      0,
      10n * UNIT,
    );
    const bonded = await api('/api/tournaments/creator/deposit-bond', {
      headers: await walletHeaders(account),
      body: { txHash: bondTx },
    });
    expect([bonded.status, bonded.body['recorded'], bonded.body['bond']['sufficient']]).toEqual([200, true, true]);
    const id = newTournamentId();
    const instructions = await api(`/api/tournaments/${id}/deposit`, {
      headers: await walletHeaders(account),
      body: { stakeAsset: 'credits', amount: buyin },
    });
    expect(instructions.body).toMatchObject({ tournamentExists: false, stageIndex: 1, executed: false, txHash: null });
    expect(instructions.body['calls']).toHaveLength(2);
    const tx = await vault.deposit(account, 'credits', instructions.body['poolId'] as `0x${string}`, 1, 10n * UNIT);
    const created = await api('/api/tournaments', { headers: await walletHeaders(account), body: createBody(id, tx) });
    expect([created.status, created.body['tournament']['ownerWallet']]).toEqual([201, account.address]);
    const executed = await api(`/api/tournaments/${newTournamentId()}/deposit`, {
      headers: await walletHeaders(account),
      body: { stakeAsset: 'credits', amount: buyin, execute: true },
    });
    expect([executed.status, executed.body['fieldErrors']?.['body.execute']]).toEqual([400, expect.any(Array)]);
  });
});

describe('creator bonds and create-flow eligibility', () => {
  it('lists every reason a create would fail before anything is spent', async () => {
    const poor = await player(server, 'tc_poor', 0n);
    const q = `stakeAsset=credits&stage1BuyinRaw=${UNIT}&minEntriesToActivate=1`;
    const res = await api(`/api/tournaments/creator/create-flow-eligibility?${q}`, { token: poor.token });
    expect(res.body['canProceed']).toBe(false);
    expect((res.body['reasons'] as { code: string }[]).map((r) => r.code).sort()).toEqual([
      'BOND_REQUIRED',
      'BUYIN_BELOW_MINIMUM',
      'INSUFFICIENT_BALANCE',
      'MIN_ENTRIES_INVALID',
    ]);
    const anonymous = await api(`/api/tournaments/creator/create-flow-eligibility?${q}`);
    expect((anonymous.body['reasons'] as { code: string }[]).map((r) => r.code)).toContain('WALLET_REQUIRED');
    const ok = await api(
      `/api/tournaments/creator/create-flow-eligibility?wallet=${creator.address}&stakeAsset=credits&stage1BuyinRaw=${buyin}&minEntriesToActivate=2`,
    );
    expect(ok.body).toMatchObject({ canProceed: true, reasons: [], minimumBuyin: (5n * UNIT).toString() });
  });

  it('answers the requirement, takes deposits, and locks the bond while the creator has a LIVE tournament', async () => {
    const requirement = await api('/api/tournaments/creator/bond-requirement');
    expect(requirement.body).toMatchObject({
      amount: (10n * UNIT).toString(),
      asset: 'credits',
      decimals: 18,
      bond: null,
    });
    const eligibility = await api(`/api/tournaments/creator/eligibility?wallet=${creator.address}`);
    expect(eligibility.body).toMatchObject({ eligible: true, reasons: [] });
    const locked = await api('/api/tournaments/creator/withdraw-bond', { token: creator.token, body: {} });
    expect([locked.status, locked.body['code']]).toEqual([409, 'BOND_LOCKED']);

    const saver = await player(server, 'tc_saver');
    await postBond(api, saver);
    const more = await api('/api/tournaments/creator/deposit-bond', {
      token: saver.token,
      body: { execute: true, amount: (3n * UNIT).toString() },
    });
    expect(more.body['bond']['deposited']).toBe((13n * UNIT).toString());
    const tooMuch = await api('/api/tournaments/creator/withdraw-bond', {
      token: saver.token,
      body: { amount: (14n * UNIT).toString() },
    });
    expect([tooMuch.status, tooMuch.body['code']]).toEqual([400, 'INSUFFICIENT_BOND']);
    const out = await api('/api/tournaments/creator/withdraw-bond', { token: saver.token, body: {} });
    expect(out.body).toMatchObject({ amount: (13n * UNIT).toString(), bond: { deposited: '0', sufficient: false } });
    expect(out.body['txHash']).toMatch(/^0x[0-9a-f]{64}$/);
    const reused = await api('/api/tournaments/creator/deposit-bond', {
      token: creator.token,
      body: { txHash: more.body['txHash'] },
    });
    expect([reused.status, reused.body['code']]).toEqual([400, 'DEPOSIT_ALREADY_USED']);
    const stats = await api(`/api/tournaments/creator/${creator.address}/stats`);
    expect(stats.body).toMatchObject({ wallet: creator.address, bond: { locked: true, sufficient: true } });
    expect(stats.body['tournamentsCreated']).toBeGreaterThan(0);
  });
});
