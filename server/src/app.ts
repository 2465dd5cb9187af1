import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createExpressEndpoints, type TsRestExpressOptions } from '@ts-rest/express';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { AppRouter } from '@ts-rest/core';
import { HEADER, marketsContract, tournamentsContract } from '@duelkit/contract';
import type { Container } from './container.js';
import { requireBuilderKey } from './http/middleware/builder-key.js';
import { authenticate, type WebhookVerifier } from './http/middleware/authenticate.js';
import { bridgeDeliveryOf } from './http/routes/bridge-webhook.routes.js';
import { errorHandler, notFound } from './http/middleware/error-handler.js';
import { geoGate } from './http/middleware/geo.js';
import { inputGuard, pathGuard } from './http/middleware/input-guard.js';
import { deferClientError, raiseDeferredError } from './http/middleware/deferred-error.js';
import { idempotency } from './http/middleware/idempotency.js';
import { operation } from './http/middleware/operation.js';
import { earlyCacheHit, responseCache } from './http/middleware/response-cache.js';
import { responseShaping } from './http/middleware/response-validation.js';
import { rateLimit } from './http/middleware/rate-limit.js';
import { isWebhookRequest, unlessWebhook, webhookRoutes } from './http/middleware/webhooks.js';
import { requestId } from './http/middleware/request-id.js';
import { chain } from './http/middleware/chain.js';
import { routeLedger } from './http/middleware/route-ledger.js';
import { marketsRouter, type MarketsRouterDeps } from './http/routes/markets.router.js';
import { localUploadRouter } from './http/routes/uploads.routes.js';
import { LOCAL_UPLOAD_PREFIX } from './adapters/storage/local-upload-signer.adapter.js';
import { tournamentsRouter } from './http/routes/tournaments.router.js';
import { INTERNAL_ADMIN_PREFIX, tournamentsAdminInternalRouter } from './http/internal/tournaments-admin.internal.js';
import { withOrmRequestContext } from './platform/db/orm-request.context.js';
import { requestLog } from './http/middleware/request-log.js';
import { installJsonResponder } from './http/middleware/json-response.js';
import { securityHeaders } from './http/middleware/security-headers.js';
import { referencePage } from './http/docs/reference-page.js';

type Host = 'markets' | 'tournaments';

/**
 * The host's OpenAPI document: copied beside the built output by `pnpm build` (dist/openapi), or
 * the repository's docs/openapi when running from source.
 */
function openApiDocument(host: Host): string {
  const built = new URL(`./openapi/${host}.json`, import.meta.url);
  const source = new URL(`../../docs/openapi/${host}.json`, import.meta.url);
  return readFileSync(fileURLToPath(existsSync(built) ? built : source), 'utf8');
}

/** ts-rest options shared by both hosts; the middleware are plain Express handlers. */
export interface EndpointOptions {
  logInitialization: false;
  jsonQuery: false;
  /** Every answer checked by ts-rest (`all`), or only the shaping routes' by `responseShaping` (see docs/kernel.md). */
  responseValidation: boolean;
  globalMiddleware: RequestHandler[];
  requestValidationErrorHandler: (err: unknown, req: Request, res: Response, next: NextFunction) => void;
}

export function tsRest<T extends AppRouter>(options: EndpointOptions): TsRestExpressOptions<T> {
  return options;
}

/**
 * One host: the shared middleware stack around the contract routes that `mount` registers.
 * Exported so tests can mount a contract of their own behind the very same stack.
 */
