import type { BridgePort } from '../../adapters/bridge/bridge.port.js';
import type { ChainPort } from '../../adapters/chain/chain.port.js';
import type { Clock } from '../../platform/clock.js';
import type { Orm } from '../../platform/db/orm.js';
import type { Logger } from '../../logger.js';
import type { Duel } from '../markets/duel.entity.js';
import type { ScheduledTask } from '../markets/market-jobs.js';
import type { ClaimsDeps } from './claims.service.js';
import { ClaimsRepository } from './claims.repository.js';
import { ClaimsService } from './claims.service.js';
import { ReferralsRepository } from './referrals.repository.js';
import { DepositRepository } from './deposit.repository.js';
import { DepositWebhookService } from './deposit-webhook.service.js';
import type { NotificationsPort } from '../../adapters/notifications/notifications.port.js';
import { ReferralsService } from './referrals.service.js';
import { WithdrawalRequestService } from './withdrawal-requests.service.js';
import { WithdrawalRepository } from './withdrawal.repository.js';
import { WithdrawalService } from './withdrawal.service.js';
import type { LocalAccount } from 'viem';

/** The money area as the container wires it (docs/money.md). */
export interface Money {
  readonly claims: ClaimsService;
  readonly withdrawals: WithdrawalService;
  readonly requests: WithdrawalRequestService;
  readonly referrals: ReferralsService;
  readonly deposits: DepositWebhookService;
  /** Periodic work on the job engine: complete sent withdrawals, execute approved requests. */
  readonly tasks: readonly ScheduledTask[];
}

export interface MoneyDeps {
  readonly orm: Orm;
  readonly chain: ChainPort;
  readonly duels: { require(duelId: string): Promise<Duel> };
  readonly payouts: ClaimsDeps['payouts'];
  readonly signers: { forUser(userId: string): Promise<LocalAccount> };
  readonly bridge: BridgePort | undefined;
  readonly clock: Clock;
  readonly dailyLimit: { readonly credits: bigint; readonly usdc: bigint };
  readonly notifications: NotificationsPort;
  readonly bridgeWebhook: { readonly secrets: readonly string[]; readonly toleranceSeconds: number };
  readonly logger: Logger;
}

export function createMoney(deps: MoneyDeps): Money {
  const claims = new ClaimsService({
    repo: new ClaimsRepository(deps.orm),
    chain: deps.chain,
    duels: deps.duels,
    payouts: deps.payouts,
  });
  const repo = new WithdrawalRepository(deps.orm);
  const withdrawals = new WithdrawalService({
    repo,
    chain: deps.chain,
    signers: deps.signers,
    bridge: deps.bridge,
    clock: deps.clock,
    dailyLimit: deps.dailyLimit,
    logger: deps.logger,
  });
  const requests = new WithdrawalRequestService(repo, withdrawals, deps.clock, deps.logger);
  const deposits = new DepositWebhookService({
    repo: new DepositRepository(deps.orm),
    bridge: deps.bridge,
    notifications: deps.notifications,
    clock: deps.clock,
    secrets: deps.bridgeWebhook.secrets,
    toleranceSeconds: deps.bridgeWebhook.toleranceSeconds,
    logger: deps.logger,
  });
  return {
    claims,
    withdrawals,
    requests,
    referrals: new ReferralsService(new ReferralsRepository(deps.orm)),
    deposits,
    tasks: [
      {
        name: 'withdrawals-sweep',
        everyMs: 2_000,
        run: async () => {
          await withdrawals.completeSubmitted();
          await requests.sweep();
        },
      },
      { name: 'bridge-deposits-sweep', everyMs: 1_000, run: () => deposits.sweep() },
    ],
  };
}
