import type { ScheduledTask } from '../markets/market-jobs.js';
import type { DistributionService } from './distribution.service.js';
import type { MarketAdminService } from './market-admin.service.js';
import type { ResolutionService } from './resolution.service.js';

/**
 * The settlement area's periodic work: close ended markets, settle uncontested ones, sweep the
 * payouts ledger. `onChange` is called when a task changed duel statuses (list caches drop pages).
 */
export function settlementTasks(deps: {
  readonly resolution: ResolutionService;
  readonly distribution: DistributionService;
  readonly admin: MarketAdminService;
  readonly onChange: () => void;
}): ScheduledTask[] {
  const { resolution, distribution, admin } = deps;
  return [
    {
      name: 'close-ended-duels',
      everyMs: 1_000,
      run: async () => {
        if ((await admin.closeEnded()) > 0) deps.onChange();
      },
    },
    { name: 'finalize-uncontested', everyMs: 2_000, run: (now) => resolution.finalizeUncontested(now) },
    { name: 'settlement-sweep', everyMs: 1_000, run: () => distribution.sweep() },
  ];
}
