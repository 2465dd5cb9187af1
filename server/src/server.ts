import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMarketsApp, createTournamentsApp } from './app.js';
import type { Config } from './config.js';
import { createContainer, type Container, type ContainerOverrides } from './container.js';
import { HttpDrain } from './http/drain.js';
import { createLogger, type Logger } from './logger.js';

export interface RunningServer {
  readonly container: Container;
  readonly marketsUrl: string | undefined;
  readonly tournamentsUrl: string | undefined;
  /** The development key created on this start, when one was. */
  readonly devKey: string | undefined;
  /**
   * Stops accepting, lets in-flight requests and jobs finish, then closes pools — all within
   * SHUTDOWN_GRACE_MS (see HttpDrain for how keep-alive connections are let go).
   */
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const { port: bound } = server.address() as AddressInfo;
      resolve(`http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${bound}`);
    });
  });
}

/** Builds the container and serves the configured hosts. */
export async function startDuelkit(
  config: Config,
  options: { logger?: Logger; overrides?: ContainerOverrides } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const container = await createContainer(config, logger, options.overrides);
  const created = await container.builderKeys.ensureDevKey(config.builderKeys.devKey);
  if (created) {
    logger.warn(
      { builderAppId: created.tenant.builderAppId },
      `created development builder key (shown once): ${created.key}`,
    );
  }
  const drains: HttpDrain[] = [];
  const serveApp = async (app: RequestListener, port: number) => {
    const server = createServer();
    const drain = new HttpDrain(server);
    server.on('request', drain.track(app));
    drains.push(drain);
    return listen(server, port, config.http.host);
  };
  const { serve } = config.http;
  const marketsUrl =
    serve !== 'tournaments' ? await serveApp(createMarketsApp(container), config.http.marketsPort) : undefined;
  const tournamentsUrl =
    serve !== 'markets' ? await serveApp(createTournamentsApp(container), config.http.tournamentsPort) : undefined;
  logger.info({ marketsUrl, tournamentsUrl }, 'duelkit listening');
  let stopping: Promise<void> | undefined;
  return {
    container,
    marketsUrl,
    tournamentsUrl,
    devKey: created?.key,
    stop() {
      stopping ??= (async () => {
        const grace = config.http.shutdownGraceMs;
        // Requests and jobs get the grace minus what closing the pools and databases needs.
        const deadline = Date.now() + grace - Math.min(2_000, Math.floor(grace / 4));
        const [left] = await Promise.all([
          Promise.all(drains.map((d) => d.drain(deadline))),
          container.jobs?.stopWorkers(deadline),
        ]);
        const running = left.reduce((a, b) => a + b, 0);
        if (running) logger.warn({ requests: running }, 'requests still running at the shutdown deadline');
        await container.close();
      })();
      return stopping;
    },
  };
}
