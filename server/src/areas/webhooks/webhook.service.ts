import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateWebhookEndpointRequest, WebhookDelivery, WebhookEndpoint } from '@duelkit/contract';
import type { WebhookSenderPort } from '../../adapters/webhook-sender/webhook-sender.port.js';
import { DomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation.context.js';
import type { SecretBox } from '../identity/secret-box.js';
import { toDelivery, toEndpoint } from './webhook.mapper.js';
import type { EndpointRow, WebhookRepository } from './webhook.repository.js';

export const MAX_ENDPOINTS_PER_APP = 20;

export interface WebhookServiceDeps {
  readonly repo: WebhookRepository;
  readonly sender: WebhookSenderPort;
  readonly box: SecretBox;
}

/** A fresh signing secret: `whsec_` and 256 random bits, base64url. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Webhook endpoints of a builder app (docs/events.md): the rules of the webhook routes. */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  async create(
    ctx: OperationContext,
    builderAppId: string,
    body: CreateWebhookEndpointRequest,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const refusal = await this.deps.sender.checkTarget(body.url);
    if (refusal) {
      throw new DomainError('WEBHOOK_URL_FORBIDDEN', `This URL cannot receive webhooks: ${refusal}`, {
        details: { reason: refusal },
        fieldErrors: { 'body.url': [refusal] },
      });
    }
    // A resumed request (same Idempotency-Key) finds the endpoint it created.
    const id = ctx.scopedId('webhook-endpoint') ?? randomUUID();
    const existing = await this.deps.repo.endpoint(builderAppId, id);
    if (existing) return { endpoint: toEndpoint(existing), secret: this.deps.box.open(existing.secret_sealed) };
    if ((await this.deps.repo.countForApp(builderAppId)) >= MAX_ENDPOINTS_PER_APP) {
      throw new DomainError('WEBHOOK_LIMIT', `An app may have at most ${MAX_ENDPOINTS_PER_APP} webhook endpoints`, {
        details: { max: MAX_ENDPOINTS_PER_APP },
      });
    }
    const secret = newSecret();
    const row = await this.deps.repo.insertEndpoint({
      id,
      builderAppId,
      url: body.url,
      description: body.description ?? null,
      types: body.types ? [...new Set(body.types)] : null,
      secretSealed: this.deps.box.seal(secret),
      at: ctx.now,
    });
    return { endpoint: toEndpoint(row), secret: this.deps.box.open(row.secret_sealed) };
  }

  async list(builderAppId: string): Promise<{ endpoints: WebhookEndpoint[] }> {
    return { endpoints: (await this.deps.repo.endpoints(builderAppId)).map(toEndpoint) };
  }

  async rotateSecret(
    ctx: OperationContext,
    builderAppId: string,
    endpointId: string,
    overlapSeconds: number,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await this.own(builderAppId, endpointId);
    const secret = newSecret();
    const row = await this.deps.repo.rotateSecret(
      endpointId,
      this.deps.box.seal(secret),
      new Date(ctx.now.getTime() + overlapSeconds * 1000),
      ctx.now,
    );
    return { endpoint: toEndpoint(row), secret };
  }

  async disable(builderAppId: string, endpointId: string, reason: string | undefined): Promise<WebhookEndpoint> {
    await this.own(builderAppId, endpointId);
    return toEndpoint(await this.deps.repo.disable(endpointId, reason ?? 'disabled by the builder'));
  }

  async test(ctx: OperationContext, builderAppId: string, endpointId: string): Promise<WebhookDelivery> {
    const endpoint = this.enabled(await this.own(builderAppId, endpointId));
    const deliveryId = ctx.scopedId('webhook-test') ?? randomUUID();
    const row = await this.deps.repo.insertTestDelivery(
      endpoint,
      deliveryId,
      { endpointId, message: 'A test delivery from Duelkit' },
      ctx.now,
    );
    return toDelivery(row, await this.deps.repo.attemptsOf(row.id));
  }

  async deliveries(
    builderAppId: string,
    endpointId: string,
    query: { page: number; limit: number; status?: 'pending' | 'succeeded' | 'failed' | undefined },
  ) {
    await this.own(builderAppId, endpointId);
    const { rows, total } = await this.deps.repo.deliveries(
      endpointId,
      query.status,
      query.limit,
      (query.page - 1) * query.limit,
    );
    return {
      data: rows.map((r) => toDelivery(r, r.attemptRows)),
      pagination: { page: query.page, limit: query.limit, total, hasMore: query.page * query.limit < total },
    };
  }

  async redeliver(ctx: OperationContext, builderAppId: string, deliveryId: string): Promise<WebhookDelivery> {
    const found = await this.deps.repo.delivery(deliveryId);
    if (!found || found.builder_app_id !== builderAppId) {
      throw new DomainError('NOT_FOUND', 'No such webhook delivery', { details: { deliveryId } });
    }
    if (found.endpoint_status !== 'enabled') {
      throw new DomainError('INVALID_STATE', 'The endpoint of this delivery is disabled', {
        details: { status: found.endpoint_status },
      });
    }
    await this.deps.repo.requeue(deliveryId, ctx.now);
    const row = await this.deps.repo.delivery(deliveryId);
    return toDelivery(row ?? found, await this.deps.repo.attemptsOf(deliveryId));
  }

  private async own(builderAppId: string, endpointId: string): Promise<EndpointRow> {
    const row = await this.deps.repo.endpoint(builderAppId, endpointId);
    if (!row) throw new DomainError('NOT_FOUND', 'No such webhook endpoint', { details: { endpointId } });
    return row;
  }

  private enabled(row: EndpointRow): EndpointRow {
    if (row.status !== 'enabled') {
      throw new DomainError('INVALID_STATE', 'This webhook endpoint is disabled', {
        details: { status: row.status, reason: row.disabled_reason },
      });
    }
    return row;
  }
}
