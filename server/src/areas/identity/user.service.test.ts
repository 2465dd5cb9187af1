import { getAddress } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import type { UserIdentityRecord, UserRecord } from './identity.entities.js';
import { SecretBox } from './secret-box.js';
import type { SignUpGate } from './sign-up.gate.js';
import { TokenService } from './token.service.js';
import type { UserRepository } from './user.repository.js';
import { UserService } from './user.service.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const EOA = getAddress('0x00000000000000000000000000000000000000aa');
const EOA2 = getAddress('0x00000000000000000000000000000000000000bb');

/**
 * Users and identity links in memory with the table's unique rules ((app, eoa), (app, username),
 * (app, issuer, subject)); an insert whose `within` throws is rolled back, as its transaction is.
 */
function setup(options: { gate?: boolean } = {}) {
  const clock = new ManualClock(T0);
  const box = new SecretBox(Buffer.alloc(32, 3));
  const tokens = new TokenService('a-user-secret-of-enough-length-0123456', [], 600, 600, clock);
  const users = new Map<string, UserRecord>();
  const links: UserIdentityRecord[] = [];
  const repo = repositoryMock<UserRepository>();
  repo.byId.mockImplementation((id) => Promise.resolve(users.get(id) ?? null));
  repo.byEoa.mockImplementation((app, eoa) =>
    Promise.resolve([...users.values()].find((u) => u.builderAppId === app && u.eoaAddress === eoa) ?? null),
  );
  repo.usernameTaken.mockImplementation((app, lower) =>
    Promise.resolve([...users.values()].some((u) => u.builderAppId === app && u.usernameLower === lower)),
  );
  repo.insert.mockImplementation(async (user, within) => {
    const clash = (u: UserRecord) => u.builderAppId === user.builderAppId;
    const all = [...users.values()];
    if (user.usernameLower && all.some((u) => clash(u) && u.usernameLower === user.usernameLower)) {
      return { conflict: 'username' as const };
    }
    if (user.eoaAddress && all.some((u) => clash(u) && u.eoaAddress === user.eoaAddress)) {
      return { conflict: 'eoa' as const };
    }
    if (within) await within(() => Promise.resolve([]));
    users.set(user.id, { ...user });
    return { ...user };
  });
  repo.setProfileImage.mockImplementation((id, url) => {
    users.get(id)!.profileImageUrl = url;
    return Promise.resolve();
  });
  repo.byIdentity.mockImplementation((app, issuer, subject) => {
    const link = links.find((l) => l.builderAppId === app && l.issuer === issuer && l.subject === subject);
    return Promise.resolve(link ? (users.get(link.userId) ?? null) : null);
  });
  repo.linkIdentity.mockImplementation((link) => {
    const taken = links.some(
      (l) => l.builderAppId === link.builderAppId && l.issuer === link.issuer && l.subject === link.subject,
    );
    if (!taken) links.push(link);
    return Promise.resolve(!taken);
  });

  /** Invite codes with a number of uses left; a use is taken inside the sign-up's insert. */
  const invites = new Map<string, { id: string; uses: number }>([
    ['WELCOME', { id: 'inv-1', uses: 1 }],
    ['SPENT', { id: 'inv-2', uses: 0 }],
  ]);
  const redeemed: { code: string; userId: string; now: Date }[] = [];
  const gate: SignUpGate = {
    admit(code) {
      if (!code) throw new DomainError('INVITE_REQUIRED', 'An invite code is required');
      const invite = invites.get(code);
      if (!invite) throw new DomainError('INVITE_NOT_FOUND', 'No such invite code');
      return Promise.resolve({ id: invite.id, code });
    },
    redeem(_sql, invite, userId, now) {
      const row = invites.get(invite.code)!;
      if (row.uses <= 0) return Promise.reject(new DomainError('INVITE_EXHAUSTED', 'The invite code is used up'));
      row.uses--;
      redeemed.push({ code: invite.code, userId, now });
      return Promise.resolve();
    },
  };
  const service = new UserService(repo, box, tokens, clock, options.gate ? gate : undefined);
  return { clock, box, tokens, repo, users, links, invites, redeemed, service };
}

