import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { BridgeDepositEvent, BridgeDepositReceipt } from '@duelkit/contract';
import { getAddress, type Address } from 'viem';
import type { BridgePort } from '../../adapters/bridge/bridge.port.js';
import type { NotificationsPort } from '../../adapters/notifications/notifications.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { DepositRepository } from './deposit.repository.js';

/** What the HTTP layer hands over: the exact bytes that were signed and the two signature headers. */
export interface SignedDelivery {
  readonly rawBody: Buffer | undefined;
  readonly signature: string | undefined;
  readonly timestamp: string | undefined;
}

export interface DepositWebhookDeps {
  readonly repo: DepositRepository;
  readonly bridge: BridgePort | undefined;
  readonly notifications: NotificationsPort;
  readonly clock: Clock;
  readonly secrets: readonly string[];
  readonly toleranceSeconds: number;
  readonly logger: Logger;
}

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`; several `v1=` entries may be sent, comma-separated. */
export function signDelivery(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}

const bad = (reason: string, message: string) => new DomainError('SIGNATURE_INVALID', message, { details: { reason } });

/**
 * The bridge provider's deposit-completed webhook (§4.5, §6; docs/money.md): verified by an HMAC
 * over the timestamp and the raw body, deduped on the provider's event id, credited exactly once
 * (one chain write keyed by the event) and notified through the outbox.
 */
export class DepositWebhookService {
  constructor(private readonly deps: DepositWebhookDeps) {}

  /**
   * Refuses a delivery this deployment cannot take (503) or whose signature does not verify (401).
   * The HTTP layer calls it before the body is validated, so an unsigned delivery is refused as
   * such whatever it carries; `receive` checks it again.
   */
  authenticate(delivery: SignedDelivery): void {
    if (this.deps.secrets.length === 0 || !this.deps.bridge) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'Bridge deposits are not configured on this deployment', {
        details: { reason: this.deps.secrets.length === 0 ? 'BRIDGE_WEBHOOK_SECRET unset' : 'no bridge provider' },
        retryAfterMs: 60_000,
      });
    }
    this.verify(delivery);
  }

  async receive(delivery: SignedDelivery, event: BridgeDepositEvent): Promise<BridgeDepositReceipt> {
    const { repo } = this.deps;
    this.authenticate(delivery);
    const user = await repo.userByAddress(event.data.address);
    if (!user) {
      throw new DomainError('NOT_FOUND', `No user has the managed wallet ${event.data.address}`, {
        details: { address: event.data.address },
      });
    }
    const amount = BigInt(event.data.amount);
    const payloadSha256 = createHash('sha256')
      .update(delivery.rawBody ?? '')
      .digest('hex');
    const recorded = await repo.record(
      {
        eventId: event.eventId,
        userId: user.id,
        address: getAddress(user.managed_address),
        amount,
        payloadSha256,
        now: new Date(this.deps.clock.now()),
      },
      {
        kind: 'bridge.deposit',
        title: 'Deposit received',
        body: `${event.data.amount} base units of usdc arrived in your wallet`,
        data: { eventId: event.eventId, amount: event.data.amount },
      },
    );
    const existing = await repo.deposit(event.eventId);
    if (!existing) throw new Error(`deposit ${event.eventId} vanished`);
    if (existing.payload_sha256 !== payloadSha256 && !recorded) {
      // Same id, different content: the provider's bug or a forgery with a valid key. Never credit
      // it, and never answer it like a harmless retry: the provider must learn that it was refused.
      const conflicts = await repo.noteConflict(event.eventId, new Date(this.deps.clock.now()));
      this.deps.logger.warn(
        { eventId: event.eventId, conflicts, payloadSha256, recordedSha256: existing.payload_sha256 },
        'bridge event id reused with a different payload: refused',
      );
      throw new DomainError(
        'WEBHOOK_EVENT_CONFLICT',
        `Event ${event.eventId} was already delivered with a different payload; this delivery is refused`,
        { details: { eventId: event.eventId } },
      );
    }
    const txHash = existing.status === 'credited' ? existing.tx_hash : await this.credit(existing);
    if (recorded) await this.deliverNotifications(`bridge.deposit:${event.eventId}`);
    return {
      eventId: event.eventId,
      status: recorded ? 'credited' : 'duplicate',
      amount: existing.amount,
      address: getAddress(existing.address),
      txHash: txHash as `0x${string}` | null,
    };
  }

  /** Periodic: credits recorded events a crash left uncredited, delivers pending notifications. */
  async sweep(): Promise<void> {
    for (const id of await this.deps.repo.uncredited(20)) {
      const d = await this.deps.repo.deposit(id);
      if (d && d.status === 'received') await this.credit(d);
    }
    await this.deliverNotifications();
  }

  /** Delivers pending notifications at least once; a failure leaves them for the next sweep. */
  async deliverNotifications(dedupeKey?: string): Promise<number> {
    let delivered = 0;
    for (const n of await this.deps.repo.claimOutbox(20, dedupeKey)) {
      try {
        await this.deps.notifications.send({
          id: n.id,
          userId: n.user_id,
          kind: n.kind,
          title: n.payload.title,
          body: n.payload.body,
          data: n.payload.data,
        });
        await this.deps.repo.outboxDone(n.id, null);
        delivered++;
      } catch (err) {
        await this.deps.repo.outboxDone(n.id, (err as Error).message);
      }
    }
    return delivered;
  }

  private async credit(d: { event_id: string; address: string; amount: string }): Promise<string> {
    const bridge = this.deps.bridge;
    if (!bridge) throw new Error('unreachable: receive checked the bridge');
    return bridge.deliverDeposit(
      { eventId: d.event_id, to: d.address as Address, amount: BigInt(d.amount) },
      async (sql, hash) => {
        await this.deps.repo.markCredited(sql, d.event_id, hash, new Date(this.deps.clock.now()));
      },
    );
  }

  private verify({ rawBody, signature, timestamp }: SignedDelivery): void {
    if (!rawBody || !signature || !timestamp) {
      throw bad('missing', 'Signed deliveries need x-bridge-timestamp, x-bridge-signature and a JSON body');
    }
    const seconds = Number(timestamp);
    if (!/^[0-9]{1,12}$/.test(timestamp) || !Number.isSafeInteger(seconds)) {
      throw bad('timestamp', 'x-bridge-timestamp must be unix seconds');
    }
    const skew = Math.abs(this.deps.clock.now() / 1000 - seconds);
    if (skew > this.deps.toleranceSeconds) {
      throw bad(
        'stale',
        `The delivery is ${Math.round(skew)} s away from now; at most ${this.deps.toleranceSeconds} s`,
      );
    }
    const sent = signature
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.startsWith('v1='))
      .map((s) => Buffer.from(s.slice(3), 'hex'));
    const ok = this.deps.secrets.some((secret) => {
      const expected = Buffer.from(signDelivery(secret, timestamp, rawBody).slice(3), 'hex');
      return sent.some((s) => s.length === expected.length && timingSafeEqual(s, expected));
    });
    if (!ok) throw bad('mismatch', 'The signature does not match the body and timestamp');
  }
}
