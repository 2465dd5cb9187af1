import type { EntitySchema } from '@mikro-orm/core';
import { analyticsEntities } from './areas/analytics/analytics.entities.js';
import { buildersEntities } from './areas/builders/builders.entities.js';
import { identityEntities } from './areas/identity/identity.entities.js';
import { invitationsEntities } from './areas/invitations/invitations.entities.js';
import { marketsEntities } from './areas/markets/markets.entities.js';
import { moneyEntities } from './areas/money/money.entities.js';
import { packsEntities } from './areas/packs/packs.entities.js';
import { parentMarketsEntities } from './areas/parent-markets/parent-markets.entities.js';
import { settlementEntities } from './areas/settlement/settlement.entities.js';
import { tournamentsEntities } from './areas/tournaments/tournaments.entities.js';
import { platformEntities } from './platform/platform.entities.js';
import { parlayEntities } from './areas/parlay/parlay.entities.js';
import { platformInvitesEntities } from './areas/platform-invites/platform-invite.entities.js';
import { reportsEntities } from './areas/reports/requests.entities.js';
import { notificationsEntities } from './areas/notifications/notification.entities.js';
import { racingEntities } from './areas/racing/racing.entities.js';
import { extmarketEntities } from './areas/extmarket/extmarket.entities.js';
import { webhookEntities } from './areas/webhooks/webhooks.entities.js';
import { streamMigrationEntities } from './areas/stream-migration/migration-job.entity.js';

/**
 * Every table the ORM maps, assembled by the wiring: each area exports its own list
 * (`areas/<area>/<area>.entities.ts`), so the shared machinery in `platform/` knows no area.
 * A new area adds its list here.
 */
export const entities: readonly EntitySchema[] = [
  ...platformEntities,
  ...buildersEntities,
  ...identityEntities,
  ...marketsEntities,
  ...analyticsEntities,
  ...invitationsEntities,
  ...parentMarketsEntities,
  ...settlementEntities,
  ...packsEntities,
  ...tournamentsEntities,
  ...moneyEntities,
  ...parlayEntities,
  ...platformInvitesEntities,
  ...reportsEntities,
  ...notificationsEntities,
  ...streamMigrationEntities,
  ...racingEntities,
  ...extmarketEntities,
  ...webhookEntities,
];
