import type { RequestHandler } from 'express';
import { HEADER } from '@duelkit/contract';
import type { BuilderKeyService } from '../../areas/builders/builder-key.service.js';
import { DomainError } from '../../errors.js';

/** Requires a known, unrevoked x-builder-api-key and attaches its tenant to the request. */
export function requireBuilderKey(keys: BuilderKeyService): RequestHandler {
  return (req, _res, next) => {
    const sent = req.headers[HEADER.builderApiKey];
    const key = Array.isArray(sent) ? sent[0] : sent;
    if (!key) {
      next(new DomainError('BUILDER_KEY_INVALID', 'Builder API key required (x-builder-api-key header)'));
      return;
    }
    // A key seen within the cache window is answered without a promise or an allocation.
    const cached = keys.cached(key);
    if (cached !== undefined) {
      if (cached === null) {
        next(new DomainError('BUILDER_KEY_INVALID', 'Builder API key is unknown or revoked'));
        return;
      }
      req.tenant = cached;
      next();
      return;
    }
    keys.resolve(key).then(
      (tenant) => {
        if (!tenant) {
          next(new DomainError('BUILDER_KEY_INVALID', 'Builder API key is unknown or revoked'));
          return;
        }
        req.tenant = tenant;
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
