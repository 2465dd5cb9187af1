import type { WebhookDelivery, WebhookEndpoint } from '@duelkit/contract';
import type { AttemptRow, DeliveryRow, EndpointRow } from './webhook.repository.js';

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    types: r.types as WebhookEndpoint['types'],
    status: r.status,
    disabledReason: r.disabled_reason,
    consecutiveFailures: r.consecutive_failures,
    createdAt: new Date(r.created_at).toISOString(),
    secretRotatedAt: iso(r.secret_rotated_at),
  };
}

export function toDelivery(r: DeliveryRow, attempts: readonly AttemptRow[]): WebhookDelivery {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    eventType: r.event_type as WebhookDelivery['eventType'],
    status: r.status,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      at: new Date(a.at).toISOString(),
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
    })),
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    createdAt: new Date(r.created_at).toISOString(),
    deliveredAt: iso(r.delivered_at),
  };
}
