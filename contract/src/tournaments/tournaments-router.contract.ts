import { c } from '../common/contract.js';
import { tournamentsAdminCancelContract } from './tournaments-admin-cancel.contract.js';
import { tournamentsCancelContract } from './tournaments-cancel.contract.js';
import { tournamentsCatalogContract } from './tournaments.contract.js';
import { tournamentsPlayContract } from './tournaments-play.contract.js';
import { tournamentsAdminCloseContract } from './tournaments-admin-close.contract.js';
import { tournamentDisputesContract } from './tournament-disputes.contract.js';
import { tournamentPayoutsContract } from './tournament-payouts.contract.js';
import { racingContract } from './racing.contract.js';

/**
 * §4.17 tournaments-host administration (admin token): disputes, settlement, payout roots and
 * automation; cancel requests, cancellation, discarding, refund roots and timeouts.
 */
export const tournamentsAdminContract = c.router({
  ...tournamentsAdminCloseContract,
  ...tournamentsAdminCancelContract,
});

/**
 * §4.17 tournaments: paid creation (deposit first, then create with the deposit), creator bonds,
 * entries, stage picks with chips, standings, group tables, knockout brackets, prizes, leaderboards
 * and statistics; cancel requests, cancellation and refunds, and their administration. Writes take
 * a bearer token or a wallet credential; reads are public or personalised by a bearer token; admin
 * routes take an admin token. Entering is accepted, not final: poll `play.myStatus` until
 * `hasEntry`. The rules are in docs/tournaments.md.
 */
// One sub-router per resource, each a namespace of the SDK (`client.tournaments.play`, …).
export const tournamentsRouterContract = c.router({
  // First: the literal `admin` segment must never be read as a tournament id.
  admin: tournamentsAdminContract,
  // Racing tournaments under the literal `f1` segment, before the `/:tournamentId` routes.
  f1: racingContract,
  // Then the catalogue's literal paths, before the `/:tournamentId` routes.
  catalog: tournamentsCatalogContract,
  play: tournamentsPlayContract,
  disputes: tournamentDisputesContract,
  payouts: tournamentPayoutsContract,
  cancellation: tournamentsCancelContract,
});
