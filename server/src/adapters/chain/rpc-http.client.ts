import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** The answer viem's HTTP transport reads: status, headers and the whole body as text. */
export interface RpcAnswer {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  /** Always null: the body is read whole by `text()`, so viem does not go through a web stream. */
  readonly body: null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** What `rpcFetch` is given: viem's request (URL, method, headers, JSON body, abort signal). */
export interface RpcRequestInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly signal?: AbortSignal | null;
}

/** viem's `fetchFn` option (`http(url, { fetchFn })`). */
type ViemFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface RpcFetch {
  /** The calls, as `rpcFetch` makes them. */
  readonly fetch: (url: string | URL, init?: RpcRequestInit) => Promise<RpcAnswer>;
  /**
   * The same function as viem's `fetchFn`: viem calls it with a URL and a plain init object (its
   * JSON body as a string, headers as a record, a signal) and reads only the members of `RpcAnswer`.
   */
  readonly fetchFn: ViemFetch;
  /** Closes the kept connections. */
  close(): void;
}

/** viem's own cap on a JSON-RPC answer (`maxResponseBodySize`), applied while reading. */
const MAX_BODY_BYTES = 10_485_760;

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error('The RPC request was aborted', { cause: reason });
  err.name = 'AbortError';
  return err;
}

/**
 * JSON-RPC over node:http(s) with kept-alive connections, for viem's HTTP transport instead of the
 * global fetch. A call to the chain node is a small POST and a small JSON answer; fetch spends
 * more CPU on its WHATWG layers (Request and Headers objects, web streams, signal plumbing) than on
 * the call itself, and a bet makes about ten of them (docs/performance.md, "Trading"). Behaves as
 * viem expects of fetch: it resolves with any HTTP status (viem turns a non-2xx into its error),
 * rejects on a connection failure (viem wraps it in `HttpRequestError`, which the outage handling
 * classifies as CHAIN_UNAVAILABLE), and rejects with an `AbortError` when the signal fires (viem's
 * timeout). An answer over viem's 10 MiB cap is cut off and rejected.
 */
export function rpcFetch(options: { maxSockets?: number } = {}): RpcFetch {
  const maxSockets = options.maxSockets ?? 64;
  const http = new HttpAgent({ keepAlive: true, maxSockets });
  const https = new HttpsAgent({ keepAlive: true, maxSockets });
  const fetch = (url: string | URL, init: RpcRequestInit = {}): Promise<RpcAnswer> =>
    new Promise<RpcAnswer>((resolve, reject) => {
      const target = typeof url === 'string' ? new URL(url) : url;
      const secure = target.protocol === 'https:';
      const signal = init.signal ?? undefined;
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const body = init.body ?? '';
      const req = (secure ? httpsRequest : httpRequest)(target, {
        method: init.method ?? 'POST',
        agent: secure ? https : http,
        headers: { ...init.headers, 'content-length': Buffer.byteLength(body) },
      });
      const onAbort = () => {
        reject(abortError(signal as AbortSignal));
        req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      req.once('error', (err) => {
        done();
        reject(err);
      });
      req.once('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            done();
            reject(new Error(`The RPC answer is over ${MAX_BODY_BYTES} bytes`));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.once('error', (err) => {
          done();
          reject(err);
        });
        res.once('end', () => {
          done();
          const text =
            chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers.set(name, value);
            else if (value) for (const v of value) headers.append(name, v);
          }
          const status = res.statusCode ?? 0;
          resolve({
            ok: status >= 200 && status < 300,
            status,
            statusText: res.statusMessage ?? '',
            headers,
            body: null,
            text: () => Promise.resolve(text),
            json: () => Promise.resolve(JSON.parse(text) as unknown),
          });
        });
      });
      req.end(body);
    });
  return {
    fetch,
    fetchFn: fetch as unknown as ViemFetch,
    close() {
      http.destroy();
      https.destroy();
    },
  };
}
