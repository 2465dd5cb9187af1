import type { Address } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { MotorsportPort } from '../../adapters/sports-provider/motorsport.port.js';
import type { Clock } from '../../platform/clock.js';
import type { Orm } from '../../platform/db/orm.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import type { Logger } from '../../logger.js';
import type { SignerLookup } from '../tournaments/tournament-bond.service.js';
import type { TournamentSettings } from '../tournaments/tournament.types.js';
import type { Tournaments } from '../tournaments/tournaments.js';
import { RacingDb } from './racing.repository.js';
import { RacingReadService } from './racing-read.service.js';
import { SeasonCatalog } from './racing-season.cache.js';
import { RacingSettlementService } from './racing-settlement.service.js';
import { RacingService } from './racing.service.js';

export const RACING_QUEUE = 'racing';

/** Racing tournaments (F1 grid predictor) as the container wires them. */
export interface Racing {
  readonly writes: RacingService;
  readonly reads: RacingReadService;
  readonly settlement: RacingSettlementService;
  /** Schedules the results sweep on the job engine. */
  attach(jobs: JobEngine): Promise<void>;
}

export interface RacingDeps {
  readonly orm: Orm;
  readonly motorsport: MotorsportPort;
  readonly tournaments: Tournaments;
  readonly vault: PrizeVaultPort;
  readonly signers: SignerLookup;
  readonly distributions: DistributionBook;
  readonly settings: TournamentSettings;
  readonly treasury: Address;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How often results are asked for. */
  readonly sweepEveryMs: number;
}

export function createRacing(deps: RacingDeps): Racing {
  const db = new RacingDb(deps.orm);
  const seasons = new SeasonCatalog(deps.motorsport, deps.clock);
  const writes = new RacingService({
    db,
    seasons,
    vault: deps.vault,
    signers: deps.signers,
    bonds: deps.tournaments.bonds,
    entries: deps.tournaments.entries,
    settings: deps.settings,
  });
  const settlement = new RacingSettlementService({
    db,
    seasons,
    vault: deps.vault,
    book: deps.distributions,
    treasury: deps.treasury,
    clock: deps.clock,
    logger: deps.logger,
  });
  const reads = new RacingReadService({
    db,
    seasons,
    racing: writes,
    book: deps.distributions,
    vault: deps.vault,
    clock: deps.clock,
  });
  return {
    writes,
    reads,
    settlement,
    async attach(jobs) {
      await jobs.every(RACING_QUEUE, 'racing-sweep', deps.sweepEveryMs, {});
      jobs.work<Record<string, never>>({
        queue: RACING_QUEUE,
        concurrency: 1,
        handler: async () => {
          await settlement.sweep();
        },
      });
    },
  };
}
