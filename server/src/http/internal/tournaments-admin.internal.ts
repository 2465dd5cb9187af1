import { timingSafeEqual } from 'node:crypto';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z, type ZodTypeAny } from 'zod';
import {
  AdminTournamentListQuerySchema,
  CancelTournamentBodySchema,
  DiscardTournamentBodySchema,
  RejectCancelRequestBodySchema,
  TournamentCancelRequestListQuerySchema,
  TournamentIdSchema,
} from '@duelkit/contract';
import {
  ACTING_ADMIN_HEADER,
  INTERNAL_ADMIN_PREFIX,
  SERVICE_TOKEN_HEADER,
} from '../../areas/tournaments/tournament-admin-link.protocol.js';
import type { TournamentAdminLinkService } from '../../areas/tournaments/tournament-admin-link.service.js';
import { DomainError } from '../../errors.js';
import { fieldErrorsOf } from '../middleware/error-handler.js';

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Compares in constant time; an empty configured token accepts nothing. */
function credentialOk(configured: string, sent: string | undefined): boolean {
  if (!configured || !sent) return false;
  const a = Buffer.from(configured);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

function parse<S extends ZodTypeAny>(schema: S, where: string, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new DomainError('VALIDATION_FAILED', `Invalid ${where}`, { fieldErrors: fieldErrorsOf(where, parsed.error) });
  }
  return parsed.data as z.infer<S>;
}

function actingAdmin(req: Request): { adminId: string } {
  const adminId = header(req, ACTING_ADMIN_HEADER);
  if (!adminId || !/^[\w:-]{1,80}$/.test(adminId)) {
    throw new DomainError('VALIDATION_FAILED', `Send the acting admin in ${ACTING_ADMIN_HEADER}`);
  }
  return { adminId };
}

const handle =
  (fn: (req: Request) => Promise<unknown>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    fn(req).then((body) => res.status(200).json(body), next);
  };

/**
 * The tournaments host's internal admin routes, called by a markets-only process (the HTTP
 * adapter of TournamentsAdminPort) with the shared service credential instead of a builder key
 * and an admin token; not part of the public interface. They answer exactly what the in-process
 * adapter answers, and refuse like the public admin routes (same codes).
 */
export function tournamentsAdminInternalRouter(admin: TournamentAdminLinkService, serviceToken: string): Router {
  const router = Router();
  router.use((req, _res, next) => {
    next(
      credentialOk(serviceToken, header(req, SERVICE_TOKEN_HEADER))
        ? undefined
        : new DomainError('UNAUTHENTICATED', 'Service credential required'),
    );
  });
  router.use(express.json({ limit: '16kb' }));
  router.get(
    '/ping',
    handle(async () => {
      await admin.ping();
      return { ok: true };
    }),
  );
  router.get(
    '/cancel-requests',
    handle((req) => {
      const q = parse(TournamentCancelRequestListQuerySchema, 'query', req.query);
      return admin.cancelRequests(q);
    }),
  );
  router.get(
    '/tournaments',
    handle((req) => {
      const { removable, ...rest } = req.query;
      const q = parse(AdminTournamentListQuerySchema, 'query', rest);
      return admin.tournaments({ ...q, removable: removable === 'true' });
    }),
  );
  router.post(
    '/tournaments/:tournamentId/cancel',
    handle((req) => {
      const id = parse(TournamentIdSchema, 'params.tournamentId', req.params['tournamentId']);
      const body = parse(CancelTournamentBodySchema, 'body', req.body);
      return admin.cancel(actingAdmin(req), id, body.reason);
    }),
  );
  router.post(
    '/tournaments/:tournamentId/discard',
    handle((req) => {
      const id = parse(TournamentIdSchema, 'params.tournamentId', req.params['tournamentId']);
      const body = parse(DiscardTournamentBodySchema, 'body', req.body ?? {});
      return admin.discard(actingAdmin(req), id, body.reason);
    }),
  );
  router.patch(
    '/cancel-requests/:requestId/reject',
    handle((req) => {
      const requestId = parse(z.string().uuid(), 'params.requestId', req.params['requestId']);
      const body = parse(RejectCancelRequestBodySchema, 'body', req.body);
      return admin.rejectCancelRequest(actingAdmin(req), requestId, body.reason);
    }),
  );
  return router;
}

export { INTERNAL_ADMIN_PREFIX };
