import { c } from '../common/contract.js';
import { commonResponses } from '../common/responses.js';
import { adminAuthContract } from './admin-auth.contract.js';
import { authContract } from './auth.contract.js';
import { bulkRegisterContract } from './bulk-register.contract.js';
import { walletContract } from './wallet.contract.js';

/**
 * Root router of the markets host. Each spec area lives in its own `<area>.contract.ts` and is
 * mounted here under its namespace.
 */
export const marketsContract = c.router(
  {
    auth: authContract,
    wallet: walletContract,
    bulkRegister: bulkRegisterContract,
    adminAuth: adminAuthContract,
  },
  { commonResponses, strictStatusCodes: true },
);
