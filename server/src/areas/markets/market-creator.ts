import { DomainError } from '../../errors.js';
import type { Duel } from './duel.entity.js';

/** Who is acting on a market: the signed-in user and their managed wallet. */
export interface MarketActor {
  readonly userId: string;
  readonly address: string;
}

/** Whether `actor` created the market: the same user, or the creating wallet. */
export function isMarketCreator(duel: Pick<Duel, 'creatorUserId' | 'creatorAddress'>, actor: MarketActor): boolean {
  return duel.creatorUserId === actor.userId || duel.creatorAddress.toLowerCase() === actor.address.toLowerCase();
}

/** FORBIDDEN unless `actor` created the market; `action` completes "Only the market's creator may …". */
export function assertCreator(
  duel: Pick<Duel, 'creatorUserId' | 'creatorAddress' | 'duelId'>,
  actor: MarketActor,
  action: string,
): void {
  if (!isMarketCreator(duel, actor)) {
    throw new DomainError('FORBIDDEN', `Only the market's creator may ${action}`, { details: { duelId: duel.duelId } });
  }
}
