/** The upstream hosts the local exchange serves, one loopback listener each. */
export type SimHost = 'clob' | 'gamma' | 'data' | 'relayer' | 'bridge' | 'rpc';
export const SIM_HOSTS: readonly SimHost[] = ['clob', 'gamma', 'data', 'relayer', 'bridge', 'rpc'];

export interface SimRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body text ('' when none): L2 signatures are over these exact bytes. */
  readonly body: string;
}

export interface SimResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An injected fault on one host: `down` answers 503, `rate-limit` 429 with Retry-After, `reset`
 * drops the socket before the request is handled, `lose-answer` handles the request (its effects
 * happen) and then drops the socket, as a response lost on the way back.
 */
export interface SimFault {
  readonly mode: 'down' | 'rate-limit' | 'reset' | 'lose-answer';
  /** Only requests to this path (`/submit`); omitted means every request to the host. */
  readonly path?: string;
  /** How many requests it affects; omitted means until cleared. */
  remaining?: number;
  readonly retryAfterSec?: number;
}

export const ok = (body: unknown): SimResponse => ({ status: 200, body });
export const bad = (error: string, status = 400): SimResponse => ({ status, body: { error } });
