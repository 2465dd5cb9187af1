import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/**
 * A FIFO lock over the one PGlite backend. A session holds it from the first message of a batch
 * until the backend is ready for a query outside a transaction, so no other session's messages
 * land in the middle of an extended-protocol batch (Parse/Bind/Execute/Sync) or a transaction.
 */
class BackendLock {
  private owner: Session | null = null;
  private readonly waiting: { session: Session; grant: () => void }[] = [];

  acquire(session: Session): Promise<void> {
    if (this.owner === session) return Promise.resolve();
    if (!this.owner) {
      this.owner = session;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ session, grant }));
  }

  holds(session: Session): boolean {
    return this.owner === session;
  }

  release(session: Session): void {
    if (this.owner !== session) {
      const i = this.waiting.findIndex((w) => w.session === session);
      if (i >= 0) this.waiting.splice(i, 1);
      return;
    }
    const next = this.waiting.shift();
    this.owner = next?.session ?? null;
    next?.grant();
  }
}

/** One client connection: frames its messages and runs them on the backend in order. */
class Session {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  private pumping = false;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly db: PGlite,
    private readonly lock: BackendLock,
    private readonly onClosed: (session: Session) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      void this.pump();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => void this.close());
  }

  /** Cuts the next complete message off the buffer; null while it is incomplete. */
  private nextMessage(): { type: string | null; code: number; bytes: Buffer } | null {
    if (!this.started) {
      if (this.buffer.length < 8) return null;
      const length = this.buffer.readInt32BE(0);
      if (this.buffer.length < length) return null;
      const bytes = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      return { type: null, code: bytes.readInt32BE(4), bytes };
    }
    if (this.buffer.length < 5) return null;
    const length = 1 + this.buffer.readInt32BE(1);
    if (this.buffer.length < length) return null;
    const bytes = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return { type: String.fromCharCode(bytes[0] as number), code: 0, bytes };
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let message = this.nextMessage(); message && !this.closed; message = this.nextMessage()) {
        if (message.type === null) {
          if (message.code === SSL_REQUEST || message.code === GSSENC_REQUEST) {
            this.socket.write('N');
            continue;
          }
          if (message.code === CANCEL_REQUEST) {
            this.socket.destroy();
            return;
          }
          this.started = true;
        } else if (message.type === 'X') {
          this.socket.end();
          return;
        }
        await this.lock.acquire(this);
        if (this.closed) return;
        await this.run(message.bytes);
        // A simple query, a Sync or the startup message each end with ReadyForQuery; only then,
        // and only outside a transaction, may another session's messages run.
        const endsBatch = message.type === null || message.type === 'Q' || message.type === 'S';
        if (endsBatch && !this.db.isInTransaction()) this.lock.release(this);
      }
    } catch {
      this.socket.destroy();
    } finally {
      this.pumping = false;
    }
  }

  private run(bytes: Buffer): Promise<void> {
    return this.db.runExclusive(() =>
      this.db.execProtocolRawStream(new Uint8Array(bytes), {
        onRawData: (data) => {
          if (data.length && !this.socket.destroyed) this.socket.write(Buffer.from(data));
        },
      }),
    );
  }

  /** Leaves the backend clean for the next session: no half batch, no open transaction. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.lock.holds(this)) {
      try {
        await this.db.runExclusive(() => this.db.execProtocolRawStream(new Uint8Array(SYNC), { onRawData: () => {} }));
        if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
      } catch {
        // The backend is closing with the process; nothing is left to protect.
      }
    }
    this.lock.release(this);
    this.onClosed(this);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

export interface EmbeddedSocketServer {
  /** `host:port` of the loopback listener. */
  readonly address: string;
  stop(): Promise<void>;
}

/**
 * Serves one PGlite instance to ordinary PostgreSQL clients on a loopback port. Every connection
 * shares the single backend, so whole batches (not single protocol messages) are serialised:
 * the socket server PGlite ships interleaves messages of concurrent extended-protocol batches
 * and clobbers the unnamed prepared statement (electric-sql/pglite#1046).
 */
export async function serveEmbeddedSocket(db: PGlite, options: { port?: number } = {}): Promise<EmbeddedSocketServer> {
  const lock = new BackendLock();
  const sessions = new Set<Session>();
  const server: Server = createServer((socket) => {
    sessions.add(new Session(socket, db, lock, (s) => sessions.delete(s)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}
