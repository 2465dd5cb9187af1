import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Money } from '../../areas/money/money.js';
import type { Packs } from '../../areas/packs/packs.js';
import type { AdminAuthService } from '../../areas/identity/admin-auth.service.js';
import type { AuthService } from '../../areas/identity/auth.service.js';
import type { LeaderboardService } from '../../areas/analytics/leaderboard.service.js';
import type { PortfolioService } from '../../areas/analytics/portfolio.service.js';
import type { StatsService } from '../../areas/analytics/stats.service.js';
import type { BetsService } from '../../areas/markets/bets.service.js';
import type { DuelService } from '../../areas/markets/duel.service.js';
import type { PriceHistoryService } from '../../areas/markets/price-history.service.js';
import type { ParlayTournamentsAdminService } from '../../areas/parlay-tournaments-admin/parlay-tournaments-admin.service.js';
import type { UploadService } from '../../areas/uploads/upload.service.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { adminAuthRoutes } from './admin-auth.routes.js';
import { adminMarketRoutes, type AdminMarketRouteDeps } from './admin-market.routes.js';
import { leaderboardRoutes, portfolioRoutes, statsRoutes } from './analytics.routes.js';
import { authRoutes, bulkRegisterRoutes, walletRoutes } from './auth.routes.js';
import { betRoutes } from './bets.routes.js';
import { duelRoutes } from './duels.routes.js';
import { invitationRoutes, type InvitationRouteDeps } from './invitations.routes.js';
import { moneyRoutes } from './money.routes.js';
import { uploadRoutes } from './uploads.routes.js';
import { bridgeWebhookRoutes } from './bridge-webhook.routes.js';
import { referralAdminRoutes, referralRoutes } from './referrals.routes.js';
import { withdrawalAdminRoutes, withdrawalRoutes } from './withdrawals.routes.js';
import { packAdminRoutes } from './packs-admin.routes.js';
import { packRoutes } from './packs.routes.js';
import { parentMarketRoutes, type ParentMarketRouteDeps } from './parent-markets.routes.js';
import { parlayTournamentsAdminRoutes } from './parlay-tournaments-admin.routes.js';
import { priceHistoryRoutes } from './price-history.routes.js';
import { platformInviteRoutes } from './platform-invites.routes.js';
import { platformRequestRoutes, reportRoutes } from './reports.routes.js';
import { resolutionRoutes } from './resolution.routes.js';
import type { PlatformInviteService } from '../../areas/platform-invites/platform-invite.service.js';
import type { PlatformRequestService } from '../../areas/reports/platform-request.service.js';
import type { ReportService } from '../../areas/reports/report.service.js';
import { extmarketRoutes, type ExtMarketServices } from './extmarket.routes.js';
import { webhookRoutes } from './webhooks.routes.js';
import type { WebhookService } from '../../areas/webhooks/webhook.service.js';

import { eventStreamRoutes } from './event-stream.routes.js';
import type { EventStreamService } from '../../platform/events/event-stream.service.js';
import type { UserEventVisibility } from '../../areas/markets/event-visibility.rules.js';
const s = initServer();

/** The services the markets host's routes call (container.ts builds them, app.ts hands them over). */
export interface MarketsRouterDeps {
  readonly auth: AuthService;
  readonly admins: AdminAuthService;
  readonly adminLogin: { readonly perEmail: RateLimiter; readonly perIp: RateLimiter };
  readonly analytics: {
    readonly stats: StatsService;
    readonly leaderboards: LeaderboardService;
    readonly portfolio: PortfolioService;
  };
  readonly money: Money;
  readonly uploads: UploadService;
  readonly priceHistory: PriceHistoryService;
  readonly duels: DuelService;
  readonly bets: BetsService;
  /** Where the markets host is reached from outside (share links). */
  readonly publicBaseUrl: string;
  readonly privateMarkets: InvitationRouteDeps;
  readonly parentMarkets: ParentMarketRouteDeps;
  readonly settlement: AdminMarketRouteDeps;
  readonly packs: Packs;
  readonly parlayTournamentsAdmin: ParlayTournamentsAdminService;
  readonly extmarket: ExtMarketServices;
  readonly webhooks: WebhookService;
  readonly eventStream: EventStreamService;
  readonly eventVisibility: UserEventVisibility;
  readonly operations: {
    readonly invites: PlatformInviteService;
    readonly reports: ReportService;
    readonly requests: PlatformRequestService;
  };
}

/** Implementation of every markets-host route: one line per area. */
export function marketsRouter(d: MarketsRouterDeps) {
  return s.router(marketsContract, {
    auth: authRoutes(d),
    wallet: walletRoutes(d),
    bulkRegister: bulkRegisterRoutes(d),
    protocolStats: statsRoutes(d.analytics),
    leaderboard: leaderboardRoutes(d.analytics),
    portfolio: portfolioRoutes(d.analytics),
    money: moneyRoutes(d.money),
    withdrawals: withdrawalRoutes(d.money),
    withdrawalsAdmin: withdrawalAdminRoutes(d.money),
    referrals: referralRoutes(d.money),
    referralsAdmin: referralAdminRoutes(d.money),
    bridgeWebhook: bridgeWebhookRoutes(d.money),
    uploads: uploadRoutes({ service: d.uploads }),
    priceHistory: priceHistoryRoutes(d),
    duels: duelRoutes({ duels: d.duels, publicBaseUrl: d.publicBaseUrl }),
    bets: betRoutes({ bets: d.bets }),
    invitations: invitationRoutes(d.privateMarkets),
    parentMarkets: parentMarketRoutes(d.parentMarkets),
    resolution: resolutionRoutes({ resolution: d.settlement.resolution }),
    adminMarket: adminMarketRoutes(d.settlement),
    packs: packRoutes(d.packs),
    packsAdmin: packAdminRoutes(d.packs),
    parlayTournamentsAdmin: parlayTournamentsAdminRoutes(d.parlayTournamentsAdmin),
    platformInvites: platformInviteRoutes({ invites: d.operations.invites }),
    reports: reportRoutes({ reports: d.operations.reports }),
    requests: platformRequestRoutes({ requests: d.operations.requests }),
    extmarket: extmarketRoutes(d.extmarket),
    webhooks: webhookRoutes({ webhooks: d.webhooks }),
    events: eventStreamRoutes({ stream: d.eventStream, visibility: d.eventVisibility }),
    adminAuth: adminAuthRoutes({
      admins: d.admins,
      loginPerEmail: d.adminLogin.perEmail,
      loginPerIp: d.adminLogin.perIp,
    }),
  });
}
