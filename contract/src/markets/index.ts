import { c } from '../common/contract.js';
import { commonResponses } from '../common/responses.js';

/**
 * Root router of the markets host. Each spec area lives in its own `<area>.contract.ts` and is
 * mounted here under its namespace.
 */
export const marketsContract = c.router(
  {},
  { commonResponses, strictStatusCodes: true },
);
