import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** Loopback port the proxy listens on. */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /** An outage: drops every open connection and refuses new ones until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Sends the connections made from now on to another service (a node replaced behind one address). */
  retarget(target: { host: string; port: number }): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a shared service (PostgreSQL, Redis, a chain node), so a test can cut
 * and restore the service for one process without touching the service itself.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  let upstreamOf = target;
  const onConnection = (client: Socket) => {
    track(client);
    const upstream = connect(upstreamOf.port, upstreamOf.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async cut() {
      const closing = stopListening();
      for (const s of sockets) s.destroy();
      await closing;
    },
    async restore() {
      server = createServer(onConnection);
      await listen(port);
    },
    retarget(next) {
      upstreamOf = next;
    },
    async close() {
      for (const s of sockets) s.destroy();
      if (server.listening) await stopListening();
    },
  };
}
