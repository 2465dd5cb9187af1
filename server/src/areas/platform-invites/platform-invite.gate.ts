import { randomUUID } from 'node:crypto';
import type { SqlExec } from '../../platform/db/sql.js';
import type { SignUpGate } from '../identity/sign-up.gate.js';
import type { PlatformInviteRepository } from './platform-invite.repository.js';
import { inviteRefusal, type PlatformInviteService } from './platform-invite.service.js';

/** Sign-up's view of the platform invite codes: admit by the service's rule, redeem in the sign-up's transaction. */
export class PlatformInviteGate implements SignUpGate {
  constructor(
    private readonly service: PlatformInviteService,
    private readonly repo: PlatformInviteRepository,
  ) {}

  admit(code: string | undefined, now: Date) {
    return this.service.checkForSignUp(code, now);
  }

  async redeem(sql: SqlExec, invite: { id: string; code: string }, userId: string, now: Date): Promise<void> {
    const taken = await this.repo.redeem(sql, invite.id, userId, randomUUID(), now);
    // Another sign-up took the last use between the check and here: refused only where codes are required.
    if (!taken && this.service.inviteOnly) throw inviteRefusal(invite.code, 'exhausted');
  }
}
