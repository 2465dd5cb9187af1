import type { ChainPort } from '../../adapters/chain/chain.port.js';
import type { Orm } from '../../platform/db/orm.js';
import type { MarketEventSink } from '../markets/market-indexer.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { Logger } from '../../logger.js';
import type { ScheduledTask } from '../markets/market-jobs.js';
import type { MarketAccess } from '../markets/market-access.js';
import { DistributionService } from './distribution.service.js';
import { MarketAdminQueries, type BootstrapThreshold } from './market-admin.queries.js';
import { MarketAdminService } from './market-admin.service.js';
import type { MarketSettingsStore } from './market-settings.js';
import { ResolutionService, type DuelLookup, type SignerLookup } from './resolution.service.js';

/** The settlement area as the container wires it. */
export interface Settlement {
  readonly resolution: ResolutionService;
  readonly distribution: DistributionService;
  readonly admin: MarketAdminService;
  /** The admin's read-only views of markets. */
  readonly adminQueries: MarketAdminQueries;
  readonly settings: MarketSettingsStore;
  /** Records Paid events in the payouts ledger, inside the indexer's transaction. */
  readonly paidSink: MarketEventSink;
  /** Periodic work: close ended markets, settle uncontested ones, sweep the payouts ledger. */
  readonly tasks: readonly ScheduledTask[];
  /** Runs the payment worker on the job engine. */
  attach(jobs: JobEngine): void;
}

export interface SettlementDeps {
  readonly orm: Orm;
  readonly chain: ChainPort;
  readonly duels: DuelLookup;
  readonly signers: SignerLookup;
  readonly access: MarketAccess;
  readonly settings: MarketSettingsStore;
  readonly threshold: BootstrapThreshold;
  readonly logger: Logger;
  /** Called when a job changed duel statuses (list caches drop their pages). */
  readonly onChange?: () => void;
}

export function createSettlement(deps: SettlementDeps): Settlement {
  const { orm, chain, logger } = deps;
  const resolution = new ResolutionService(orm, chain, deps.duels, deps.signers, deps.access, logger);
  const distribution = new DistributionService(orm, chain, logger);
  const adminQueries = new MarketAdminQueries(orm, deps.duels, distribution, deps.settings, deps.threshold);
  const admin = new MarketAdminService(
    orm,
    chain,
    deps.duels,
    distribution,
    adminQueries,
    deps.settings,
    deps.threshold,
    logger,
  );
  const tasks: ScheduledTask[] = [
    {
      name: 'close-ended-duels',
      everyMs: 1_000,
      run: async () => {
        if ((await admin.closeEnded()) > 0) deps.onChange?.();
      },
    },
    { name: 'finalize-uncontested', everyMs: 2_000, run: (now) => resolution.finalizeUncontested(now) },
    { name: 'settlement-sweep', everyMs: 1_000, run: () => distribution.sweep() },
  ];
  return {
    resolution,
    distribution,
    admin,
    adminQueries,
    settings: deps.settings,
    paidSink: distribution.paidSink,
    tasks,
    attach: (jobs) => distribution.attach(jobs),
  };
}
