import type { LocalAccount } from 'viem';
import { DomainError } from '../../errors.js';
import { managedSigner } from './managed-wallet.js';
import type { SecretBox } from './secret-box.js';
import type { UserService } from './user.service.js';

/** How many users' sealed keys are remembered; the oldest is forgotten first. */
const REMEMBERED = 10_000;

/** The signing accounts of users' managed wallets: the server signs their chain writes. */
export class ManagedSigners {
  /**
   * A user's managed address and sealed key, by user id. Both are fixed when the user is created
   * and users are never deleted, so a remembered pair cannot go stale; the key stays sealed.
   */
  private readonly wallets = new Map<string, { readonly address: string; readonly sealed: string }>();

  constructor(
    private readonly users: UserService,
    private readonly box: SecretBox,
  ) {}

  async forUser(userId: string): Promise<LocalAccount> {
    let wallet = this.wallets.get(userId);
    if (!wallet) {
      const user = await this.users.byId(userId);
      if (!user) throw new DomainError('UNAUTHENTICATED', 'The account of this token no longer exists');
      wallet = { address: user.managedAddress, sealed: user.walletKeyCiphertext };
      if (this.wallets.size >= REMEMBERED) this.wallets.delete(this.wallets.keys().next().value as string);
      this.wallets.set(userId, wallet);
    }
    return managedSigner(this.box, wallet.sealed, wallet.address);
  }
}
