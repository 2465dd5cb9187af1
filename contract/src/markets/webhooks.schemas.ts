import { z } from 'zod';
import { paginated, PaginationQuerySchema } from '../common/pagination.js';
import { TimestampSchema } from '../common/primitives.js';
import { EventTypeSchema } from './events.schemas.js';

export const WebhookEndpointIdParamsSchema = z.object({ endpointId: z.string().uuid() }).strict();
export const WebhookDeliveryIdParamsSchema = z.object({ deliveryId: z.string().uuid() }).strict();

export const CreateWebhookEndpointRequestSchema = z
  .object({
    url: z
      .string()
      .url()
      .max(2_000)
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
      .describe('where deliveries are POSTed; https in production, never a private, loopback or link-local address'),
    description: z.string().max(200).optional(),
    types: z
      .array(EventTypeSchema)
      .min(1)
      .max(50)
      .optional()
      .describe('the event types to deliver; every type when omitted'),
  })
  .strict();
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequestSchema>;

export const WebhookEndpointSchema = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    description: z.string().nullable(),
    types: z.array(EventTypeSchema).nullable().describe('null: every type'),
    status: z.enum(['enabled', 'disabled']),
    disabledReason: z.string().nullable(),
    consecutiveFailures: z.number().int().nonnegative(),
    createdAt: TimestampSchema,
    secretRotatedAt: TimestampSchema.nullable(),
  })
  .strict();
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = z
  .object({
    endpoint: WebhookEndpointSchema,
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9_-]{43}$/)
      .describe('the signing secret: shown here once, never again'),
  })
  .strict();

export const RotateWebhookSecretRequestSchema = z
  .object({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(86_400)
      .describe('how long deliveries also carry a signature with the old secret'),
  })
  .strict();

export const DisableWebhookEndpointRequestSchema = z.object({ reason: z.string().min(1).max(300).optional() }).strict();

export const WebhookEndpointListSchema = z.object({ endpoints: z.array(WebhookEndpointSchema) }).strict();

export const WebhookAttemptSchema = z
  .object({
    attempt: z.number().int().positive(),
    at: TimestampSchema,
    statusCode: z.number().int().nullable().describe("the endpoint's HTTP status; null when it could not be reached"),
    error: z.string().nullable(),
    durationMs: z.number().int().nonnegative(),
  })
  .strict();

export const WebhookDeliverySchema = z
  .object({
    id: z.string().uuid(),
    endpointId: z.string().uuid(),
    eventId: z.string().uuid(),
    eventType: EventTypeSchema,
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.array(WebhookAttemptSchema),
    nextAttemptAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
    deliveredAt: TimestampSchema.nullable(),
  })
  .strict();
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryQuerySchema = PaginationQuerySchema.extend({
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
}).strict();

export const WebhookDeliveryListSchema = paginated(WebhookDeliverySchema);
