import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { getAddress, isAddress, type Address, type Hash } from 'viem';
import { z } from 'zod';
import type { AdminAuthService } from '../../areas/identity/admin-auth.service.js';
import type { BuilderKeyService } from '../../areas/builders/builder-key.service.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import {
  newOperatorToken,
  removeCredential,
  tokenMatches,
  writeCredential,
} from '../../platform/operator/operator-credential.js';
import { errorHandler } from '../middleware/error-handler.js';
import { requestId } from '../middleware/request-id.js';

type Stack = 'credits' | 'usdc';

/** What the operator surface calls (container.ts builds it, server.ts hands it over). */
export interface OperatorDeps {
  readonly settings: { readonly port: number | null; readonly credentialDir: string };
  readonly builderKeys: BuilderKeyService;
  readonly admins: AdminAuthService;
  /** The chain calls of `credits:grant` (the container's chain port). */
  readonly chain: {
    mint(stack: Stack, to: Address, amount: bigint, opts?: { key?: string }): Promise<Hash>;
    transactionStatus(hash: Hash): Promise<'pending' | 'success' | 'reverted'>;
    collateralBalance(stack: Stack, owner: Address): Promise<bigint>;
  };
  /** `time:advance`: moves the rules' clock and the embedded chain's time forward together; undefined on a real chain. */
  readonly time: { advance(seconds: number): Promise<Date> } | undefined;
  /**
   * `sports:script`: what the local sports simulator will play (pure functions of the ids); undefined
   * when a real provider serves sports data, whose results nobody knows ahead.
   */
  readonly sportsScript: SportsScriptReader | undefined;
  /** `duels:canonical`: marks a duel canonical (or not) and drops the cached duel lists. */
  readonly canonical: {
    markCanonical(
      duelId: string,
      pairing: { extMarketId: string; volume24h: bigint; live: boolean } | null,
    ): Promise<'ok' | 'not_found' | 'not_credits'>;
    invalidateLists(): void;
  };
}

/**
 * The simulator's script as the operator surface serves it (the container's `sportsScript`): a
 * fixture's or a session's ending as JSON, or null for an id the simulator never plays.
 */
export interface SportsScriptReader {
  fixture(id: number): object | null;
  raceEvent(id: number): object | null;
}

export interface OperatorSurface {
  readonly url: string;
  /** Where the credential the operator commands read was written. */
  readonly credentialFile: string;
  close(): Promise<void>;
}

const KeyBody = z
  .object({ name: z.string().min(1).max(200), tier: z.enum(['team', 'selfserve']), app: z.string().uuid().optional() })
  .strict();
/** At most a year at a time: enough for any deadline, small enough to keep block times sane. */
const AdvanceBody = z
  .object({
    seconds: z
      .number()
      .int()
      .min(1)
      .max(366 * 24 * 3600),
  })
  .strict();
const ScriptIds = z.array(z.number().int().positive()).max(100).default([]);
const ScriptBody = z
  .object({ fixtureIds: ScriptIds, eventIds: ScriptIds })
  .strict()
  .refine((b) => b.fixtureIds.length + b.eventIds.length > 0, { message: 'name at least one fixture or event' });
const AdminBody = z.object({ email: z.string().email(), password: z.string().min(12) }).strict();
const DeactivateBody = z.object({ email: z.string().email() }).strict();
const CreditsBody = z
  .object({
    address: z.string().refine((a) => isAddress(a, { strict: false }), 'not an address'),
    amount: z.string().regex(/^[1-9][0-9]{0,77}$/, 'base units as a positive decimal integer'),
    stack: z.enum(['credits', 'usdc']).default('credits'),
    /** One grant per key: the same key again answers the first grant and mints nothing. */
    key: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{8,128}$/)
      .optional(),
  })
  .strict();
const CanonicalBody = z
  .object({
    duelId: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'the on-chain duelId'),
    extId: z.string().min(1).max(100).optional(),
    volume: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,77})$/)
      .optional(),
    live: z.boolean().default(false),
    off: z.boolean().default(false),
  })
  .strict()
  .refine((a) => a.off || (a.extId && a.volume), { message: 'extId and volume are required unless off' });

function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (fieldErrors[['body', ...issue.path].join('.')] ??= []).push(issue.message);
  throw new DomainError('VALIDATION_FAILED', 'Invalid operator request', { fieldErrors });
}

/** Async handlers whose rejections reach the error middleware. */
const route =
  (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next: NextFunction) => {
    handler(req, res).catch(next);
  };

const isUniqueViolation = (err: unknown) => (err as Error).name === 'UniqueConstraintViolationException';

async function settled(c: OperatorDeps, hash: Hash): Promise<'pending' | 'success' | 'reverted'> {
  for (let i = 0; i < 60; i++) {
    const status = await c.chain.transactionStatus(hash);
    if (status !== 'pending') return status;
    await new Promise((r) => setTimeout(r, 500));
  }
  return 'pending';
}

