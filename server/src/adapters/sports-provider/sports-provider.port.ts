import type { UpstreamRequest } from '../../areas/sports/sports-request.js';

/** What the provider answered. */
export interface UpstreamResponse {
  readonly status: number;
  readonly body: unknown;
  /** From Retry-After or the provider's rate_limit block, when it says. */
  readonly retryAfterSeconds?: number;
}

/** The sports-data provider. Throws only on transport failure or timeout. */
export interface SportsProviderPort {
  fetch(req: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse>;
}

/** A transport failure; `timeout` when the call ran out of time. */
export class UpstreamTransportError extends Error {
  constructor(
    message: string,
    readonly timeout: boolean,
  ) {
    super(message);
    this.name = 'UpstreamTransportError';
  }
}
