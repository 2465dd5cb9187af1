import { getAddress, verifyMessage, verifyTypedData } from 'viem';
import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import type { StoragePort } from '../../adapters/storage/storage.port.js';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import { AuthService } from './auth.service.js';
import type { IdpService } from './idp.service.js';
import type { UserIdentityRecord, UserRecord } from './identity.entities.js';
import { SecretBox } from './secret-box.js';
import type { SiweService } from './siwe.service.js';
import { TokenService } from './token.service.js';
import type { UserRepository } from './user.repository.js';
import { UserService } from './user.service.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const ALICE = getAddress('0x00000000000000000000000000000000000000aa');
const BOB = getAddress('0x00000000000000000000000000000000000000bb');
const ISSUER = 'https://idp.test';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);

/** A SIWE message the fake verifier accepts: it names the wallet that "signed" it. */
const signedBy = (address: string) => ({ message: `signed-by:${address}`, signature: 'valid' });

/**
 * The real UserService on in-memory users; SIWE and the identity provider are stand-ins that
 * accept what the test marks valid (their own rules are tested beside them).
 */
function setup() {
  const clock = new ManualClock(T0);
  const box = new SecretBox(Buffer.alloc(32, 9));
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
  repo.insert.mockImplementation((user) => {
    users.set(user.id, { ...user });
    return Promise.resolve({ ...user });
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
    links.push(link);
    return Promise.resolve(true);
  });
  const userService = new UserService(repo, box, tokens, clock);

  const siwe = repositoryMock<SiweService>();
  siwe.verify.mockImplementation((_app, message, signature) =>
    signature === 'valid' && message.startsWith('signed-by:')
      ? Promise.resolve(getAddress(message.slice('signed-by:'.length)))
      : Promise.reject(new DomainError('SIGNATURE_INVALID', 'bad signature')),
  );
  const idp = repositoryMock<IdpService>();
  idp.verify.mockImplementation((token) =>
    token.startsWith('idp:')
      ? Promise.resolve({ issuer: ISSUER, subject: token.slice(4) })
      : Promise.reject(new DomainError('IDENTITY_TOKEN_INVALID', 'bad token')),
  );
  const stored = new Map<string, { body: Buffer; contentType: string }>();
  const storage: StoragePort = {
    put(key, body, contentType) {
      stored.set(key, { body, contentType });
      return Promise.resolve(`https://cdn.test/${key}`);
    },
  };
  const auth = new AuthService(siwe, userService, idp, box, storage);
  return { clock, tokens, users, links, stored, auth };
}