describe('UserService', () => {
  describe('usernames', () => {
    it('judges a username available, invalid, reserved in any case, or taken in any case', async () => {
      const { service } = setup();
      await service.create({ builderAppId: 'app-1', eoa: EOA, username: 'Alice_1' });

      expect(await service.checkUsername('app-1', 'bob')).toEqual({ available: true });
      expect(await service.checkUsername('app-1', 'ALICE_1')).toEqual({ available: false, reason: 'taken' });
      expect(await service.checkUsername('app-2', 'alice_1')).toEqual({ available: true });
      expect(await service.checkUsername('app-1', 'Admin')).toEqual({ available: false, reason: 'reserved' });
      for (const invalid of ['ab', '1abc', 'a'.repeat(21), 'has space', 'dash-ed']) {
        expect(await service.checkUsername('app-1', invalid)).toEqual({ available: false, reason: 'invalid' });
      }
      expect(await service.checkUsername('app-1', `a${'b'.repeat(19)}`)).toEqual({ available: true });
    });

    it('refuses to create an account under a taken name with USERNAME_TAKEN, and an unusable one with USERNAME_INVALID', async () => {
      const { service, users } = setup();
      await service.create({ builderAppId: 'app-1', eoa: EOA, username: 'alice' });

      await expect(service.create({ builderAppId: 'app-1', eoa: EOA2, username: 'ALICE' })).rejects.toMatchObject({
        code: 'USERNAME_TAKEN',
      });
      await expect(service.create({ builderAppId: 'app-1', eoa: EOA2, username: 'root' })).rejects.toMatchObject({
        code: 'USERNAME_INVALID',
        details: { reason: 'reserved' },
      });
      await expect(service.create({ builderAppId: 'app-1', eoa: EOA2, username: '9lives' })).rejects.toMatchObject({
        code: 'USERNAME_INVALID',
        details: { reason: 'invalid' },
      });
      expect(users.size).toBe(1);
    });
  });

  describe('create', () => {
    it('creates an account with a fresh managed wallet whose sealed key belongs to its address', async () => {
      const { service, box, users } = setup();

      const user = await service.create({ builderAppId: 'app-1', eoa: EOA.toLowerCase(), username: 'Alice' });

      expect(user).toMatchObject({
        builderAppId: 'app-1',
        eoaAddress: EOA,
        username: 'Alice',
        usernameLower: 'alice',
        walletKeyVersion: 1,
        inviteCode: null,
        createdAt: new Date(T0),
      });
      expect(privateKeyToAddress(box.open(user.walletKeyCiphertext) as `0x${string}`)).toBe(user.managedAddress);
      expect(users.get(user.id)).toEqual(user);
      const other = await service.create({ builderAppId: 'app-1', eoa: null, username: null });
      expect(other.managedAddress).not.toBe(user.managedAddress);
    });

    it('refuses a second account for the same wallet of an app with ACCOUNT_EXISTS', async () => {
      const { service } = setup();
      await service.create({ builderAppId: 'app-1', eoa: EOA, username: null });

      await expect(service.create({ builderAppId: 'app-1', eoa: EOA, username: null })).rejects.toMatchObject({
        code: 'ACCOUNT_EXISTS',
      });
      await expect(service.create({ builderAppId: 'app-2', eoa: EOA, username: null })).resolves.toMatchObject({
        builderAppId: 'app-2',
      });
    });

    it('answers USERNAME_TAKEN when the name is taken between the check and the insert', async () => {
      const { service, repo } = setup();
      await service.create({ builderAppId: 'app-1', eoa: EOA, username: 'late' });
      // The check reads the table before the other account's insert is visible.
      repo.usernameTaken.mockResolvedValueOnce(false);

      await expect(service.create({ builderAppId: 'app-1', eoa: EOA2, username: 'Late' })).rejects.toMatchObject({
        code: 'USERNAME_TAKEN',
      });
    });
  });

  describe('invite gate', () => {
    it('redeems a use of the code in the sign-up, at the clock time, and records the code on the account', async () => {
      const { service, invites, redeemed, clock } = setup({ gate: true });
      clock.advance(5_000);

      const user = await service.create({ builderAppId: 'app-1', eoa: EOA, username: null, inviteCode: 'WELCOME' });

      expect(user.inviteCode).toBe('WELCOME');
      expect(redeemed).toEqual([{ code: 'WELCOME', userId: user.id, now: new Date(T0 + 5_000) }]);
      expect(invites.get('WELCOME')?.uses).toBe(0);
    });

    it('creates no account when the gate refuses the code or its last use is gone', async () => {
      const { service, users } = setup({ gate: true });

      await expect(service.create({ builderAppId: 'app-1', eoa: EOA, username: null })).rejects.toMatchObject({
        code: 'INVITE_REQUIRED',
      });
      await expect(
        service.create({ builderAppId: 'app-1', eoa: EOA, username: null, inviteCode: 'NOPE' }),
      ).rejects.toMatchObject({ code: 'INVITE_NOT_FOUND' });
      await expect(
        service.create({ builderAppId: 'app-1', eoa: EOA, username: null, inviteCode: 'SPENT' }),
      ).rejects.toMatchObject({ code: 'INVITE_EXHAUSTED' });
      expect(users.size).toBe(0);
    });

    it('never gates accounts a builder registers for known wallets', async () => {
      const { service, redeemed } = setup({ gate: true });

      const result = await service.registerAddresses('app-1', [EOA]);

      expect(result).toMatchObject({ created: 1, existing: 0, invalid: 0 });
      expect(redeemed).toEqual([]);
    });
  });

  describe('registerAddresses', () => {
    it('creates each new address once, reports known and repeated ones as existing and garbage as invalid', async () => {
      const { service, users } = setup();
      await service.create({ builderAppId: 'app-1', eoa: EOA, username: null });

      const result = await service.registerAddresses('app-1', [EOA.toLowerCase(), EOA2, EOA2.toLowerCase(), 'nope']);

      expect(result).toEqual({
        results: [
          { address: EOA, status: 'exists' },
          { address: EOA2, status: 'created' },
          { address: EOA2, status: 'exists' },
          { address: 'nope', status: 'invalid', reason: 'not a 20-byte hex address' },
        ],
        created: 1,
        existing: 2,
        invalid: 1,
      });
      expect([...users.values()].filter((u) => u.eoaAddress === EOA2)).toHaveLength(1);
    });

    it('reports an address created concurrently by another request as existing', async () => {
      const { service, repo } = setup();
      await service.create({ builderAppId: 'app-1', eoa: EOA, username: null });
      // The lookup reads the table before the other request's insert is visible.
      repo.byEoa.mockResolvedValueOnce(null);

      expect(await service.registerAddresses('app-1', [EOA])).toMatchObject({
        results: [{ address: EOA, status: 'exists' }],
        created: 0,
        existing: 1,
      });
    });
  });

  describe('sessions and identities', () => {
    it('issues a user token for the account, its app and both addresses', async () => {
      const { service, tokens } = setup();
      const user = await service.create({ builderAppId: 'app-1', eoa: EOA, username: 'alice' });

      const session = await service.session(user);

      expect(session).toMatchObject({
        exists: true,
        expiresAt: new Date(T0 + 600_000).toISOString(),
        user: { id: user.id, address: user.managedAddress, eoaAddress: EOA, username: 'alice' },
      });
      expect(await tokens.verifyUser(session.token)).toMatchObject({
        sub: user.id,
        bap: 'app-1',
        address: user.managedAddress,
        eoaAddress: EOA,
      });
    });

    it('links an identity to one account only, refusing a second link with IDENTITY_ALREADY_LINKED', async () => {
      const { service, links } = setup();
      const alice = await service.create({ builderAppId: 'app-1', eoa: EOA, username: null });
      const bob = await service.create({ builderAppId: 'app-1', eoa: EOA2, username: null });

      await service.linkIdentity(alice, 'https://idp.test', 'sub-1');

      expect(await service.byIdentity('app-1', 'https://idp.test', 'sub-1')).toMatchObject({ id: alice.id });
      expect(links[0]).toMatchObject({ userId: alice.id, createdAt: new Date(T0) });
      await expect(service.linkIdentity(bob, 'https://idp.test', 'sub-1')).rejects.toMatchObject({
        code: 'IDENTITY_ALREADY_LINKED',
      });
      expect(await service.byIdentity('app-1', 'https://idp.test', 'sub-1')).toMatchObject({ id: alice.id });
    });
  });
});
