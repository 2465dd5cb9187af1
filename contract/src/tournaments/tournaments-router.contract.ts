import { c } from '../common/contract.js';
import { tournamentsCatalogContract } from './tournaments.contract.js';
import { tournamentsPlayContract } from './tournaments-play.contract.js';

/**
 * §4.17 tournaments: paid creation (deposit first, then create with the deposit), creator bonds,
 * entries, stage picks with chips, standings, group tables, knockout brackets, prizes, leaderboards
 * and statistics. Writes take a bearer token or a wallet credential; reads are public or
 * personalised by a bearer token. Entering is accepted, not final: poll `myStatus` until `hasEntry`.
 * The rules of play are in docs/tournaments.md.
 */
export const tournamentsRouterContract = c.router({ ...tournamentsCatalogContract, ...tournamentsPlayContract });
