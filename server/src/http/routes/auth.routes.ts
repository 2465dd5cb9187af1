import { initServer } from '@ts-rest/express';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { marketsContract } from '@duelkit/contract';
import type { AuthService } from '../../areas/identity/auth.service.js';
import { DomainError } from '../../errors.js';
import { tenantOf, userOf } from '../principal.js';

const s = initServer();

export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const parseImage = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: PROFILE_IMAGE_MAX_BYTES, files: 1, fields: 5 },
}).single('image');

/**
 * Every failure of multipart parsing is the client's: a missing or wrong boundary, a truncated
 * or garbled body (a lying Content-Encoding included), too many parts, a file past the limit.
 * The files live in memory, so nothing on the server side can fail here.
 */
function multipartError(err: unknown): DomainError {
  const e = err as { name?: string; code?: string; field?: string; message?: string };
  if (e.name === 'MulterError' && e.code === 'LIMIT_FILE_SIZE') {
    return new DomainError('PAYLOAD_TOO_LARGE', 'The file is larger than 5 MB');
  }
  const reason = e.name === 'MulterError' ? String(e.code) : (e.message ?? 'malformed multipart body');
  return new DomainError('VALIDATION_FAILED', `Invalid upload: ${reason}`, {
    fieldErrors: { [`body.${e.field ?? 'image'}`]: [reason] },
  });
}

const uploadImage: RequestHandler = (req, res, next) => {
  parseImage(req, res, (err?: unknown) => next(err ? multipartError(err) : undefined));
};

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
        body.inviteCode,
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
      middleware: [uploadImage],
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
