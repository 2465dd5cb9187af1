import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { LocalExchange, type LocalExchangeOptions } from './local-exchange.js';
import { SIM_HOSTS, type SimHost } from './local-exchange.types.js';

/** Base URLs of a running local exchange, one per upstream host, plus the live-score socket. */
export type LocalExchangeUrls = Record<SimHost, string> & { readonly sportsWs: string };

export interface RunningLocalExchange {
  readonly exchange: LocalExchange;
  readonly urls: LocalExchangeUrls;
  close(): Promise<void>;
}

/** The live-score socket's keep-alive: a `ping` every 5 s, and a client silent for 10 s is dropped. */
const PING_EVERY_MS = 5_000;
const PONG_WITHIN_MS = 10_000;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

/** Starts the local exchange on loopback: one listener per upstream host and the sports socket. */
export async function startLocalExchange(opts: LocalExchangeOptions): Promise<RunningLocalExchange> {
  const exchange = new LocalExchange(opts);
  const servers: Server[] = [];
  const urls: Partial<Record<SimHost | 'sportsWs', string>> = {};
  for (const host of SIM_HOSTS) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const fault = exchange.takeFault(host, new URL(req.url ?? '/', 'http://local').pathname);
        if (fault?.mode === 'reset') {
          req.socket.destroy();
          return;
        }
        if (fault && fault.mode !== 'lose-answer') {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (fault.mode === 'rate-limit') headers['retry-after'] = String(fault.retryAfterSec ?? 1);
          res.writeHead(fault.mode === 'rate-limit' ? 429 : 503, headers);
          res.end(JSON.stringify({ error: fault.mode === 'rate-limit' ? 'Too Many Requests' : 'Service Unavailable' }));
          return;
        }
        const url = new URL(req.url ?? '/', 'http://local');
        const headers: Record<string, string | undefined> = {};
        for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
        exchange
          .handle(host, {
            method: (req.method ?? 'GET').toUpperCase(),
            path: url.pathname,
            query: url.searchParams,
            headers,
            body: Buffer.concat(chunks).toString('utf8'),
          })
          .then(
            (answer) => {
              if (fault?.mode === 'lose-answer') {
                req.socket.destroy();
                return;
              }
              res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
              res.end(JSON.stringify(answer.body));
            },
            (err: unknown) => {
              res.writeHead(500, { 'content-type': 'application/json' });
              res.end(JSON.stringify({ error: err instanceof Error ? err.message : 'internal error' }));
            },
          );
      });
    });
    servers.push(server);
    urls[host] = await listen(server);
  }

  // The sports feed: sends the current results on connect and every change after.
  const sportsServer = createServer((_req, res) => {
    res.writeHead(426);
    res.end();
  });
  const wss = new WebSocketServer({ server: sportsServer, path: '/ws' });
  const lastPong = new Map<WebSocket, number>();
  wss.on('connection', (socket) => {
    // Keep-alive bookkeeping is infrastructure timing, not a domain rule: wall clock.
    lastPong.set(socket, Date.now());
    socket.on('message', (data: Buffer) => {
      if (data.toString() === 'pong') lastPong.set(socket, Date.now());
    });
    socket.on('close', () => lastPong.delete(socket));
    for (const r of exchange.currentScores()) socket.send(JSON.stringify({ type: 'sport_result', ...r }));
  });
  exchange.onScore = (r) => {
    for (const s of wss.clients) s.send(JSON.stringify({ type: 'sport_result', ...r }));
  };
  const pinger = setInterval(() => {
    for (const s of wss.clients) {
      if (Date.now() - (lastPong.get(s) ?? 0) > PONG_WITHIN_MS) s.terminate();
      else s.send('ping');
    }
  }, PING_EVERY_MS);
  pinger.unref();
  servers.push(sportsServer);
  urls.sportsWs = `${(await listen(sportsServer)).replace('http', 'ws')}/ws`;

  return {
    exchange,
    urls: urls as LocalExchangeUrls,
    close: async () => {
      clearInterval(pinger);
      for (const s of wss.clients) s.terminate();
      wss.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
