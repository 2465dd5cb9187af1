import type { LocalAccount } from 'viem';
import { DomainError } from '../../errors.js';
import { managedAccount } from './managed-wallet.js';
import type { SecretBox } from './secret-box.js';
import type { UserService } from './user.service.js';

/** The signing accounts of users' managed wallets: the server signs their chain writes. */
export class ManagedSigners {
  constructor(
    private readonly users: UserService,
    private readonly box: SecretBox,
  ) {}

  async forUser(userId: string): Promise<LocalAccount> {
    const user = await this.users.byId(userId);
    if (!user) throw new DomainError('UNAUTHENTICATED', 'The account of this token no longer exists');
    return managedAccount(this.box, user.walletKeyCiphertext);
  }
}
