import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Container } from '../../container.js';
import { adminAuthRoutes } from './admin-auth.routes.js';
import { authRoutes, bulkRegisterRoutes, walletRoutes } from './auth.routes.js';

const s = initServer();

/** Implementation of every markets-host route: one line per area. */
export function marketsRouter(c: Container) {
  return s.router(marketsContract, {
    auth: authRoutes(c.identity),
    wallet: walletRoutes(c.identity),
    bulkRegister: bulkRegisterRoutes(c.identity),
    adminAuth: adminAuthRoutes({
      admins: c.identity.admins,
      loginPerEmail: c.limits.adminLoginPerEmail,
      loginPerIp: c.limits.adminLoginPerIp,
    }),
  });
}
