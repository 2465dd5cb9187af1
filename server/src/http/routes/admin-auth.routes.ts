import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import { toAdmin, type AdminAuthService } from '../../areas/identity/admin-auth.service.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { DomainError } from '../../errors.js';
import { adminOf, challengeOf } from '../principal.js';

const s = initServer();

async function checkAttempts(limiter: RateLimiter, key: string, scope: string): Promise<void> {
  const d = await limiter.consume(key);
  if (!d.allowed) {
    const retry = Math.max(1, Math.ceil(d.resetMs / 1000));
    throw new DomainError('RATE_LIMITED', `Too many login attempts for this ${scope}; retry after ${retry} s`, {
      retryAfterMs: retry * 1_000,
      details: { scope, retryAfterSeconds: retry },
    });
  }
}

/** §4.16 admin authentication. */
export function adminAuthRoutes(deps: {
  admins: AdminAuthService;
  loginPerEmail: RateLimiter;
  loginPerIp: RateLimiter;
}) {
  const { admins } = deps;
  return s.router(marketsContract.adminAuth, {
    login: async ({ body, req }) => {
      await checkAttempts(deps.loginPerIp, req.ip ?? 'unknown', 'client IP');
      await checkAttempts(deps.loginPerEmail, body.email.toLowerCase(), 'email');
      return { status: 200, body: await admins.login(body.email, body.password) };
    },
    twoFactorSetup: async ({ req }) => ({ status: 200, body: await admins.setup(adminOf(req).adminId) }),
    twoFactorVerify: async ({ body, req }) => {
      const challenge = challengeOf(req);
      await checkAttempts(deps.loginPerEmail, challenge.email, 'email');
      return { status: 200, body: await admins.completeLogin(challenge, body.code) };
    },
    twoFactorVerifySetup: async ({ body, req }) => ({
      status: 200,
      body: await admins.verifySetup(adminOf(req), body.code),
    }),
    twoFactorDisable: async ({ body, req }) => ({
      status: 200,
      body: await admins.disable(adminOf(req), body.code),
    }),
    regenerateBackupCodes: async ({ body, req }) => ({
      status: 200,
      body: await admins.regenerateBackupCodes(adminOf(req), body.code),
    }),
    logout: async ({ req }) => {
      await admins.logout(adminOf(req));
      return { status: 200, body: { loggedOut: true as const } };
    },
    me: async ({ req }) => ({ status: 200, body: toAdmin(await admins.byId(adminOf(req).adminId)) }),
    verify: async ({ req }) => {
      const admin = adminOf(req);
      return {
        status: 200,
        body: {
          valid: true as const,
          adminId: admin.adminId,
          expiresAt: new Date(admin.expiresAt * 1000).toISOString(),
        },
      };
    },
  });
}
