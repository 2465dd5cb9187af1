import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import express, { type Router } from 'express';
import type { LocalUploadService } from '../../areas/uploads/local-upload.service.js';
import type { UploadService } from '../../areas/uploads/upload.service.js';
import { userOf } from '../principal.js';

const s = initServer();

/** §4.5 presigned upload URLs (rules in UploadService). */
export function uploadRoutes(deps: { service: UploadService }) {
  return s.router(marketsContract.uploads, {
    presignedUrl: async ({ body, req }) => ({ status: 201, body: await deps.service.presign(userOf(req), body) }),
  });
}

/**
 * `PUT /uploads/<key>` of the embedded default: the signed URL is the credential (no builder key),
 * the body is read raw up to the size limit.
 */
export function localUploadRouter(deps: { local: LocalUploadService; maxBytes: number }): Router {
  const router = express.Router();
  router.put('/*', express.raw({ type: () => true, limit: deps.maxBytes }), (req, res, next) => {
    const key = decodeURIComponent(req.path.slice(1));
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    deps.local
      .receive(key, req.query, req.headers['content-type'], body)
      .then((publicUrl) => res.status(201).json({ key, publicUrl }), next);
  });
  return router;
}
