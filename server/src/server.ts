import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMarketsApp, createTournamentsApp } from './app.js';
import type { Config } from './config.js';
import { createContainer, type Container, type ContainerOverrides } from './container.js';
import { createLogger, type Logger } from './logger.js';
import { answerClientError } from './http/client-error.js';

export interface RunningServer {
  readonly container: Container;
  readonly marketsUrl: string | undefined;
  readonly tournamentsUrl: string | undefined;
  /** The development key created on this start, when one was. */
  readonly devKey: string | undefined;
  /** Stops accepting, drains in-flight requests (up to the grace period), closes pools. */
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

function drain(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
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
  const servers: Server[] = [];
  let marketsUrl: string | undefined;
  let tournamentsUrl: string | undefined;
  const { serve, host } = config.http;
  if (serve !== 'tournaments') {
    const server = createServer(createMarketsApp(container));
    server.on('clientError', answerClientError);
    servers.push(server);
    marketsUrl = await listen(server, config.http.marketsPort, host);
  }
  if (serve !== 'markets') {
    const server = createServer(createTournamentsApp(container));
    server.on('clientError', answerClientError);
    servers.push(server);
    tournamentsUrl = await listen(server, config.http.tournamentsPort, host);
  }
  logger.info({ marketsUrl, tournamentsUrl }, 'duelkit listening');
  let stopping: Promise<void> | undefined;
  return {
    container,
    marketsUrl,
    tournamentsUrl,
    devKey: created?.key,
    stop() {
      stopping ??= (async () => {
        await Promise.all(servers.map((s) => drain(s, config.http.shutdownGraceMs)));
        await container.close();
      })();
      return stopping;
    },
  };
}
