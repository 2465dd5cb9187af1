import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { client, DUEL_ID, M, mockService, T } from '../../test/mock-service.js';
import { ResponseValidationError } from '../core/errors.js';
import type { Lenient } from './route-types.js';
import { lenient } from './lenient.js';

const server = mockService();

describe('lenient response schemas', () => {
  const Status = z.enum(['open', 'settled']);
  const Row = z.object({ id: z.string(), status: Status, tags: z.array(Status).optional() }).strict();

  it('let unknown fields and unknown enum values through, nested too', () => {
    const parsed = lenient(z.object({ rows: z.array(Row), next: Row.nullable() }).strict()).parse({
      rows: [{ id: '1', status: 'frozen', tags: ['open', 'archived'], color: 'red' }],
      next: null,
      cursor: 'abc',
    });
    expect(parsed).toEqual({
      rows: [{ id: '1', status: 'frozen', tags: ['open', 'archived'], color: 'red' }],
      next: null,
      cursor: 'abc',
    });
  });

  it('still refuse missing fields and wrong types', () => {
    expect(lenient(Row).safeParse({ status: 'open' }).success).toBe(false);
    expect(lenient(Row).safeParse({ id: 1, status: 'open' }).success).toBe(false);
    expect(lenient(Row).safeParse({ id: '1', status: 7 }).success).toBe(false);
  });

  it('keep a discriminated union’s discriminator exact and widen the rest of each branch', () => {
    const Answer = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('ok'), status: Status }).strict(),
      z.object({ kind: z.literal('no'), reason: z.enum(['expired', 'revoked']) }).strict(),
    ]);
    expect(lenient(Answer).parse({ kind: 'no', reason: 'banned', extra: 1 })).toEqual({
      kind: 'no',
      reason: 'banned',
      extra: 1,
    });
    expect(lenient(Answer).safeParse({ kind: 'maybe' }).success).toBe(false);
  });

  it('keep transforms, defaults and records working', () => {
    const schema = z.object({
      n: z.string().transform((v) => v.length),
      d: Status.default('open'),
      byState: z.record(Status, z.number()),
    });
    expect(lenient(schema).parse({ n: 'abc', byState: { open: 1, paused: 2 } })).toEqual({
      n: 3,
      d: 'open',
      byState: { open: 1, paused: 2 },
    });
  });

  it('are built once per schema', () => {
    expect(lenient(Row)).toBe(lenient(Row));
  });

  it('are typed with every enum open to new values', () => {
    type Out = Lenient<z.output<typeof Row>>;
    const row: Out = { id: '1', status: 'frozen' };
    const known: Out['status'] = 'open';
    // @ts-expect-error: the fields themselves are still checked
    const wrong: Out = { id: 1, status: 'open' };
    expect([row.status, known, wrong]).toHaveLength(3);
  });
});

describe('the client reads answers leniently', () => {
  it('accepts a readiness answer with a new status and a new field', async () => {
    server.use(
      http.get(`${T}/api/parlay/health/ready`, () =>
        HttpResponse.json({
          status: 'degraded',
          checks: { postgres: { status: 'slow', latencyMs: 900 } },
          time: '2026-11-22T12:00:00.000Z',
          region: 'eu-west-1',
        }),
      ),
    );
    const ready = await client().health.parlayReady();
    expect(ready.status).toBe('degraded');
    expect(ready.checks['postgres']?.status).toBe('slow');
    expect((ready as unknown as Record<string, unknown>)['region']).toBe('eu-west-1');
  });

  it('accepts a new rejection reason of a discriminated answer', async () => {
    server.use(
      http.post(`${M}/svc/user/duel-invitations/validate-invite`, () =>
        HttpResponse.json({ valid: false, reason: 'region_closed' }),
      ),
    );
    const answer = await client().invitations.validateInvite({ body: { inviteCode: 'ABCDEFGH' } });
    expect(answer.valid ? 'valid' : answer.reason).toBe('region_closed');
  });

  it('still throws ResponseValidationError for a body that breaks the contract', async () => {
    server.use(http.get(`${T}/api/parlay/health`, () => HttpResponse.json({ status: 'ok', duelId: DUEL_ID })));
    await expect(client().health.parlayHealth()).rejects.toBeInstanceOf(ResponseValidationError);
  });
});
