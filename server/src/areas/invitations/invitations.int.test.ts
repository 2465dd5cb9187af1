import { getAddress, zeroHash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server.js';
import { codeHashOf } from './invite-code.js';
import { InvitationRepository } from './invitation.repository.js';
import { InvitationEventSink } from './invitation.sink.js';
import { MembershipDirectory } from './membership-directory.js';
import { MembershipService } from './membership.service.js';
import { until } from '../../../test/support/market-fixtures.js';
import { marketsApi, signUpWallet, type Body } from '../../../test/support/http.js';
import { testContext } from '../../../test/support/operation.js';

// Bodies are read loosely here; their shapes are enforced by the contract (response validation is on).
interface User {
  token: string;
  userId: string;
  address: `0x${string}`;
}

const UNIT = 10n ** 18n;
let server: TestServer;
let creator: User;
let duelId: string;

const api = marketsApi(() => server);

async function signUp(username: string): Promise<User> {
  const res = await signUpWallet(api, username);
  expect(res.status).toBe(201);
  return { token: res.body['token'], userId: res.body['user']['id'], address: res.body['user']['address'] };
}

const sql = <T>(query: string, params: unknown[] = []) =>
  server.container.orm.em.fork().getConnection().execute<T[]>(query, params);

beforeAll(async () => {
  server = await startTestServer({ DUEL_PRIVATE_LEAD_SECONDS: '0', INDEXER_INTERVAL_MS: '200', JOBS_ENABLED: 'true' });
  creator = await signUp('inv_creator');
  await server.container.chain.mint('credits', creator.address, 1_000n * UNIT);
  const created = await api('/svc/user/duels/create', {
    token: creator.token,
    body: {
      question: 'Private: does the invite hold?',
      category: 'Test',
      isPrivate: true,
      startTime: new Date(Date.now() + 60_000).toISOString(),
      endTime: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(created.status).toBe(201);
  duelId = created.body['duelId'];
  await until(
    () => api(`/svc/user/duels/get-duel-by-id/${duelId}`, { token: creator.token }),
    (r) => r.body['chainState'] === 'confirmed',
  );
}, 120_000);
afterAll(() => server?.close());

describe('private-market invitations against PostgreSQL and the chain', () => {
  it('lets exactly maxUses of 3×maxUses concurrent joins through; database and chain agree', async () => {
    const maxUses = 4;
    const invite = await api('/svc/user/duel-invitations/create', {
      token: creator.token,
      body: { duelId, inviteCode: 'race-4', maxUses },
    });
    expect(invite.status).toBe(200);
    expect(invite.body).toMatchObject({ inviteCode: 'race-4', maxUses, uses: 0, status: 'active' });
    const users = await Promise.all(Array.from({ length: 3 * maxUses }, (_, i) => signUp(`inv_racer_${i}`)));

    const results = await Promise.all(
      users.map((u) => api('/svc/user/duel-invitations/user-join', { token: u.token, body: { inviteCode: 'race-4' } })),
    );

    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(maxUses);
    expect(refused.map((r) => [r.status, r.body['code'] as string])).toEqual(
      Array.from({ length: 2 * maxUses }, () => [409, 'INVITE_EXHAUSTED']),
    );
    const [row] = await sql<{ uses: number }>('select uses from duel_invitations where code_hash = ?', [
      codeHashOf('race-4'),
    ]);
    expect(row?.uses).toBe(maxUses);
    const onChain = await server.container.chain.invite(duelId as `0x${string}`, codeHashOf('race-4'));
    expect(onChain.uses).toBe(maxUses);
    const members = await Promise.all(
      users.map((u) => server.container.chain.isMember(duelId as `0x${string}`, u.address)),
    );
    const winners = new Set(ok.map((r) => r.body['userAddress'] as string));
    expect(users.filter((_, i) => members[i]).map((u) => u.address)).toEqual(
      users.filter((u) => winners.has(u.address)).map((u) => u.address),
    );
    const validated = await api('/svc/user/duel-invitations/validate-invite', { body: { inviteCode: 'race-4' } });
    expect(validated.body).toEqual({ valid: false, reason: 'exhausted' });
    // The indexer confirms every recorded join.
    await until(
      () =>
        sql<{ n: number }>(
          `select count(*)::int as n from duel_memberships where duel_id = ? and via = 'invite' and chain_state = 'confirmed'`,
          [duelId],
        ),
      (r) => r[0]?.n === maxUses,
    );
  }, 90_000);

  it('reserves uses in PostgreSQL: exactly maxUses joins pass even when the chain would accept them all', async () => {
    const maxUses = 3;
    await api('/svc/user/duel-invitations/create', {
      token: creator.token,
      body: { duelId, inviteCode: 'db-gate-3', maxUses },
    });
    const c = server.container;
    // A chain that accepts every join and knows no members: only the database gate remains.
    let sent = 0;
    const permissive = new Proxy(c.chain, {
      get: (target, prop, receiver) =>
        prop === 'join'
          ? async () => {
              sent += 1;
              await new Promise((r) => setTimeout(r, 5));
              return `0x${sent.toString(16).padStart(64, '0')}`;
            }
          : prop === 'isMember'
            ? async () => false
            : (Reflect.get(target, prop, receiver) as unknown),
    });
    const repo = new InvitationRepository(c.orm);
    const service = new MembershipService(
      repo,
      c.privateMarkets.invitations,
      new MembershipDirectory(repo, permissive),
      c.markets.duels,
      permissive,
      c.markets.signers,
      c.clock,
    );
    const users = await Promise.all(Array.from({ length: 3 * maxUses }, (_, i) => signUp(`inv_gate_${i}`)));
    const outcomes = await Promise.allSettled(
      users.map((u) =>
        service.join(testContext(), { userId: u.userId, address: u.address }, { inviteCode: 'db-gate-3' }, 'user'),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(maxUses);
    expect(sent).toBe(maxUses);
    const reasons = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { code: string }).code] : []));
    expect(reasons).toEqual(Array.from({ length: 2 * maxUses }, () => 'INVITE_EXHAUSTED'));
    await sql('delete from duel_memberships where tx_hash like ?', ['0x0000000000%']);
  }, 60_000);

  it('lists codes to the creator only; anyone else gets the count', async () => {
    const outsider = await signUp('inv_outsider');
    const asCreator = await api(`/svc/user/duel-invitations/duel/${duelId}`, { token: creator.token });
    expect(asCreator.body['codesVisible']).toBe(true);
    const codes = (asCreator.body['invitations'] as Body[]).map((i) => i['inviteCode'] as string);
    expect(asCreator.body['activeCount']).toBe(codes.length);
    const asOutsider = await api(`/svc/user/duel-invitations/duel/${duelId}`, { token: outsider.token });
    expect(asOutsider.body).toEqual({ duelId, activeCount: codes.length, codesVisible: false, invitations: [] });
    const forbidden = await api('/svc/user/duel-invitations/create', { token: outsider.token, body: { duelId } });
    expect([forbidden.status, forbidden.body['code']]).toEqual([403, 'FORBIDDEN']);
  });

  it('records a join a frontend sent itself only after verifying its transaction', async () => {
    const invite = await api('/svc/user/duel-invitations/create', { token: creator.token, body: { duelId } });
    const code = invite.body['inviteCode'] as string;
    expect(code).toMatch(/^[A-Z2-7]{16}$/);
    const joiner = await signUp('inv_frontend');
    const other = await signUp('inv_other');
    const signer = await server.container.markets.signers.forUser(joiner.userId);
    const txHash = await server.container.chain.join(signer, duelId as `0x${string}`, codeHashOf(code));

    const stolen = await api('/svc/user/duel-invitations/sync-join-success', {
      token: other.token,
      body: { duelId, txHash },
    });
    expect([stolen.status, stolen.body['code']]).toEqual([400, 'JOIN_NOT_VERIFIED']);
    const synced = await api('/svc/user/duel-invitations/sync-join-success', {
      token: joiner.token,
      body: { duelId, txHash },
    });
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ duelId, userAddress: joiner.address, via: 'invite', txHash });
    const again = await api('/svc/user/duel-invitations/sync-join-success', {
      token: joiner.token,
      body: { duelId, txHash },
    });
    expect(again.status).toBe(200);
    const [row] = await sql<{ uses: number }>('select uses from duel_invitations where code_hash = ?', [
      codeHashOf(code),
    ]);
    expect(row?.uses).toBe(1); // counted once, however often it is synced
    const check = await api(`/svc/user/duel-invitations/membership/${duelId}/${joiner.address}`);
    expect(check.body).toMatchObject({ isMember: true, source: 'database' });
  });

  it('joins through the platform signer with a code, once, and refuses an unknown code', async () => {
    const invite = await api('/svc/user/duel-invitations/create', { token: creator.token, body: { duelId } });
    const code = invite.body['inviteCode'] as string;
    const joiner = await signUp('inv_legacy');
    const joined = await api('/svc/user/duel-invitations/join', {
      token: joiner.token,
      body: { inviteCode: code, duelId },
    });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ duelId, userAddress: joiner.address, via: 'invite' });
    await until(
      () => server.container.chain.isMember(duelId as `0x${string}`, joiner.address),
      (isMember) => isMember,
    );
    const twice = await api('/svc/user/duel-invitations/join', { token: joiner.token, body: { inviteCode: code } });
    expect([twice.status, twice.body['code']]).toEqual([409, 'ALREADY_MEMBER']);
    const unknown = await api('/svc/user/duel-invitations/join', {
      token: (await signUp('inv_nocode')).token,
      body: { inviteCode: 'AAAAAAAAAAAAAAAA' },
    });
    expect([unknown.status, unknown.body['code']]).toEqual([404, 'INVITE_NOT_FOUND']);
    const anonymous = await api('/svc/user/duel-invitations/join', { body: { inviteCode: code } });
    expect(anonymous.status).toBe(401);
  });

  it('lets only the creator add and remove members; removing a non-member is refused', async () => {
    const member = await signUp('inv_added');
    const body = { duelId, memberAddress: member.address };
    const notCreator = await api('/svc/user/duel-invitations/add-member', { token: member.token, body });
    expect([notCreator.status, notCreator.body['code']]).toEqual([403, 'FORBIDDEN']);
    const added = await api('/svc/user/duel-invitations/add-member', { token: creator.token, body });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ duelId, userAddress: member.address, via: 'added' });
    const again = await api('/svc/user/duel-invitations/add-member', { token: creator.token, body });
    expect([again.status, again.body['code']]).toEqual([409, 'ALREADY_MEMBER']);
    await until(
      () => server.container.chain.isMember(duelId as `0x${string}`, member.address),
      (isMember) => isMember,
    );

    const byMember = await api('/svc/user/duel-invitations/remove-member', { token: member.token, body });
    expect([byMember.status, byMember.body['code']]).toEqual([403, 'FORBIDDEN']);
    const removed = await api('/svc/user/duel-invitations/remove-member', { token: creator.token, body });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ duelId, userAddress: member.address, removed: true });
    await until(
      () => server.container.chain.isMember(duelId as `0x${string}`, member.address),
      (isMember) => !isMember,
    );
    const gone = await api('/svc/user/duel-invitations/remove-member', { token: creator.token, body });
    expect([gone.status, gone.body['code']]).toEqual([409, 'NOT_MEMBER']);
    const creatorItself = await api('/svc/user/duel-invitations/remove-member', {
      token: creator.token,
      body: { duelId, memberAddress: creator.address },
    });
    expect([creatorItself.status, creatorItself.body['code']]).toEqual([403, 'FORBIDDEN']);
  });

  it('applies membership events once, in chain order, whatever is replayed', async () => {
    const sink = new InvitationEventSink();
    const member = getAddress(privateKeyToAccount(generatePrivateKey()).address);
    const base = { duelId: duelId as `0x${string}`, timestamp: Math.floor(Date.now() / 1000) };
    const added = {
      ...base,
      kind: 'member_added' as const,
      member,
      codeHash: zeroHash,
      txHash: `0x${'a'.repeat(64)}` as const,
      logIndex: 0,
      blockNumber: 1_000_000n,
    };
    const removed = {
      ...base,
      kind: 'member_removed' as const,
      member,
      txHash: `0x${'b'.repeat(64)}` as const,
      logIndex: 0,
      blockNumber: 1_000_001n,
    };
    const apply = (events: Parameters<InvitationEventSink['apply']>[1][]) =>
      server.container.orm.em.fork().transactional(async (em) => {
        for (const e of events) await sink.apply(em, e);
      });
    const state = async () =>
      (
        await sql<{ removed: boolean; chain_state: string }>(
          'select removed_at is not null as removed, chain_state from duel_memberships where duel_id = ? and member_address = ?',
          [duelId, member],
        )
      )[0];

    await apply([added, added]);
    expect(await state()).toEqual({ removed: false, chain_state: 'confirmed' });
    await apply([removed, added, removed]);
    expect(await state()).toEqual({ removed: true, chain_state: 'confirmed' });
    expect(
      await server.container.markets.access.canView(
        { duelId, isPrivate: true, creatorAddress: creator.address },
        member,
      ),
    ).toBe(false);
  });
});
