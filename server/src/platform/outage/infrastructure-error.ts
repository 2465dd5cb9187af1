import { BaseError as ViemError } from 'viem';
import { DomainError } from '../../errors.js';

/** How long a client is asked to wait before retrying a request an outage refused. */
export const OUTAGE_RETRY_AFTER_MS = 5_000;

/** viem errors that mean the node could not be reached or did not answer in time. */
const CHAIN_TRANSPORT_ERRORS = new Set([
  'HttpRequestError',
  'TimeoutError',
  'WebSocketRequestError',
  'SocketClosedError',
  'LimitExceededRpcError',
  'ResourceUnavailableRpcError',
]);

/** Socket-level failures: the peer is down, unreachable or went away mid-request. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Whether `err` itself is a socket failure: the peer refused, dropped or could not be reached. */
export function isSocketFailure(err: unknown): boolean {
  return SOCKET_CODES.has(text((err as ErrorLike | null)?.code));
}

/** Messages of the pg driver and its pool when the server is gone or unreachable. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Connection ended unexpectedly',
];

/** Messages of ioredis while Redis is unreachable (the offline queue is off). */
const REDIS_MESSAGES = ["Stream isn't writeable", 'Connection is closed', 'Reached the max retries per request limit'];

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  syscall?: unknown;
  cause?: unknown;
  $metadata?: unknown;
}

/** The error and its causes, outermost first (bounded: causes can be cyclic). */
function chainOf(err: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  for (let e = err; e && typeof e === 'object' && out.length < 8; e = (e as ErrorLike).cause) {
    if (out.includes(e)) break;
    out.push(e);
  }
  return out;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

function isDatabaseError(e: ErrorLike): boolean {
  const name = text(e.name);
  const code = text(e.code);
  const message = text(e.message);
  if (name === 'KnexTimeoutError' || name === 'ConnectionException') return true;
  // SQLSTATE class 08 (connection exception), 57P01-03 (shutdown, crash, cannot connect now), 53300 (too many connections).
  if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
  return PG_CONNECTION_MESSAGES.some((m) => message.includes(m));
}

/**
 * Turns an infrastructure failure into the retryable 503 a client can wait out, or null when the
 * error is something else. PostgreSQL (pool timeouts, lost or refused connections, server
 * shutdown) → DATABASE_UNAVAILABLE; the chain node (viem transport errors) → CHAIN_UNAVAILABLE;
 * Redis or another upstream → SERVICE_UNAVAILABLE. A bare socket error that no client wrapped
 * comes from the pg driver: every other client in the server wraps its own (fetch, viem, ioredis,
 * the AWS SDK).
 */
export function classifyInfrastructureError(err: unknown): DomainError | null {
  if (err instanceof DomainError) return null;
  const chain = chainOf(err);
  const outage = (code: 'DATABASE_UNAVAILABLE' | 'CHAIN_UNAVAILABLE' | 'SERVICE_UNAVAILABLE', message: string) =>
    new DomainError(code, message, { retryAfterMs: OUTAGE_RETRY_AFTER_MS, cause: err });

  const viem = chain.find((e): e is ViemError & ErrorLike => e instanceof ViemError);
  if (viem) {
    const transport = viem.walk((e) => CHAIN_TRANSPORT_ERRORS.has((e as Error).name));
    return transport && CHAIN_TRANSPORT_ERRORS.has(transport.name)
      ? outage('CHAIN_UNAVAILABLE', 'The chain node is unavailable; retry shortly')
      : null;
  }
  if (chain.some(isDatabaseError)) return outage('DATABASE_UNAVAILABLE', 'The database is unavailable; retry shortly');
  if (chain.some((e) => REDIS_MESSAGES.some((m) => text(e.message).includes(m)))) {
    return outage('SERVICE_UNAVAILABLE', 'A backing service is unavailable; retry shortly');
  }
  const [outer] = chain;
  if (outer && SOCKET_CODES.has(text(outer.code)) && outer.$metadata === undefined) {
    return outage('DATABASE_UNAVAILABLE', 'The database is unavailable; retry shortly');
  }
  if (chain.some((e) => SOCKET_CODES.has(text(e.code)))) {
    return outage('SERVICE_UNAVAILABLE', 'A backing service is unavailable; retry shortly');
  }
  return null;
}
