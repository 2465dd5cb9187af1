import { randomUUID } from 'node:crypto';
import { getAddress, isAddress } from 'viem';
import type { User } from '@duelkit/contract';
import { DomainError } from '../../errors.js';
import type { UserRecord } from './identity.entities.js';
import { createManagedWallet } from './managed-wallet.js';
import type { SecretBox } from './secret-box.js';
import type { TokenService } from './token.service.js';
import type { UserRepository } from './user.repository.js';
import type { Clock } from '../../platform/clock.js';
import type { SignUpGate } from './sign-up.gate.js';

const USERNAME = /^[A-Za-z][A-Za-z0-9_]{2,19}$/;
const RESERVED = new Set([
  'admin',
  'administrator',
  'root',
  'system',
  'support',
  'duelkit',
  'moderator',
  'null',
  'undefined',
]);

export type UsernameVerdict = { available: true } | { available: false; reason: 'taken' | 'invalid' | 'reserved' };

export function toUser(r: UserRecord): User {
  return {
    id: r.id,
    address: getAddress(r.managedAddress),
    eoaAddress: r.eoaAddress ? getAddress(r.eoaAddress) : null,
    username: r.username,
    profileImageUrl: r.profileImageUrl,
    builderAppId: r.builderAppId,
    createdAt: r.createdAt.toISOString(),
  };
}

/** Accounts of a builder app's users: creation, lookup, usernames, sessions. */
export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly box: SecretBox,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
    private readonly gate?: SignUpGate,
  ) {}

  byEoa(builderAppId: string, eoa: string): Promise<UserRecord | null> {
    return this.users.byEoa(builderAppId, getAddress(eoa));
  }

  byId(id: string): Promise<UserRecord | null> {
    return this.users.byId(id);
  }

  async checkUsername(builderAppId: string, username: string): Promise<UsernameVerdict> {
    if (!USERNAME.test(username)) return { available: false, reason: 'invalid' };
    if (RESERVED.has(username.toLowerCase())) return { available: false, reason: 'reserved' };
    return (await this.users.usernameTaken(builderAppId, username.toLowerCase()))
      ? { available: false, reason: 'taken' }
      : { available: true };
  }

  /** Creates an account with a fresh managed wallet. */
  async create(input: {
    builderAppId: string;
    eoa: string | null;
    username: string | null;
    inviteCode?: string | undefined;
    /** False for accounts a builder registers for known wallets (bulk registration): no code is asked. */
    gated?: boolean;
  }): Promise<UserRecord> {
    if (input.username) {
      const verdict = await this.checkUsername(input.builderAppId, input.username);
      if (!verdict.available) {
        if (verdict.reason === 'taken') throw new DomainError('USERNAME_TAKEN', `Username ${input.username} is taken`);
        throw new DomainError('USERNAME_INVALID', `Username ${input.username} is ${verdict.reason}`, {
          details: { reason: verdict.reason },
        });
      }
    }
    const now = new Date(this.clock.now());
    // Bulk registration (no code) is the builder's own act, never gated.
    const invite = input.gated === false ? undefined : await this.gate?.admit(input.inviteCode, now);
    const wallet = createManagedWallet(this.box);
    const id = randomUUID();
    const redeem = invite && this.gate;
    const record = {
      id,
      builderAppId: input.builderAppId,
      eoaAddress: input.eoa ? getAddress(input.eoa) : null,
      username: input.username,
      usernameLower: input.username?.toLowerCase() ?? null,
      profileImageUrl: null,
      managedAddress: wallet.address,
      walletKeyCiphertext: wallet.ciphertext,
      walletKeyVersion: 1,
      inviteCode: input.inviteCode ?? null,
      createdAt: now,
    };
    const created = await this.users.insert(record, redeem ? (sql) => redeem.redeem(sql, invite, id, now) : undefined);
    if ('conflict' in created) {
      if (created.conflict === 'username')
        throw new DomainError('USERNAME_TAKEN', `Username ${input.username} is taken`);
      throw new DomainError('ACCOUNT_EXISTS', 'This wallet already has an account; sign in instead');
    }
    return created;
  }

  async session(user: UserRecord) {
    const { token, expiresAt } = await this.tokens.signUser({
      sub: user.id,
      bap: user.builderAppId,
      address: getAddress(user.managedAddress),
      eoaAddress: user.eoaAddress,
    });
    return { exists: true as const, token, expiresAt: expiresAt.toISOString(), user: toUser(user) };
  }

  /** Creates accounts for addresses without one; idempotent per address. */
  async registerAddresses(builderAppId: string, addresses: readonly string[]) {
    const results: { address: string; status: 'created' | 'exists' | 'invalid'; reason?: string }[] = [];
    const seen = new Set<string>();
    for (const raw of addresses) {
      if (!isAddress(raw, { strict: false })) {
        results.push({ address: raw, status: 'invalid', reason: 'not a 20-byte hex address' });
        continue;
      }
      const address = getAddress(raw);
      if (seen.has(address) || (await this.byEoa(builderAppId, address))) {
        seen.add(address);
        results.push({ address, status: 'exists' });
        continue;
      }
      seen.add(address);
      try {
        await this.create({ builderAppId, eoa: address, username: null, gated: false });
        results.push({ address, status: 'created' });
      } catch (err) {
        if (err instanceof DomainError && err.code === 'ACCOUNT_EXISTS') results.push({ address, status: 'exists' });
        else throw err;
      }
    }
    const count = (s: string) => results.filter((r) => r.status === s).length;
    return { results, created: count('created'), existing: count('exists'), invalid: count('invalid') };
  }

  setProfileImage(userId: string, url: string): Promise<void> {
    return this.users.setProfileImage(userId, url);
  }

  byIdentity(builderAppId: string, issuer: string, subject: string): Promise<UserRecord | null> {
    return this.users.byIdentity(builderAppId, issuer, subject);
  }

  async linkIdentity(user: UserRecord, issuer: string, subject: string): Promise<void> {
    const linked = await this.users.linkIdentity({
      id: randomUUID(),
      builderAppId: user.builderAppId,
      userId: user.id,
      issuer,
      subject,
      createdAt: new Date(this.clock.now()),
    });
    if (!linked) throw new DomainError('IDENTITY_ALREADY_LINKED', 'This identity is already linked to an account');
  }
}
