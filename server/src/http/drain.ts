import { Server as NetServer, type Socket } from 'node:net';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** A keep-alive connection idle this long during a drain is closed; a busier one gets `Connection: close`. */
const IDLE_CLOSE_MS = 1_000;

/**
 * Graceful drain of one HTTP server under keep-alive load. Closing idle keep-alive connections at
 * once cuts requests a client is writing at that instant; closing busy ones at the deadline cuts
 * the requests on them. Instead, once draining: every response says `Connection: close` (so the
 * client opens a new connection, which is refused, instead of reusing this one), connections are
 * closed only after they have been idle a while, and a request counts as finished when its
 * handler ended the response — even when the client went away — so the caller can wait for the
 * work (and its idempotency record) to complete before closing the database.
 */
export class HttpDrain {
  private draining = false;
  private readonly idleSince = new Map<Socket, number>();
  private readonly active = new Map<Socket, number>();
  private readonly responses = new Set<ServerResponse>();
  private handlersRunning = 0;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.idleSince.set(socket, Date.now());
      socket.once('close', () => {
        this.idleSince.delete(socket);
        this.active.delete(socket);
        this.notify();
      });
    });
  }

  /** Wraps the app so every request is tracked from arrival until its handler ends the response. */
  track(app: RequestListener): RequestListener {
    return (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      this.idleSince.delete(socket);
      this.active.set(socket, (this.active.get(socket) ?? 0) + 1);
      this.handlersRunning += 1;
      if (this.draining) res.setHeader('Connection', 'close');
      this.responses.add(res);
      let ended = false;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        if (!ended) {
          ended = true;
          this.handlersRunning -= 1;
        }
        const out = end(...args);
        this.notify();
        return out;
      }) as ServerResponse['end'];
      const settle = () => {
        if (this.responses.delete(res)) this.settle(socket);
      };
      res.once('finish', settle);
      res.once('close', settle);
      app(req, res);
    };
  }

  private settle(socket: Socket): void {
    const left = (this.active.get(socket) ?? 1) - 1;
    if (left > 0) this.active.set(socket, left);
    else {
      this.active.delete(socket);
      if (!socket.destroyed) this.idleSince.set(socket, Date.now());
    }
    this.notify();
  }

  private notify(): void {
    for (const wake of this.waiters) wake();
  }

  private get done(): boolean {
    return this.handlersRunning === 0 && this.idleSince.size === 0 && this.active.size === 0;
  }

  /**
   * Stops accepting connections and waits until every connection is closed and every handler has
   * ended its response, or until `deadline` (epoch ms); then closes whatever is left. Resolves with
   * the number of handlers still running at that point.
   */
  async drain(deadline: number): Promise<number> {
    this.draining = true;
    // Responses already under way but not yet sent also tell the client to go.
    for (const res of this.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    // net.Server's close stops listening without http.Server's immediate closing of idle
    // keep-alive connections (the very race this class avoids).
    const stopped = new Promise<void>((resolve) => NetServer.prototype.close.call(this.server, () => resolve()));
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const [socket, since] of this.idleSince) {
        if (now - since < IDLE_CLOSE_MS) continue;
        this.idleSince.delete(socket);
        socket.end(() => socket.destroy());
      }
      this.notify();
    }, 100);
    try {
      while (!this.done && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            this.waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, Math.max(0, Math.min(250, deadline - Date.now())));
          this.waiters.add(wake);
        });
      }
    } finally {
      clearInterval(sweep);
    }
    this.server.closeAllConnections();
    await stopped;
    // Clears http.Server's own connection-checking timer; the listener is already closed.
    this.server.close(() => undefined);
    return this.handlersRunning;
  }
}
