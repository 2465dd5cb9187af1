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
    critical: z
      .boolean()
      .optional()
      .describe(
        'False when the instance still serves without it (a fallback covers it, e.g. Redis → memory); always sent by this server',
      ),
    latencyMs: z.number().min(0).optional(),
    error: z.string().optional().describe('Short reason when down; never a secret'),
  })
  .strict();

/**
 * Readiness answer: `ready` (200) when every configured dependency is up, `degraded` (200) when
 * only dependencies with a fallback or a partial outage are down (the instance still serves what
 * it can, and so does every other instance: pulling it would not help), `not_ready` (503) when a
 * critical one is down.
 */
export const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'degraded', 'not_ready']),
    checks: z.record(z.string(), DependencyCheckSchema),
    time: z.string().datetime({ offset: true }),
  })
  .strict();
export type Readiness = z.infer<typeof ReadinessSchema>;
