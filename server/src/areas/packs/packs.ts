import type { Address } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { Clock } from '../../platform/clock.js';
import type { Orm } from '../../platform/db/orm.js';
import type { JobEngine } from '../../platform/jobs/job-engine.js';
import type { DistributionBook } from '../../platform/merkle/distribution-book.js';
import type { Logger } from '../../logger.js';
import type { ScheduledTask } from '../markets/market-jobs.js';
import type { ParentMarketService } from '../parent-markets/parent-market.service.js';
import { PackClaimRelayer, type RelayerOptions } from './pack-claim-relayer.js';
import { PackEntryService, type SignerSource, type WalletFunds } from './pack-entry.service.js';
import { PackLifecycleService, type MarketDecisions } from './pack-lifecycle.service.js';
import { PackPayoutService } from './pack-payouts.service.js';
import { PackClaimRunRepository } from './pack-claim-run.repository.js';
import { PackRepository } from './pack.repository.js';
import { PackService, type DuelReader, type PriceSeriesSource } from './pack.service.js';
import { PackStandings } from './pack-standings.js';
import { PackTick } from './pack-tick.js';

/** The packs area as the container wires it. */
export interface Packs {
  readonly catalog: PackService;
  readonly entries: PackEntryService;
  readonly standings: PackStandings;
  readonly lifecycle: PackLifecycleService;
  readonly payouts: PackPayoutService;
  readonly relayer: PackClaimRelayer;
  readonly tick: PackTick;
  /** The repeating tick, scheduled with the markets area's periodic work. */
  readonly tasks: readonly ScheduledTask[];
  /** Runs the auto-claim worker on the job engine. */
  attach(jobs: JobEngine): void;
}

export interface PacksDeps {
  readonly orm: Orm;
  readonly parents: ParentMarketService;
  readonly duels: DuelReader;
  readonly history: PriceSeriesSource;
  readonly decisions: MarketDecisions;
  readonly book: DistributionBook;
  readonly vault: PrizeVaultPort;
  readonly funds: WalletFunds;
  readonly signers: SignerSource;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: {
    readonly feeBps: number;
    /** Receives the fee of every settled pack. */
    readonly treasury: Address;
    /** Creator address of the packs admins create. */
    readonly platformAddress: Address;
    readonly tickMs: number;
  };
  readonly relayer?: RelayerOptions;
}

export function createPacks(deps: PacksDeps): Packs {
  const { clock, logger } = deps;
  const repo = new PackRepository(deps.orm);
  const runs = new PackClaimRunRepository(deps.orm);
  const catalog = new PackService(repo, deps.parents, deps.duels, deps.vault, deps.settings, clock, deps.history);
  const entries = new PackEntryService(repo, catalog, deps.vault, deps.funds, deps.signers, clock, logger);
  const standings = new PackStandings(repo, catalog, clock);
  const lifecycle = new PackLifecycleService(
    repo,
    catalog,
    entries,
    standings,
    deps.decisions,
    deps.book,
    deps.vault,
    deps.settings.treasury,
    clock,
    logger,
  );
  const payouts = new PackPayoutService(runs, catalog, lifecycle, deps.book, deps.vault);
  const relayer = new PackClaimRelayer(repo, runs, catalog, deps.book, deps.vault, logger, deps.relayer);
  const tick = new PackTick(repo, catalog, entries, lifecycle, payouts, relayer, clock, logger);
  return {
    catalog,
    entries,
    standings,
    lifecycle,
    payouts,
    relayer,
    tick,
    tasks: [{ name: 'packs-tick', everyMs: deps.settings.tickMs, run: () => tick.run() }],
    attach: (jobs) => relayer.attach(jobs),
  };
}