export function createHostApp(
  c: Container,
  host: Host,
  mount: (app: Express, options: EndpointOptions) => void,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', c.config.http.trustProxy);
  installJsonResponder(app);

  app.use(
    chain([
      requestId(),
      // One line per request, the host bound once (not a child logger per request).
      requestLog(c.logger, host),
      securityHeaders({
        corsOrigins: c.config.http.corsOrigins,
        exposedHeaders: [
          HEADER.requestId,
          'Retry-After',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
          'Idempotent-Replayed',
        ],
      }),
    ]),
  );

  // Operational routes, outside the spec: no builder key.
  app.get('/health', (_req, res) => {
    res.json(c.health.liveness(host));
  });
  app.get('/ready', (_req, res, next) => {
    c.health.readiness().then((r) => res.status(r.status === 'not_ready' ? 503 : 200).json(r), next);
  });
  if (host === 'markets' && c.mediaRoot) {
    // Uploaded files on local disk (embedded defaults); with S3 they are served by the bucket.
    app.use(
      '/media',
      express.static(c.mediaRoot, {
        fallthrough: false,
        index: false,
        dotfiles: 'deny',
        maxAge: '1y',
        immutable: true,
      }),
    );
  }
  if (host === 'markets' && c.uploads.local) {
    // Uploads to signed URLs of the embedded default: the URL is the credential, not a builder key.
    app.use(
      LOCAL_UPLOAD_PREFIX.slice(0, -1),
      localUploadRouter({
        local: c.uploads.local,
        maxBytes: c.config.money.uploads.maxBytes,
      }),
    );
  }
  const openapi = openApiDocument(host);
  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi);
  });
  app.use('/docs', referencePage(host));

  if (host === 'tournaments') {
    // The markets host's calls when the hosts run apart: a service credential, no builder key.
    app.use(
      INTERNAL_ADMIN_PREFIX,
      tournamentsAdminInternalRouter(c.tournamentsAdmin.local, c.config.tournamentsLink.serviceToken),
    );
    app.use(
      rateLimit({ scope: 'client IP', pick: () => c.limits.tournamentsIp, keyOf: (req) => req.ip, headers: false }),
    );
  }
  const webhooks = webhookRoutes(host === 'markets' ? marketsContract : tournamentsContract);
  const deposit = marketsContract.bridgeWebhook.deposit;
  const webhookVerifiers = new Map<string, WebhookVerifier>(
    host === 'markets'
      ? [[`${deposit.method} ${deposit.path}`, (req) => c.money.deposits.authenticate(bridgeDeliveryOf(req))]]
      : [],
  );
  // The layers every spec request passes, run as one Express layer (see `chain`).
  app.use(
    chain([
      unlessWebhook(webhooks, requireBuilderKey(c.builderKeys)),
      rateLimit({
        scope: 'builder key',
        pick: (req) => (req.tenant?.tier === 'selfserve' ? c.limits.selfserve : c.limits.team),
        keyOf: (req) => req.tenant?.keyId,
        headers: true,
      }),
      earlyCacheHit(c.responseCache, host),
      // The ORM's request context; its fork is made only when something in the request uses the ORM.
      (_req, _res, next) => withOrmRequestContext(c.orm.em, next),
      // Their client errors (malformed or oversized JSON, control characters…) are answered after
      // route authentication (raiseDeferredError), so a guarded route refuses a caller without
      // credentials with 401 whatever the body.
      deferClientError(
        onlyWithBody(
          express.json({
            limit: c.config.http.jsonBodyLimit,
            verify: (req: Request, _res, buf) => {
              if (isWebhookRequest(webhooks, req)) req.rawBody = Buffer.from(buf);
            },
          }),
        ),
      ),
      pathGuard(),
      deferClientError(inputGuard({ path: false })),
    ]),
  );

  const validateEveryAnswer = c.config.http.responseValidation === 'all';
  mount(app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: validateEveryAnswer,
    globalMiddleware: [
      chain([
        ...(c.config.http.routeLedgerDir ? [routeLedger(c.config.http.routeLedgerDir, host)] : []),
        responseCache(c.responseCache, host),
        // After the cache, so the answer it stores is the shaped one.
        ...(validateEveryAnswer ? [] : [responseShaping()]),
        authenticate(c.authentication, webhookVerifiers),
        raiseDeferredError(),
        geoGate(c.geo),
        idempotency(c.idempotency, c.logger),
        operation(c.clock),
      ]),
    ],
    requestValidationErrorHandler: (err, _req, _res, next) => next(err),
  });

  app.use(raiseDeferredError());
  app.use(notFound());
  app.use(errorHandler(c.logger));
  return app;
}

/** The services the markets host's routes call, picked from the container. */
function marketsRouterDeps(c: Container): MarketsRouterDeps {
  return {
    auth: c.identity.auth,
    admins: c.identity.admins,
    adminLogin: { perEmail: c.limits.adminLoginPerEmail, perIp: c.limits.adminLoginPerIp },
    analytics: c.analytics,
    money: c.money,
    uploads: c.uploads.service,
    priceHistory: c.priceHistory,
    duels: c.markets.duels,
    bets: c.markets.bets,
    publicBaseUrl: c.config.markets.publicBaseUrl,
    privateMarkets: c.privateMarkets,
    parentMarkets: c.parentMarkets,
    settlement: c.settlement,
    packs: c.packs,
    parlayTournamentsAdmin: c.tournamentsAdmin.markets,
    operations: c.operations,
    extmarket: c.extmarket,
    webhooks: c.events.webhooks,
    eventStream: c.events.stream,
    eventVisibility: c.markets.eventVisibility,
  };
}

/**
 * A body parser run only for a request that has a body: one with neither `Content-Length` nor
 * `Transfer-Encoding` has none (the parser's own test), and gets the empty body it would set.
 */
function onlyWithBody(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      req.body ??= {};
      next();
      return;
    }
    parser(req, res, next);
  };
}

/** The markets host. Never listens; main.ts does. */
export function createMarketsApp(c: Container): Express {
  return createHostApp(c, 'markets', (app, options) => {
    createExpressEndpoints(marketsContract, marketsRouter(marketsRouterDeps(c)), app, tsRest(options));
  });
}

/** The tournaments host. Never listens; main.ts does. */
export function createTournamentsApp(c: Container): Express {
  return createHostApp(c, 'tournaments', (app, options) =>
    createExpressEndpoints(
      tournamentsContract,
      tournamentsRouter({
        health: c.health,
        tournaments: c.tournaments,
        sports: c.sports,
        sportsLimits: { proxyIp: c.limits.sportsProxyIp, helpersIp: c.limits.sportsHelpersIp },
        parlay: c.parlay,
        racing: c.racing,
        operations: c.operations,
      }),
      app,
      tsRest(options),
    ),
  );
}
