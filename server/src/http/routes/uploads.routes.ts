import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import express, { type Router } from 'express';
import type { LocalUploadVerifier } from '../../adapters/storage/upload-signer.port.js';
import type { UploadService } from '../../areas/uploads/upload.service.js';
import { DomainError } from '../../errors.js';
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
export function localUploadRouter(deps: {
  service: UploadService;
  signer: LocalUploadVerifier;
  maxBytes: number;
}): Router {
  const router = express.Router();
  router.put('/*', express.raw({ type: () => true, limit: deps.maxBytes }), (req, res, next) => {
    const key = decodeURIComponent(req.path.slice(1));
    const ticket = deps.signer.verify(key, req.query);
    if ('refused' in ticket) {
      next(new DomainError('SIGNATURE_INVALID', `Upload refused: ${ticket.refused}`));
      return;
    }
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    deps.service
      .receiveLocal(ticket, req.headers['content-type'], body)
      .then((publicUrl) => res.status(201).json({ key, publicUrl }), next);
  });
  return router;
}