function operatorApp(c: OperatorDeps, token: string, logger: Logger): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId());
  app.use((req, _res, next) => {
    const header = req.headers.authorization ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
    next(tokenMatches(presented, token) ? undefined : new DomainError('UNAUTHENTICATED', 'Operator token required'));
  });
  app.use(express.json({ limit: '16kb' }));

  app.post(
    '/operator/builder-keys',
    route(async (req, res) => {
      const body = parse(KeyBody, req.body);
      const created = await c.builderKeys
        .create({ name: body.name, tier: body.tier, ...(body.app ? { builderAppId: body.app } : {}) })
        .catch((err: unknown) => {
          throw (err as Error).name === 'NotFoundError' ? new DomainError('NOT_FOUND', 'No such builder app') : err;
        });
      logger.info({ builderAppId: created.tenant.builderAppId, keyId: created.tenant.keyId }, 'operator: key created');
      res.status(201).json({ ...created.tenant, key: created.key });
    }),
  );
  app.post(
    '/operator/admins',
    route(async (req, res) => {
      const body = parse(AdminBody, req.body);
      const admin = await c.admins.create(body.email, body.password).catch((err: unknown) => {
        throw isUniqueViolation(err) ? new DomainError('CONFLICT', 'An admin with this email exists') : err;
      });
      logger.info({ adminId: admin.id }, 'operator: admin created');
      res.status(201).json({ id: admin.id, email: admin.email });
    }),
  );
  app.post(
    '/operator/admins/deactivate',
    route(async (req, res) => {
      const { email } = parse(DeactivateBody, req.body);
      const deactivated = await c.admins.deactivate(email);
      if (deactivated) logger.info('operator: admin deactivated');
      res.json({ deactivated });
    }),
  );
  app.post(
    '/operator/credits',
    route(async (req, res) => {
      const body = parse(CreditsBody, req.body);
      const to: Address = getAddress(body.address);
      const txHash = await c.chain.mint(
        body.stack,
        to,
        BigInt(body.amount),
        body.key === undefined ? {} : { key: `operator.credits:${body.key}` },
      );
      const status = await settled(c, txHash);
      const balance = await c.chain.collateralBalance(body.stack, to);
      logger.info({ to, stack: body.stack, amount: body.amount, txHash, status }, 'operator: collateral minted');
      res.status(201).json({ to, stack: body.stack, amount: body.amount, txHash, status, balance: balance.toString() });
    }),
  );
  app.post(
    '/operator/canonical-duels',
    route(async (req, res) => {
      const body = parse(CanonicalBody, req.body);
      const result = await c.canonical.markCanonical(
        body.duelId,
        body.off
          ? null
          : { extMarketId: body.extId as string, volume24h: BigInt(body.volume as string), live: body.live },
      );
      if (result === 'not_found') throw new DomainError('NOT_FOUND', `No duel ${body.duelId}`);
      if (result === 'not_credits') {
        throw new DomainError('INVALID_STATE', 'Canonical duels are credits duels; this one settles in usdc');
      }
      c.canonical.invalidateLists();
      res.json({ duelId: body.duelId, canonical: !body.off });
    }),
  );
  app.post(
    '/operator/time/advance',
    route(async (req, res) => {
      const { seconds } = parse(AdvanceBody, req.body);
      if (!c.time) {
        throw new DomainError(
          'INVALID_STATE',
          'Time can be moved only on the embedded chain; a real chain keeps its own',
        );
      }
      const now = await c.time.advance(seconds);
      logger.warn({ seconds, now: now.toISOString() }, 'operator: time moved forward');
      res.json({ seconds, now: now.toISOString() });
    }),
  );
  app.post(
    '/operator/sports/script',
    route(async (req, res) => {
      const { fixtureIds, eventIds } = parse(ScriptBody, req.body);
      const script = c.sportsScript;
      if (!script) {
        throw new DomainError(
          'INVALID_STATE',
          'Only the local sports simulator has a script; a real provider’s results are not known ahead',
        );
      }
      const fixtures = fixtureIds.map((id) => script.fixture(id));
      const events = eventIds.map((id) => script.raceEvent(id));
      const unknown = [
        ...fixtureIds.filter((_, i) => !fixtures[i]).map((id) => `fixture ${id}`),
        ...eventIds.filter((_, i) => !events[i]).map((id) => `event ${id}`),
      ];
      if (unknown.length > 0) {
        throw new DomainError('NOT_FOUND', `The simulator plays no ${unknown.join(', ')}`);
      }
      res.json({ fixtures, events });
    }),
  );
  app.use((req, _res, next) => next(new DomainError('ROUTE_NOT_FOUND', `No route ${req.method} ${req.path}`)));
  app.use(errorHandler(logger));
  return app;
}

/**
 * The operator surface: what `keys:create`, `admin:create`, `admin:deactivate`, `credits:grant` and
 * `duels:canonical` call, so they act through the running server (its database, its chain port) instead of opening
 * the embedded database a second time. Loopback only, whatever HOST says; a bearer token made at
 * start and written, readable by this user only, where the commands look for it.
 */
export async function startOperatorSurface(c: OperatorDeps, logger: Logger): Promise<OperatorSurface | undefined> {
  const { port, credentialDir } = c.settings;
  if (port === null) return undefined;
  const token = newOperatorToken();
  const server: Server = createServer(operatorApp(c, token, logger));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  } catch (err) {
    // Another instance on this host holds the port: its surface serves the same database.
    logger.warn({ port, err: (err as Error).message }, 'operator surface not started');
    return undefined;
  }
  // OPERATOR_PORT=0 takes any free port; the credential is named by the port bound, which the
  // log line below and the file name tell.
  const bound = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${bound}`;
  let credentialFile: string;
  try {
    credentialFile = writeCredential(credentialDir, bound, { url, token, pid: process.pid });
  } catch (err) {
    server.close();
    logger.warn({ err: (err as Error).message }, 'operator surface not started: no private place for its credential');
    return undefined;
  }
  logger.info({ url, port: bound, credentialFile }, 'operator surface on loopback');
  return {
    url,
    credentialFile,
    async close() {
      removeCredential(credentialDir, bound, token);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
