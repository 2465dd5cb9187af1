import { Migration20261122000000Foundation } from './Migration20261122000000Foundation.js';
import { Migration20261122020000Leases } from './Migration20261122020000Leases.js';
import { Migration20261122030000Duels } from './Migration20261122030000Duels.js';
import { Migration20261122040000Identity } from './Migration20261122040000Identity.js';
import { Migration20261122050000Trades } from './Migration20261122050000Trades.js';
import { Migration20261123090000DuelLifecycle } from './Migration20261123090000DuelLifecycle.js';
import { Migration20261123100000Analytics } from './Migration20261123100000Analytics.js';
import { Migration20261123110000PriceSnapshots } from './Migration20261123110000PriceSnapshots.js';
import { Migration20261123130000Settlement } from './Migration20261123130000Settlement.js';
import { Migration20261123120000Invitations } from './Migration20261123120000Invitations.js';
import { Migration20261123140000IdempotencyJson } from './Migration20261123140000IdempotencyJson.js';
import { Migration20261124000000MerkleDistributions } from './Migration20261124000000MerkleDistributions.js';
import { Migration20261124090000AdminSessions } from './Migration20261124090000AdminSessions.js';
import { Migration20261125000000Packs } from './Migration20261125000000Packs.js';
import { Migration20261125000000Tournaments } from './Migration20261125000000Tournaments.js';
import { Migration20261124100000ChainTx } from './Migration20261124100000ChainTx.js';
import { Migration20261126000000TournamentsClose } from './Migration20261126000000TournamentsClose.js';
import { Migration20261126120000TournamentCancellation } from './Migration20261126120000TournamentCancellation.js';
import { Migration20261127000000CreatorFees } from './Migration20261127000000CreatorFees.js';
import { Migration20261127010000Withdrawals } from './Migration20261127010000Withdrawals.js';
import { Migration20261127020000BridgeDeposits } from './Migration20261127020000BridgeDeposits.js';
import { Migration20261127040000BridgeDepositConflicts } from './Migration20261127040000BridgeDepositConflicts.js';
import { Migration20261128020000Events } from './Migration20261128020000Events.js';
import { Migration20261128010000Racing } from './Migration20261128010000Racing.js';
import { Migration20261128020000ExtMarketRelayerIntents } from './Migration20261128020000ExtMarketRelayerIntents.js';
import { Migration20261128020000ParlayTickets } from './Migration20261128020000ParlayTickets.js';
import { Migration20261205000000FundReserveFunction } from './Migration20261205000000FundReserveFunction.js';
import { Migration20261127100000FundReservations } from './Migration20261127100000FundReservations.js';
import { Migration20261128000000Operations } from './Migration20261128000000Operations.js';
import { Migration20261128010000Parlays } from './Migration20261128010000Parlays.js';
import { Migration20261128010000ExternalMarkets } from './Migration20261128010000ExternalMarkets.js';

/**
 * Migrations in the order they apply. Listed explicitly (not discovered from disk) so they run
 * the same under tsx, vitest and any bundle. Create new ones with `pnpm db:migration:create`.
 */
export const migrationsList = [
  { name: 'Migration20261122000000Foundation', class: Migration20261122000000Foundation },
  { name: 'Migration20261122020000Leases', class: Migration20261122020000Leases },
  { name: 'Migration20261122030000Duels', class: Migration20261122030000Duels },
  { name: 'Migration20261122040000Identity', class: Migration20261122040000Identity },
  { name: 'Migration20261122050000Trades', class: Migration20261122050000Trades },
  { name: 'Migration20261123090000DuelLifecycle', class: Migration20261123090000DuelLifecycle },
  { name: 'Migration20261123100000Analytics', class: Migration20261123100000Analytics },
  { name: 'Migration20261123110000PriceSnapshots', class: Migration20261123110000PriceSnapshots },
  { name: 'Migration20261123120000Invitations', class: Migration20261123120000Invitations },
  { name: 'Migration20261123130000Settlement', class: Migration20261123130000Settlement },
  { name: 'Migration20261123140000IdempotencyJson', class: Migration20261123140000IdempotencyJson },
  { name: 'Migration20261124000000MerkleDistributions', class: Migration20261124000000MerkleDistributions },
  { name: 'Migration20261124090000AdminSessions', class: Migration20261124090000AdminSessions },
  { name: 'Migration20261124100000ChainTx', class: Migration20261124100000ChainTx },
  { name: 'Migration20261125000000Packs', class: Migration20261125000000Packs },
  { name: 'Migration20261125000000Tournaments', class: Migration20261125000000Tournaments },
  { name: 'Migration20261126000000TournamentsClose', class: Migration20261126000000TournamentsClose },
  { name: 'Migration20261126120000TournamentCancellation', class: Migration20261126120000TournamentCancellation },
  { name: 'Migration20261127000000CreatorFees', class: Migration20261127000000CreatorFees },
  { name: 'Migration20261127010000Withdrawals', class: Migration20261127010000Withdrawals },
  { name: 'Migration20261127020000BridgeDeposits', class: Migration20261127020000BridgeDeposits },
  {
    name: 'Migration20261127040000BridgeDepositConflicts',
    class: Migration20261127040000BridgeDepositConflicts,
  },
  { name: 'Migration20261127100000FundReservations', class: Migration20261127100000FundReservations },
  { name: 'Migration20261128000000Operations', class: Migration20261128000000Operations },
  { name: 'Migration20261128010000Parlays', class: Migration20261128010000Parlays },
  { name: 'Migration20261128010000ExternalMarkets', class: Migration20261128010000ExternalMarkets },
  { name: 'Migration20261128010000Racing', class: Migration20261128010000Racing },
  {
    name: 'Migration20261128020000ExtMarketRelayerIntents',
    class: Migration20261128020000ExtMarketRelayerIntents,
  },
  { name: 'Migration20261128020000Events', class: Migration20261128020000Events },
  { name: 'Migration20261128020000ParlayTickets', class: Migration20261128020000ParlayTickets },
  { name: 'Migration20261205000000FundReserveFunction', class: Migration20261205000000FundReserveFunction },
];