describe('AuthService', () => {
  describe('wallet sign-in', () => {
    it('answers exists: false for a wallet without an account, and a session once it registered', async () => {
      const { auth, tokens } = setup();

      expect(await auth.eoaLogin('app-1', signedBy(ALICE).message, 'valid')).toEqual({ exists: false });
      const registered = await auth.eoaRegister('app-1', { ...signedBy(ALICE), username: 'alice' });
      const login = await auth.eoaLogin('app-1', signedBy(ALICE).message, 'valid');

      expect(login).toMatchObject({ exists: true, user: { eoaAddress: ALICE, username: 'alice' } });
      if (!login.exists) throw new Error('unreachable');
      expect(login.user.id).toBe(registered.user.id);
      expect(await tokens.verifyUser(login.token)).toMatchObject({ sub: registered.user.id, bap: 'app-1' });
    });

    it('refuses to register a wallet twice in one app with ACCOUNT_EXISTS', async () => {
      const { auth, users } = setup();
      await auth.eoaRegister('app-1', { ...signedBy(ALICE), username: 'alice' });

      await expect(auth.eoaRegister('app-1', { ...signedBy(ALICE), username: 'alice2' })).rejects.toMatchObject({
        code: 'ACCOUNT_EXISTS',
      });
      await auth.eoaRegister('app-2', { ...signedBy(ALICE), username: 'alice' });
      expect(users.size).toBe(2);
    });

    it('creates nothing when the signature does not verify', async () => {
      const { auth, users } = setup();
      await expect(
        auth.eoaRegister('app-1', { message: signedBy(ALICE).message, signature: 'forged', username: 'alice' }),
      ).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' });
      expect(users.size).toBe(0);
    });
  });

  describe('identity-provider sign-in', () => {
    it('registers an account linked to the identity, which then signs in with it', async () => {
      const { auth, links } = setup();

      expect(await auth.idpLogin('app-1', 'idp:sub-1')).toEqual({ exists: false });
      const registered = await auth.idpRegister('app-1', 'idp:sub-1', 'alice');

      expect(registered.user).toMatchObject({ eoaAddress: null, username: 'alice' });
      expect(links).toMatchObject([{ userId: registered.user.id, issuer: ISSUER, subject: 'sub-1' }]);
      expect(await auth.idpLogin('app-1', 'idp:sub-1')).toMatchObject({
        exists: true,
        user: { id: registered.user.id },
      });
      expect(await auth.idpLogin('app-2', 'idp:sub-1')).toEqual({ exists: false });
    });

    it('refuses to register an identity that has an account with ACCOUNT_EXISTS', async () => {
      const { auth, users } = setup();
      await auth.idpRegister('app-1', 'idp:sub-1', 'alice');

      await expect(auth.idpRegister('app-1', 'idp:sub-1', 'other')).rejects.toMatchObject({ code: 'ACCOUNT_EXISTS' });
      expect(users.size).toBe(1);
    });

    it('migrates: links the identity to the account of the signing wallet, once, and signs it in', async () => {
      const { auth, links } = setup();
      const wallet = await auth.eoaRegister('app-1', { ...signedBy(ALICE), username: 'alice' });

      const first = await auth.idpMigrate('app-1', 'idp:sub-1', signedBy(ALICE).message, 'valid');
      const again = await auth.idpMigrate('app-1', 'idp:sub-1', signedBy(ALICE).message, 'valid');

      expect(first.user.id).toBe(wallet.user.id);
      expect(again.user.id).toBe(wallet.user.id);
      expect(links).toHaveLength(1);
      expect(await auth.idpLogin('app-1', 'idp:sub-1')).toMatchObject({ user: { id: wallet.user.id } });
    });

    it('refuses to migrate to a wallet without an account (NOT_FOUND) or an identity linked elsewhere (IDENTITY_ALREADY_LINKED)', async () => {
      const { auth, links } = setup();
      await auth.idpRegister('app-1', 'idp:sub-1', 'alice');
      await auth.eoaRegister('app-1', { ...signedBy(BOB), username: 'bob' });

      await expect(auth.idpMigrate('app-1', 'idp:sub-2', signedBy(ALICE).message, 'valid')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(auth.idpMigrate('app-1', 'idp:sub-1', signedBy(BOB).message, 'valid')).rejects.toMatchObject({
        code: 'IDENTITY_ALREADY_LINKED',
      });
      expect(links).toHaveLength(1);
    });
  });

  describe('profile image', () => {
    it('stores an image under the user by its sniffed type and records its URL', async () => {
      const { auth, users, stored } = setup();
      const { user } = await auth.eoaRegister('app-1', { ...signedBy(ALICE), username: 'alice' });

      const { profileImageUrl } = await auth.profileImage(user.id, { buffer: PNG });

      const key = profileImageUrl.replace('https://cdn.test/', '');
      expect(key).toMatch(new RegExp(`^profile-images/${user.id}/[0-9a-f-]{36}\\.png$`));
      expect(stored.get(key)).toEqual({ body: PNG, contentType: 'image/png' });
      expect(users.get(user.id)?.profileImageUrl).toBe(profileImageUrl);
    });

    it('refuses a missing file with VALIDATION_FAILED and a non-image with UNSUPPORTED_IMAGE', async () => {
      const { auth, stored } = setup();
      await expect(auth.profileImage('u1', undefined)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        fieldErrors: { 'body.image': ['Required'] },
      });
      await expect(auth.profileImage('u1', { buffer: Buffer.from('not an image') })).rejects.toMatchObject({
        code: 'UNSUPPORTED_IMAGE',
      });
      expect(stored.size).toBe(0);
    });
  });

  describe('managed-wallet signing', () => {
    it('signs a message and typed data with the account’s managed wallet', async () => {
      const { auth } = setup();
      const { user } = await auth.eoaRegister('app-1', { ...signedBy(ALICE), username: 'alice' });
      const address = getAddress(user.address);

      const text = await auth.sign(user.id, 'hello');
      const raw = await auth.sign(user.id, { raw: '0x1234' });
      const typed = {
        domain: { name: 'Duelkit', version: '1', chainId: 31337 },
        types: { Note: [{ name: 'text', type: 'string' }] },
        primaryType: 'Note',
        message: { text: 'hi' },
      };
      const typedSig = await auth.signTypedData(user.id, typed);

      expect(text.address).toBe(address);
      expect(await verifyMessage({ address, message: 'hello', signature: text.signature })).toBe(true);
      expect(await verifyMessage({ address, message: { raw: '0x1234' }, signature: raw.signature })).toBe(true);
      expect(await verifyTypedData({ address, ...typed, primaryType: 'Note', signature: typedSig.signature })).toBe(
        true,
      );
    });

    it('refuses typed data that cannot be encoded with VALIDATION_FAILED, and a vanished account with UNAUTHENTICATED', async () => {
      const { auth } = setup();
      const { user } = await auth.eoaRegister('app-1', { ...signedBy(ALICE), username: 'alice' });

      await expect(
        auth.signTypedData(user.id, {
          domain: {},
          types: { Note: [{ name: 'n', type: 'uint256' }] },
          primaryType: 'Note',
          message: { n: 'not a number' },
        }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(auth.sign('no-such-user', 'hello')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    });
  });

  describe('builder registration', () => {
    it('registers a known wallet once: created, then exists, with the same account', async () => {
      const { auth } = setup();

      const first = await auth.registerSimple('app-1', ALICE.toLowerCase());
      const second = await auth.registerSimple('app-1', ALICE);

      expect(first).toMatchObject({ address: ALICE, status: 'created', user: { eoaAddress: ALICE } });
      expect(second).toMatchObject({ status: 'exists', user: { id: first.user.id } });
      expect(await auth.checkUser('app-1', ALICE.toLowerCase())).toEqual({ exists: true, address: ALICE });
      expect(await auth.checkUser('app-1', BOB)).toEqual({ exists: false, address: BOB });
    });

    it('answers a username check with the name and, when unavailable, why', async () => {
      const { auth } = setup();
      await auth.eoaRegister('app-1', { ...signedBy(ALICE), username: 'alice' });

      expect(await auth.checkUsername('app-1', 'bob')).toEqual({ username: 'bob', available: true });
      expect(await auth.checkUsername('app-1', 'Alice')).toEqual({
        username: 'Alice',
        available: false,
        reason: 'taken',
      });
    });
  });
});
