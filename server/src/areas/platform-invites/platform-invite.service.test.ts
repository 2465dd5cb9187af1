import { beforeEach, describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { ManualClock } from '../../platform/clock.js';
import { operationContext } from '../../platform/operation.context.js';
import { PlatformInviteService, type ActorContext } from './platform-invite.service.js';
import type { InviteRecord, InviteStore } from './platform-invite.types.js';

const HOUR = 3_600_000;
const OWNER = '00000000-0000-4000-8000-000000000001';
let clock: ManualClock;
let store: ReturnType<typeof repositoryMock<InviteStore>>;
/** The codes the store holds, by id (the mock's methods read and write it). */
let codes: Map<string, InviteRecord>;

const ctx = (): ActorContext => ({ ...operationContext({ requestId: 'r', clock }), actor: 'ops@example.com' });

function service(settings: { bulkMax?: number; inviteOnly?: boolean } = {}, random?: (prefix: string) => string) {
  return new PlatformInviteService(
    store,
    { bulkMax: settings.bulkMax ?? 500, inviteOnly: settings.inviteOnly ?? true },
    random,
  );
}

/** A sign-up through `code`: what the repository's redeem does in the sign-up's transaction. */
function use(code: string) {
  const invite = [...codes.values()].find((i) => i.code.toLowerCase() === code.toLowerCase())!;
  codes.set(invite.id, { ...invite, uses: invite.uses + 1 });
}

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 10, 28, 12));
  codes = new Map();
  store = repositoryMock<InviteStore>();
  store.userExists.mockImplementation(async (id) => id === OWNER);
  store.insertAll.mockImplementation(async (invites) => {
    const taken = invites.find((i) => [...codes.values()].some((c) => c.code.toLowerCase() === i.code.toLowerCase()));
    if (taken) return { taken: taken.code };
    for (const i of invites) codes.set(i.id, i);
    return { ok: true };
  });
  store.uses.mockResolvedValue([]);
  store.byId.mockImplementation(async (id) => codes.get(id));
  store.byCode.mockImplementation(async (code) =>
    [...codes.values()].find((c) => c.code.toLowerCase() === code.toLowerCase()),
  );
  store.ownedBy.mockImplementation(async (userId) => [...codes.values()].filter((c) => c.ownerUserId === userId));
  store.deactivate.mockImplementation(async (ids, by, reason, at) => {
    let changed = 0;
    for (const id of ids) {
      const c = codes.get(id);
      if (!c || c.deactivatedAt) continue;
      codes.set(id, { ...c, deactivatedAt: at, deactivationReason: reason ?? null, createdBy: c.createdBy });
      changed++;
      void by;
    }
    return changed;
  });
});

