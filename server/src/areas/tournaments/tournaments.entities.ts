import { tournamentCloseEntities } from './tournament-close.entities.js';
import { tournamentEntities } from './tournament.entities.js';

/** The tournaments area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const tournamentsEntities = [...tournamentEntities, ...tournamentCloseEntities] as const;
