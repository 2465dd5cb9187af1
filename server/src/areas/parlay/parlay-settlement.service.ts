import type { Hex } from 'viem';
import type { ParlayBookPort } from '../../adapters/chain/parlay-book.port.js';
import type { FixtureState, FixturesPort } from '../../adapters/sports-provider/fixtures.port.js';
import type { Logger } from '../../logger.js';
import { parseConditionId, type ConditionKey } from './parlay-conditions.mapper.js';
import type { ParlayTicketsRepository } from './parlay-tickets.repository.js';

export interface SettlementDeps {
  readonly book: Pick<ParlayBookPort, 'postResult' | 'settle'>;
  readonly fixtures: Pick<FixturesPort, 'state'>;
  readonly tickets: Pick<ParlayTicketsRepository, 'unresolvedConditions' | 'settleable'>;
  readonly logger: Logger;
}

/** A condition's result from its game's state: null while the game is not over. */
export function resultOf(key: ConditionKey, state: FixtureState): { isVoid: boolean; winningOutcome: number } | null {
  if (state.state === 'void') return { isVoid: true, winningOutcome: 0 };
  if (state.state !== 'finished') return null;
  switch (key.kind) {
    case 'FULL_TIME_RESULT':
      return { isVoid: false, winningOutcome: state.outcome === 'HOME' ? 0 : state.outcome === 'DRAW' ? 1 : 2 };
    case 'GOALS_OVER_UNDER':
      return { isVoid: false, winningOutcome: state.homeScore + state.awayScore > 2 ? 0 : 1 };
    case 'ANYTIME_GOALSCORER':
      // The provider's results carry no scorers: a goalscorer leg is void (dropped and re-priced).
      return { isVoid: true, winningOutcome: 0 };
  }
}

/**
 * Posts the results of the conditions open tickets wait on once their games are over, then
 * settles the tickets the chain can settle. Every write is keyed by what it does
 * (`parlay:result:<conditionId>`, `parlay:settle:<ticketId>`), so a repeated run sends nothing twice.
 */
export class ParlaySettlementService {
  constructor(private readonly deps: SettlementDeps) {}

  async runOnce(): Promise<{ results: number; settled: number }> {
    let results = 0;
    for (const conditionId of await this.deps.tickets.unresolvedConditions(200)) {
      const key = parseConditionId(conditionId);
      if (!key) continue;
      const result = resultOf(key, await this.deps.fixtures.state(key.fixtureId));
      if (!result) continue;
      await this.deps.book.postResult(conditionId as Hex, result.isVoid, result.winningOutcome, {
        key: `parlay:result:${conditionId}`,
      });
      results++;
    }
    let settled = 0;
    for (const ticketId of await this.deps.tickets.settleable(200)) {
      await this.deps.book.settle(ticketId as Hex, { key: `parlay:settle:${ticketId}` });
      settled++;
    }
    if (results || settled) this.deps.logger.info({ results, settled }, 'parlay results posted, tickets settled');
    return { results, settled };
  }
}
