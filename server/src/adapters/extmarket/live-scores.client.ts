import WebSocket from 'ws';
import { DomainError } from '../../errors.js';
import type { ExtLiveScore } from './external-exchange.port.js';

/**
 * The cached snapshot of the sports live-score socket. It answers the server's `ping` with `pong`
 * (the feed drops clients silent for 10 s), keeps the last `sport_result` per game, and reconnects
 * with a growing delay when the socket closes.
 */
export class LiveScoreFeed {
  private socket: WebSocket | undefined;
  private readonly scores = new Map<number, ExtLiveScore>();
  private opened: Promise<void> | undefined;
  private retryMs = 500;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  private connect(): Promise<void> {
    this.opened ??= new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(this.url);
      this.socket = socket;
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error('live-score socket did not open'));
      }, this.timeoutMs);
      socket.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text === 'ping') {
          socket.send('pong');
          return;
        }
        try {
          const msg = JSON.parse(text) as Partial<ExtLiveScore> & { type?: string };
          if (msg.type === 'sport_result' && typeof msg.gameId === 'number') {
            const { type: _type, ...score } = msg;
            this.scores.set(msg.gameId, score as ExtLiveScore);
          }
        } catch {
          // not a message we read
        }
        clearTimeout(timer);
        resolve();
      });
      socket.on('open', () => {
        // The feed sends its snapshot right after opening; an empty feed sends nothing.
        setTimeout(() => {
          clearTimeout(timer);
          resolve();
        }, 200);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        reject(new Error('live-score socket closed'));
        this.opened = undefined;
        this.socket = undefined;
        if (this.closed) return;
        this.reconnectTimer = setTimeout(() => void this.connect().catch(() => undefined), this.retryMs);
        this.reconnectTimer.unref();
        this.retryMs = Math.min(this.retryMs * 2, 30_000);
      });
    });
    return this.opened;
  }

  async snapshot(): Promise<readonly ExtLiveScore[]> {
    try {
      await this.connect();
      this.retryMs = 500;
    } catch (err) {
      if (this.scores.size === 0)
        throw new DomainError('UPSTREAM_UNAVAILABLE', 'The live-score feed is unavailable; try again later', {
          retryAfterMs: 5_000,
          details: { host: 'sports' },
          cause: err,
        });
    }
    return [...this.scores.values()].sort((a, b) => a.gameId - b.gameId);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.socket?.terminate();
  }
}
