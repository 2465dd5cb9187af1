import { DomainError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { CircuitBreaker } from '../../platform/outage/circuit-breaker.js';

export interface UpstreamPolicy {
  /** A request that takes longer is abandoned and answered as a timeout. */
  readonly timeoutMs: number;
  /** A 429 whose Retry-After is at most this long is retried (at most `maxRetries` times). */
  readonly maxRetryWaitMs: number;
  readonly maxRetries: number;
  readonly breakerThreshold: number;
  readonly breakerCooldownMs: number;
  /** Retry-After given to clients when the upstream named none. */
  readonly defaultRetryAfterMs: number;
}

/** A failure of the upstream itself (not a refusal of the request): it counts against the breaker. */
export class UpstreamFailure extends Error {
  constructor(
    readonly host: string,
    readonly kind: 'rate-limited' | 'down' | 'timeout',
    readonly retryAfterMs: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

/** The answer of an upstream that is up: any status but 429 and 5xx. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly body: unknown;
}

function retryAfterMs(header: string | null | undefined, clock: Clock): number | undefined {
  if (!header) return undefined;
  const secs = Number(header);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - clock.now());
}

/**
 * Calls to the exchange's hosts with one breaker per host, a timeout on every call, and retries of
 * a 429 that honour its Retry-After. What still fails answers 503 UPSTREAM_UNAVAILABLE (or 504
 * UPSTREAM_TIMEOUT) with a Retry-After, never a hang or a 500.
 */
export class UpstreamHttp {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(
    private readonly policy: UpstreamPolicy,
    // Breaker cool-downs and Retry-After dates are infrastructure timing: wall clock.
    private readonly clock: Clock,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  breaker(host: string): CircuitBreaker {
    let b = this.breakers.get(host);
    if (!b) {
      b = new CircuitBreaker(
        { threshold: this.policy.breakerThreshold, cooldownMs: this.policy.breakerCooldownMs },
        this.clock,
      );
      this.breakers.set(host, b);
    }
    return b;
  }

  /** Runs `attempt` under the host's breaker, timeout and 429 retries; maps failures to DomainError. */
  async guard<T>(host: string, attempt: () => Promise<T>): Promise<T> {
    const breaker = this.breaker(host);
    for (let tries = 0; ; tries++) {
      if (!breaker.tryAcquire()) {
        const until = breaker.snapshot().openUntil ?? this.clock.now();
        throw new DomainError(
          'UPSTREAM_UNAVAILABLE',
          `The external exchange (${host}) is unavailable; try again later`,
          {
            retryAfterMs: Math.max(1000, until - this.clock.now()),
            details: { host, breaker: 'open' },
          },
        );
      }
      try {
        const value = await this.withTimeout(host, attempt);
        breaker.success();
        return value;
      } catch (err) {
        if (!(err instanceof UpstreamFailure)) {
          // The upstream answered (a refusal of this request): it is up.
          breaker.success();
          throw err;
        }
        breaker.failure();
        const wait = err.retryAfterMs ?? this.policy.defaultRetryAfterMs;
        if (err.kind === 'rate-limited' && tries < this.policy.maxRetries && wait <= this.policy.maxRetryWaitMs) {
          await this.sleep(wait);
          continue;
        }
        throw new DomainError(
          err.kind === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNAVAILABLE',
          err.kind === 'rate-limited'
            ? `The external exchange (${host}) is rate limiting; try again later`
            : `The external exchange (${host}) did not answer; try again later`,
          { retryAfterMs: Math.max(1000, wait), details: { host, reason: err.kind }, cause: err },
        );
      }
    }
  }

  private async withTimeout<T>(host: string, attempt: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new UpstreamFailure(host, 'timeout', undefined, `${host} timed out`)),
        this.policy.timeoutMs,
      );
    });
    try {
      return await Promise.race([attempt(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A JSON request with fetch; 429 and 5xx and network errors are `UpstreamFailure`s. */
  async json(
    host: string,
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<UpstreamAnswer> {
    return this.guard(host, async () => {
      let res: Response;
      try {
        res = await fetch(url, {
          method: init.method ?? 'GET',
          headers: {
            accept: 'application/json',
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...init.headers,
          },
          ...(init.body === undefined ? {} : { body: init.body }),
          signal: AbortSignal.timeout(this.policy.timeoutMs),
        });
      } catch (err) {
        throw new UpstreamFailure(host, 'down', undefined, err instanceof Error ? err.message : 'network error');
      }
      if (res.status === 429)
        throw new UpstreamFailure(
          host,
          'rate-limited',
          retryAfterMs(res.headers.get('retry-after'), this.clock),
          'rate limited',
        );
      if (res.status >= 500)
        throw new UpstreamFailure(
          host,
          'down',
          retryAfterMs(res.headers.get('retry-after'), this.clock),
          `status ${res.status}`,
        );
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // a text answer stays text
      }
      return { status: res.status, body };
    });
  }
}
