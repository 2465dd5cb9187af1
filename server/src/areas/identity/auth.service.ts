import { randomUUID } from 'node:crypto';
import { getAddress, type Hex, type TypedDataDefinition } from 'viem';
import type { StoragePort } from '../../adapters/storage/storage.port.js';
import { DomainError } from '../../errors.js';
import type { IdpService } from './idp.service.js';
import { sniffImage } from './image-type.js';
import { managedAccount } from './managed-wallet.js';
import type { SecretBox } from './secret-box.js';
import type { SiweService } from './siwe.service.js';
import { toUser, type UserService } from './user.service.js';

/** The user-facing identity flows of §4.1–4.3, composed from the identity building blocks. */
export class AuthService {
  constructor(
    private readonly siwe: SiweService,
    private readonly users: UserService,
    private readonly idp: IdpService,
    private readonly box: SecretBox,
    private readonly storage: StoragePort,
  ) {}

  challenge(builderAppId: string, address: string) {
    return this.siwe.challenge(builderAppId, address);
  }

  async eoaLogin(builderAppId: string, message: string, signature: string) {
    const eoa = await this.siwe.verify(builderAppId, message, signature);
    const user = await this.users.byEoa(builderAppId, eoa);
    return user ? this.users.session(user) : { exists: false as const };
  }

  async eoaRegister(
    builderAppId: string,
    input: { message: string; signature: string; username: string; inviteCode?: string | undefined },
  ) {
    const eoa = await this.siwe.verify(builderAppId, input.message, input.signature);
    if (await this.users.byEoa(builderAppId, eoa))
      throw new DomainError('ACCOUNT_EXISTS', 'This wallet already has an account; sign in instead');
    const user = await this.users.create({ builderAppId, eoa, username: input.username, inviteCode: input.inviteCode });
    return this.users.session(user);
  }

  async idpLogin(builderAppId: string, token: string) {
    const identity = await this.idp.verify(token);
    const user = await this.users.byIdentity(builderAppId, identity.issuer, identity.subject);
    return user ? this.users.session(user) : { exists: false as const };
  }

  async idpRegister(builderAppId: string, token: string, username: string, inviteCode?: string) {
    const identity = await this.idp.verify(token);
    if (await this.users.byIdentity(builderAppId, identity.issuer, identity.subject)) {
      throw new DomainError('ACCOUNT_EXISTS', 'This identity already has an account; sign in instead');
    }
    const user = await this.users.create({ builderAppId, eoa: null, username, inviteCode });
    await this.users.linkIdentity(user, identity.issuer, identity.subject);
    return this.users.session(user);
  }

  /** Links the identity to the account of the wallet that signed the challenge (see docs/auth.md). */
  async idpMigrate(builderAppId: string, token: string, message: string, signature: string) {
    const identity = await this.idp.verify(token);
    const eoa = await this.siwe.verify(builderAppId, message, signature);
    const user = await this.users.byEoa(builderAppId, eoa);
    if (!user) throw new DomainError('NOT_FOUND', 'This wallet has no account to link to; register it first');
    const linked = await this.users.byIdentity(builderAppId, identity.issuer, identity.subject);
    if (linked && linked.id !== user.id)
      throw new DomainError('IDENTITY_ALREADY_LINKED', 'This identity is linked to another account');
    if (!linked) await this.users.linkIdentity(user, identity.issuer, identity.subject);
    return this.users.session(user);
  }

  async checkUsername(builderAppId: string, username: string) {
    const verdict = await this.users.checkUsername(builderAppId, username);
    return verdict.available ? { username, available: true } : { username, available: false, reason: verdict.reason };
  }

  async profileImage(userId: string, file: { buffer: Buffer } | undefined) {
    if (!file)
      throw new DomainError('VALIDATION_FAILED', 'Send the image as the multipart field `image`', {
        fieldErrors: { 'body.image': ['Required'] },
      });
    const kind = sniffImage(file.buffer);
    if (!kind) throw new DomainError('UNSUPPORTED_IMAGE', 'The file is not a PNG, JPEG, WebP or GIF image');
    const url = await this.storage.put(`profile-images/${userId}/${randomUUID()}.${kind.ext}`, file.buffer, kind.mime);
    await this.users.setProfileImage(userId, url);
    return { profileImageUrl: url };
  }

  async sign(userId: string, message: string | { raw: string }) {
    const account = await this.account(userId);
    const signature = await account.signMessage({
      message: typeof message === 'string' ? message : { raw: message.raw as Hex },
    });
    return { address: account.address, signature };
  }

  async signTypedData(
    userId: string,
    typed: {
      domain: Record<string, unknown>;
      types: Record<string, { name: string; type: string }[]>;
      primaryType: string;
      message: Record<string, unknown>;
    },
  ) {
    const account = await this.account(userId);
    try {
      const signature = await account.signTypedData(typed as unknown as TypedDataDefinition);
      return { address: account.address, signature };
    } catch (err) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `Typed data cannot be encoded: ${(err as Error).message.split('\n')[0]}`,
      );
    }
  }

  async registerSimple(builderAppId: string, address: string) {
    const result = await this.users.registerAddresses(builderAppId, [address]);
    const user = await this.users.byEoa(builderAppId, address);
    if (!user) throw new DomainError('INTERNAL', 'account missing after registration');
    return {
      address: getAddress(address),
      status: result.created ? ('created' as const) : ('exists' as const),
      user: toUser(user),
    };
  }

  registerBulk(builderAppId: string, addresses: readonly string[]) {
    return this.users.registerAddresses(builderAppId, addresses);
  }

  async checkUser(builderAppId: string, address: string) {
    return { exists: Boolean(await this.users.byEoa(builderAppId, address)), address: getAddress(address) };
  }

  private async account(userId: string) {
    const user = await this.users.byId(userId);
    if (!user) throw new DomainError('UNAUTHENTICATED', 'The account no longer exists');
    return managedAccount(this.box, user.walletKeyCiphertext);
  }
}
