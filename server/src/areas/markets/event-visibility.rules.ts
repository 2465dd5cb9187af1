import type { EventAccess } from '../../platform/events/event-stream.service.js';
import type { StoredEvent } from '../../platform/events/event.types.js';
import type { Duel } from './duel.entity.js';
import type { MarketAccess } from './market-access.js';

/**
 * Personal events and the field of their `data` that names the account they belong to: a user
 * sees such an event only when it is theirs (docs/events.md).
 */
export const PERSONAL_EVENTS: Readonly<Record<string, string>> = {
  'bet.confirmed': 'trader',
  'bet.failed': 'trader',
  'payout.claimable': 'account',
  'deposit.credited': 'account',
};

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * What a signed-in user may see of the builder app's events (the user's event stream): a public
 * market's events, a private market's only while the user is its creator or a member, and
 * personal events only when they are the user's own — of another user's trade on a market the
 * user may see, only the price it moved to. Judged when each event is sent, so a member who
 * leaves stops seeing the market's events and a new member starts.
 */
export class UserEventVisibility {
  constructor(
    private readonly duels: {
      byDuelId(duelId: string): Promise<Pick<Duel, 'duelId' | 'isPrivate' | 'creatorAddress'> | null>;
    },
    private readonly access: MarketAccess,
  ) {}

  /** The judge of one user's stream; `address` is the user's managed address. */
  forUser(address: string): (e: StoredEvent) => Promise<EventAccess> {
    return (e) => this.of(e, address);
  }

  async of(e: Pick<StoredEvent, 'type' | 'duelId' | 'isPrivate' | 'data'>, address: string): Promise<EventAccess> {
    if (e.isPrivate) {
      if (!e.duelId) return 'none';
      const duel = await this.duels.byDuelId(e.duelId);
      if (!duel || !(await this.access.canView(duel, address))) return 'none';
    }
    const field = PERSONAL_EVENTS[e.type];
    if (!field) return 'event';
    const owner = (e.data as Record<string, unknown> | null)?.[field];
    return typeof owner === 'string' && same(owner, address) ? 'event' : 'price';
  }
}
