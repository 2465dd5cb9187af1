import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';
import type { AddressInfo } from 'node:net';
import { createMarketsApp, createTournamentsApp } from './app.js';
import { withListeningPort, type Config } from './config.js';
import { createContainer, type Container, type ContainerOverrides } from './container.js';
import { HttpDrain } from './http/drain.js';
import { expressShaped } from './http/express-shaped.server.js';
import { startOperatorSurface, type OperatorSurface } from './http/operator/operator.server.js';
import { createLogger, type Logger } from './logger.js';
import { answerClientError } from './http/client-error.js';

export interface RunningServer {
  readonly container: Container;
  readonly marketsUrl: string | undefined;
  readonly tournamentsUrl: string | undefined;
  /** The development key created on this start, when one was (embedded mode only). */
  readonly devKey: string | undefined;
  /** The loopback operator surface the operator commands call, when it runs. */
  readonly operator: OperatorSurface | undefined;
  /**
   * Stops accepting, lets in-flight requests and jobs finish, then closes pools — all within
   * SHUTDOWN_GRACE_MS (see HttpDrain for how keep-alive connections are let go).
   */
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Answers while the container is being built: alive, not ready. */
const starting: Listener = (req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/health') {
    res.end(JSON.stringify({ status: 'ok', service: 'starting', uptimeSeconds: 0, time: new Date().toISOString() }));
    return;
  }
  res.statusCode = 503;
  res.setHeader('Retry-After', '1');
  const requestId = randomUUID();
  res.setHeader('x-request-id', requestId);
  res.end(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'The server is starting; retry shortly', requestId }));
};

/** Creates the development builder key on a fresh embedded database; two instances may race for it. */
async function ensureDevKey(container: Container, config: Config, logger: Logger): Promise<string | undefined> {
  try {
    const created = await container.builderKeys.ensureDevKey(config.builderKeys.devKey);
    if (!created) return undefined;
    logger.warn(
      { builderAppId: created.tenant.builderAppId },
      `created development builder key (shown once): ${created.key}`,
    );
    return created.key;
  } catch (err) {
    if ((err as Error).name === 'UniqueConstraintViolationException') return undefined;
    throw err;
  }
}

/**
 * Serves the configured hosts: binds the ports first (so URLs derived from a port chosen by the
 * system are right), builds the container, then swaps the apps in.
 */
export async function startDuelkit(
  config: Config,
  options: { logger?: Logger; overrides?: ContainerOverrides } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  if (config.mode === 'embedded') {
    logger.warn(
      { dataDir: config.database.dataDir ?? '(memory)', generatedSecrets: config.generatedSecrets },
      'embedded mode: a development instance, not for production (DUELKIT_ENV=production; docs/deployment.md)',
    );
  }
  const hosts: { server: Server; drain: HttpDrain; swap(app: Express): void }[] = [];
  const open = async (port: number) => {
    const shaped = expressShaped();
    const server = createServer({ IncomingMessage: shaped.IncomingMessage, ServerResponse: shaped.ServerResponse });
    server.on('clientError', answerClientError);
    const drain = new HttpDrain(server);
    let current: Listener = starting;
    server.on(
      'request',
      drain.track((req, res) => current(req, res)),
    );
    hosts.push({
      server,
      drain,
      swap: (app) => {
        shaped.adopt(app);
        current = app;
      },
    });
    return listen(server, port, config.http.host);
  };
  const { serve, host } = config.http;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let container: Container;
  let marketsPort: number | undefined;
  let tournamentsPort: number | undefined;
  try {
    if (serve !== 'tournaments') marketsPort = await open(config.http.marketsPort);
    if (serve !== 'markets') tournamentsPort = await open(config.http.tournamentsPort);
    const effective = marketsPort === undefined ? config : withListeningPort(config, marketsPort);
    container = await createContainer(effective, logger, options.overrides);
  } catch (err) {
    await Promise.all(hosts.map((h) => new Promise((resolve) => h.server.close(resolve))));
    throw err;
  }
  // Hosts were opened markets first, so their order matches.
  const apps = [
    ...(marketsPort === undefined ? [] : [createMarketsApp(container)]),
    ...(tournamentsPort === undefined ? [] : [createTournamentsApp(container)]),
  ];
  apps.forEach((app, i) => hosts[i]?.swap(app));
  const devKey = config.mode === 'embedded' ? await ensureDevKey(container, config, logger) : undefined;
  const c = container;
  const operator = await startOperatorSurface(
    {
      settings: c.config.operator,
      builderKeys: c.builderKeys,
      admins: c.identity.admins,
      chain: c.chain,
      time: c.time,
      sportsScript: c.sportsScript,
      canonical: {
        markCanonical: (duelId, pairing) => c.markets.repo.markCanonical(duelId, pairing),
        invalidateLists: () => c.markets.listCache.invalidate(),
      },
    },
    logger,
  );
  const marketsUrl = marketsPort === undefined ? undefined : `http://${shown}:${marketsPort}`;
  const tournamentsUrl = tournamentsPort === undefined ? undefined : `http://${shown}:${tournamentsPort}`;
  logger.info({ marketsUrl, tournamentsUrl }, 'duelkit listening');
  let stopping: Promise<void> | undefined;
  return {
    container,
    marketsUrl,
    tournamentsUrl,
    devKey,
    operator,
    stop() {
      stopping ??= (async () => {
        const grace = config.http.shutdownGraceMs;
        // Requests and jobs get the grace minus what closing the pools and databases needs.
        const deadline = Date.now() + grace - Math.min(2_000, Math.floor(grace / 4));
        // Event streams never end by themselves: end them, their clients resume elsewhere.
        container.events.stream.endAll();
        const [left] = await Promise.all([
          Promise.all(hosts.map((h) => h.drain.drain(deadline))),
          container.jobs?.stopWorkers(deadline),
          operator?.close(),
        ]);
        const running = left.reduce((a, b) => a + b, 0);
        if (running) logger.warn({ requests: running }, 'requests still running at the shutdown deadline');
        await container.close();
      })();
      return stopping;
    },
  };
}
