import { DomainError } from '../../errors.js';
import type { Duel } from './duel.entity.js';

/** Who belongs to a private market. */
export interface MembershipLookup {
  isMember(duelId: string, address: string): Promise<boolean>;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Visibility of private markets: public markets are open to everyone; a private one to its
 * creator (always a member) and its members.
 */
export class MarketAccess {
  constructor(private readonly members: MembershipLookup) {}

  async canView(duel: Pick<Duel, 'duelId' | 'isPrivate' | 'creatorAddress'>, caller?: string): Promise<boolean> {
    if (!duel.isPrivate) return true;
    if (!caller) return false;
    if (same(caller, duel.creatorAddress)) return true;
    return this.members.isMember(duel.duelId, caller);
  }

  async assertCanView(duel: Pick<Duel, 'duelId' | 'isPrivate' | 'creatorAddress'>, caller?: string): Promise<void> {
    if (!(await this.canView(duel, caller))) {
      throw new DomainError(
        'PRIVATE_MARKET',
        'Access denied. This is a private market: join it with an invite code, or sign in as a member.',
        { details: { duelId: duel.duelId } },
      );
    }
  }
}
