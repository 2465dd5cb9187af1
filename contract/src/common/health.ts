import { z } from 'zod';

/** Liveness answer: the process is up and serving. */
export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    service: z.string().describe('Which component answered, e.g. `tournaments` or `parlay`'),
    uptimeSeconds: z.number().int().min(0),
    time: z.string().datetime({ offset: true }),
  })
  .strict();
export type Health = z.infer<typeof HealthSchema>;

/** The state of one dependency checked by readiness. */
export const DependencyCheckSchema = z
  .object({
    status: z.enum(['up', 'down', 'not_configured']),
    latencyMs: z.number().min(0).optional(),
    error: z.string().optional().describe('Short reason when down; never a secret'),
  })
  .strict();

/** Readiness answer: 200 when every configured dependency is up, 503 otherwise. */
export const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.record(z.string(), DependencyCheckSchema),
    time: z.string().datetime({ offset: true }),
  })
  .strict();
export type Readiness = z.infer<typeof ReadinessSchema>;
