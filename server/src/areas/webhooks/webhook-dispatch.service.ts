import type { WebhookSenderPort } from '../../adapters/webhook-sender/webhook-sender.port.js';
import type { Logger } from '../../logger.js';
import type { Clock } from '../../platform/clock.js';
import { toWire } from '../../platform/events/event.types.js';
import type { SecretBox } from '../identity/secret-box.js';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.protocol.js';
import type { AttemptOutcome, ClaimedDelivery, WebhookRepository } from './webhook.repository.js';

export interface WebhookDispatchSettings {
  /** The wait after the first failed attempt; each further failure doubles it. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** How long after its creation a delivery is retried; past it, the delivery fails for good. */
  readonly horizonMs: number;
  /** An endpoint whose delivery fails for good after this many consecutive failed attempts is disabled. */
  readonly disableAfterFailures: number;
  /** How long a claimed delivery is reserved for the worker sending it. */
  readonly claimMs: number;
  readonly batchSize: number;
}

export const DEFAULT_DISPATCH: WebhookDispatchSettings = {
  baseDelayMs: 10_000,
  maxDelayMs: 6 * 3600_000,
  horizonMs: 3 * 24 * 3600_000,
  disableAfterFailures: 20,
  claimMs: 60_000,
  batchSize: 20,
};

/** The wait before attempt `attempt + 1` after `attempt` failed attempts. */
export function backoffMs(attempt: number, s: Pick<WebhookDispatchSettings, 'baseDelayMs' | 'maxDelayMs'>): number {
  return Math.min(s.maxDelayMs, s.baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Sends due webhook deliveries, at least once: a delivery is claimed (reserved for `claimMs`),
 * sent with a fresh signature, and its attempt recorded with what the endpoint answered. A 2xx
 * succeeds; anything else is retried with exponential back-off until the horizon, then fails.
 * Time is the injected clock's, so tests move it instead of waiting. Runs on the job engine.
 */
export class WebhookDispatcher {
  constructor(
    private readonly repo: WebhookRepository,
    private readonly sender: WebhookSenderPort,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: WebhookDispatchSettings = DEFAULT_DISPATCH,
  ) {}

  /** Sends every delivery due now (a batch at a time); how many attempts were made. */
  async runOnce(): Promise<number> {
    let made = 0;
    for (;;) {
      const now = this.clock.now();
      const claimed = await this.repo.claimDue(
        new Date(now),
        new Date(now + this.settings.claimMs),
        this.settings.batchSize,
      );
      if (!claimed.length) return made;
      await Promise.all(claimed.map((c) => this.attempt(c)));
      made += claimed.length;
    }
  }

  private async attempt(c: ClaimedDelivery): Promise<void> {
    const at = this.clock.now();
    const body = JSON.stringify(toWire(c.event));
    const secrets = [this.box.open(c.endpoint.secret_sealed)];
    const previous = c.endpoint.previous_secret_sealed;
    const previousUntil = c.endpoint.previous_secret_expires_at;
    if (previous && previousUntil && new Date(previousUntil).getTime() > at) secrets.push(this.box.open(previous));
    const headers = {
      [SIGNATURE_HEADER]: signatureHeader(secrets, Math.floor(at / 1000), body),
      'Duelkit-Event-Id': c.event.id,
      'Duelkit-Event-Type': c.event.type,
      'Duelkit-Delivery-Id': c.delivery.id,
    };
    let statusCode: number | null = null;
    let error: string | null = null;
    // Infrastructure timing: how long the endpoint took, not a rule of the domain.
    const started = performance.now();
    try {
      statusCode = (await this.sender.post(c.endpoint.url, headers, body)).status;
      if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const durationMs = Math.round(performance.now() - started);
    const ok = error === null;
    const attempt = c.delivery.attempts + 1;
    let nextAttemptAt: Date | null = null;
    let disable: string | null = null;
    if (!ok) {
      const next = at + backoffMs(attempt, this.settings);
      if (next <= new Date(c.delivery.created_at).getTime() + this.settings.horizonMs) {
        nextAttemptAt = new Date(next);
      } else {
        const failures = c.endpoint.consecutive_failures + 1;
        if (failures >= this.settings.disableAfterFailures) {
          disable = `${failures} consecutive failed attempts; a delivery exhausted its retries (last: ${error})`;
        }
      }
    }
    const outcome: AttemptOutcome = {
      deliveryId: c.delivery.id,
      endpointId: c.endpoint.id,
      attempt,
      at: new Date(at),
      statusCode,
      error,
      durationMs,
      ok,
      nextAttemptAt,
      disable,
    };
    await this.repo.recordAttempt(outcome);
    if (disable) this.logger.warn({ endpointId: c.endpoint.id, reason: disable }, 'webhook endpoint disabled');
  }
}
