import { Server as NetServer, type Socket } from 'node:net';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** A keep-alive connection idle this long during a drain is closed; a busier one gets `Connection: close`. */
const IDLE_CLOSE_MS = 1_000;

/** A listener for the events of many responses: `this` is the response that emitted. */
function eachResponse(handle: (res: ServerResponse) => void): (this: ServerResponse) => void {
  return function (this: ServerResponse) {
    handle(this);
  };
}

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
  /** Responses not yet closed. */
  private readonly responses = new Set<ServerResponse>();
  /** Responses whose client went away before their handler ended them: the handler may still be at work. */
  private readonly abandoned = new Set<ServerResponse>();
  private readonly waiters = new Set<() => void>();
  /** One listener for every response (`this` is the response), not a closure per request. */
  private readonly closed: (this: ServerResponse) => void;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.idleSince.set(socket, Date.now());
      socket.once('close', () => {
        this.idleSince.delete(socket);
        this.active.delete(socket);
        this.notify();
      });
    });
    this.closed = eachResponse((res) => this.settle(res));
  }

  /** Wraps the app so every request is tracked from arrival until its handler ends the response. */
  track(app: RequestListener): RequestListener {
    return (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      this.idleSince.delete(socket);
      this.active.set(socket, (this.active.get(socket) ?? 0) + 1);
      if (this.draining) res.setHeader('Connection', 'close');
      this.responses.add(res);
      // A response always closes: after its last byte, or when its client goes away.
      res.on('close', this.closed);
      app(req, res);
    };
  }

  private settle(res: ServerResponse): void {
    if (!this.responses.delete(res)) return;
    // `writableEnded` turns true when the handler calls `end()`, even after its client left.
    if (!res.writableEnded) this.abandoned.add(res);
    const socket = res.req.socket;
    const left = (this.active.get(socket) ?? 1) - 1;
    if (left > 0) this.active.set(socket, left);
    else {
      this.active.delete(socket);
      if (!socket.destroyed) this.idleSince.set(socket, Date.now());
    }
    this.notify();
  }

  /** Handlers that have not ended their response yet. */
  private handlersRunning(): number {
    let running = 0;
    for (const res of this.responses) if (!res.writableEnded) running += 1;
    for (const res of this.abandoned) {
      if (res.writableEnded) this.abandoned.delete(res);
      else running += 1;
    }
    return running;
  }

  private notify(): void {
    for (const wake of this.waiters) wake();
  }

  private get done(): boolean {
    return this.handlersRunning() === 0 && this.idleSince.size === 0 && this.active.size === 0;
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
    return this.handlersRunning();
  }
}