describe('platform invite codes', () => {
  it('admits maxUses sign-ups, then refuses the next as exhausted; 0 admits any number', async () => {
    const invites = service();
    const once = await invites.create(ctx(), { code: 'ONCE-1', maxUses: 1 });
    expect(once).toMatchObject({ state: 'active', uses: 0, createdBy: 'ops@example.com' });
    expect(await invites.checkForSignUp('once-1', ctx().now)).toMatchObject({ id: once.id });
    use('ONCE-1');
    await expect(invites.checkForSignUp('ONCE-1', ctx().now)).rejects.toMatchObject({
      code: 'INVITE_EXHAUSTED',
      details: { maxUses: 1 },
    });

    await invites.create(ctx(), { code: 'OPEN', maxUses: 0 });
    for (let i = 0; i < 5; i++) use('OPEN');
    expect(await invites.checkForSignUp('open', ctx().now)).toMatchObject({ code: 'OPEN', uses: 5 });
  });

  it('a code expires when the clock passes expiresAt, and an expiry must lie in the future', async () => {
    const invites = service();
    const expiresAt = new Date(clock.now() + HOUR).toISOString();
    const soon = await invites.create(ctx(), { code: 'SOON', maxUses: 1, expiresAt });
    expect(soon.state).toBe('active');
    clock.advance(HOUR - 1);
    expect(await invites.checkForSignUp('SOON', ctx().now)).toBeDefined();
    clock.advance(1);
    await expect(invites.checkForSignUp('SOON', ctx().now)).rejects.toMatchObject({ code: 'INVITE_EXPIRED' });
    expect((await invites.details(ctx().now, soon.id)).state).toBe('expired');

    await expect(invites.create(ctx(), { maxUses: 1, expiresAt: ctx().now.toISOString() })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { 'body.expiresAt': ['must be in the future'] },
    });
  });

  it('invite-only: no code, an unknown or a revoked code is refused; elsewhere they are let through unredeemed', async () => {
    const gated = service({ inviteOnly: true });
    await expect(gated.checkForSignUp(undefined, ctx().now)).rejects.toMatchObject({ code: 'INVITE_REQUIRED' });
    await expect(gated.checkForSignUp('NOPE', ctx().now)).rejects.toMatchObject({ code: 'INVITE_NOT_FOUND' });
    const code = await gated.create(ctx(), { code: 'GONE', maxUses: 3 });
    const off = await gated.deactivate(ctx(), code.id, 'leaked');
    expect(off).toMatchObject({ state: 'deactivated', deactivationReason: 'leaked' });
    await expect(gated.checkForSignUp('GONE', ctx().now)).rejects.toMatchObject({ code: 'INVITE_REVOKED' });

    const open = service({ inviteOnly: false });
    expect(await open.checkForSignUp(undefined, ctx().now)).toBeUndefined();
    expect(await open.checkForSignUp('NOPE', ctx().now)).toBeUndefined();
    expect(await open.checkForSignUp('GONE', ctx().now)).toBeUndefined();
  });

  it('a chosen code taken (ignoring case) is a conflict; a generated one that collides is drawn again', async () => {
    const draws = ['DUP', 'DUP', 'FRESH'];
    const invites = service({}, (prefix) => `${prefix}${draws.shift()}`);
    await invites.create(ctx(), { code: 'dup', maxUses: 1 });
    await expect(invites.create(ctx(), { code: 'DUP', maxUses: 1 })).rejects.toMatchObject({
      code: 'INVITE_CODE_TAKEN',
    });
    const generated = await invites.create(ctx(), { maxUses: 1 });
    expect(generated.code).toBe('FRESH');
    // dup, DUP (taken), then the generated DUP twice (taken) and FRESH.
    expect(store.insertAll.mock.calls).toHaveLength(5);
  });

  it('a batch is within the limit, all of one batchId with the prefix, and issued in one insert', async () => {
    let n = 0;
    const invites = service({ bulkMax: 3 }, (prefix) => `${prefix}${++n}`);
    await expect(invites.createBulk(ctx(), { count: 4, maxUses: 1 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { 'body.count': ['at most 3'] },
    });
    const batch = await invites.createBulk(ctx(), { count: 3, prefix: 'VIP', maxUses: 2, ownerUserId: OWNER });
    expect(batch.invites.map((i) => i.code)).toEqual(['VIP1', 'VIP2', 'VIP3']);
    expect(batch.invites.every((i) => i.batchId === batch.batchId && i.ownerUserId === OWNER)).toBe(true);
    expect(store.insertAll.mock.calls).toHaveLength(1);
    await expect(
      invites.createBulk(ctx(), { count: 1, maxUses: 1, ownerUserId: '00000000-0000-4000-8000-00000000dead' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('invalidating an owner revokes only the codes still active, and a second call changes nothing', async () => {
    const invites = service();
    const a = await invites.create(ctx(), { code: 'OWN-A', maxUses: 1, ownerUserId: OWNER });
    await invites.create(ctx(), { code: 'OWN-B', maxUses: 1, ownerUserId: OWNER });
    await invites.create(ctx(), { code: 'HOUSE', maxUses: 1 });
    await invites.deactivate(ctx(), a.id, undefined);
    const first = await invites.invalidateUser(ctx(), OWNER, undefined);
    expect(first.deactivated).toBe(1);
    expect(first.invites.map((i) => [i.code, i.state])).toEqual([
      ['OWN-A', 'deactivated'],
      ['OWN-B', 'deactivated'],
    ]);
    expect(first.invites[1]?.deactivationReason).toBe('owner invalidated');
    expect((await invites.invalidateUser(ctx(), OWNER, undefined)).deactivated).toBe(0);
    expect(await invites.checkForSignUp('HOUSE', ctx().now)).toBeDefined();
    await expect(
      invites.invalidateUser(ctx(), '00000000-0000-4000-8000-00000000dead', undefined),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(invites.deactivate(ctx(), '00000000-0000-4000-8000-00000000beef', undefined)).rejects.toMatchObject({
      code: 'INVITE_NOT_FOUND',
    });
  });
});
