import { initServer } from '@ts-rest/express';
import multer from 'multer';
import { marketsContract } from '@duelkit/contract';
import type { AuthService } from '../../areas/identity/auth.service.js';
import { tenantOf, userOf } from '../principal.js';

const s = initServer();

export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: PROFILE_IMAGE_MAX_BYTES, files: 1, fields: 5 },
});

/** §4.1 user auth. */
export function authRoutes(deps: { auth: AuthService }) {
  const { auth } = deps;
  return s.router(marketsContract.auth, {
    eoaChallenge: async ({ body, req }) => ({
      status: 200,
      body: await auth.challenge(tenantOf(req).builderAppId, body.address),
    }),
    eoaLogin: async ({ body, req }) => ({
      status: 200,
      body: await auth.eoaLogin(tenantOf(req).builderAppId, body.message, body.signature),
    }),
    eoaRegister: async ({ body, req }) => ({
      status: 201,
      body: await auth.eoaRegister(tenantOf(req).builderAppId, body),
    }),
    idpLogin: async ({ body, req }) => ({
      status: 200,
      body: await auth.idpLogin(tenantOf(req).builderAppId, (body.idToken ?? body.accessToken) as string),
    }),
    idpRegister: async ({ body, req }) => ({
      status: 201,
      body: await auth.idpRegister(
        tenantOf(req).builderAppId,
        (body.idToken ?? body.accessToken) as string,
        body.username,
      ),
    }),
    idpMigrate: async ({ body, req }) => ({
      status: 200,
      body: await auth.idpMigrate(
        tenantOf(req).builderAppId,
        (body.idToken ?? body.accessToken) as string,
        body.message,
        body.signature,
      ),
    }),
    checkUsername: async ({ query, req }) => ({
      status: 200,
      body: await auth.checkUsername(tenantOf(req).builderAppId, query.username),
    }),
    profileImage: {
      middleware: [upload.single('image')],
      handler: async ({ req, file }) => ({
        status: 200,
        body: await auth.profileImage(userOf(req).userId, file as { buffer: Buffer } | undefined),
      }),
    },
  });
}

/** §4.2 managed wallet signing. */
export function walletRoutes(deps: { auth: AuthService }) {
  return s.router(marketsContract.wallet, {
    sign: async ({ body, req }) => ({ status: 200, body: await deps.auth.sign(userOf(req).userId, body.message) }),
    signTypedData: async ({ body, req }) => ({
      status: 200,
      body: await deps.auth.signTypedData(userOf(req).userId, body),
    }),
  });
}

/** §4.3 builder-level registration. */
export function bulkRegisterRoutes(deps: { auth: AuthService }) {
  return s.router(marketsContract.bulkRegister, {
    registerSimple: async ({ body, req }) => ({
      status: 201,
      body: await deps.auth.registerSimple(tenantOf(req).builderAppId, body.address),
    }),
    registerBulk: async ({ body, req }) => ({
      status: 200,
      body: await deps.auth.registerBulk(tenantOf(req).builderAppId, body.addresses),
    }),
    checkUser: async ({ query, req }) => ({
      status: 200,
      body: await deps.auth.checkUser(tenantOf(req).builderAppId, query.address),
    }),
  });
}
