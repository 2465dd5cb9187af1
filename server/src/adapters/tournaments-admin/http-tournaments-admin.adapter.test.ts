import { describe, expect, it } from 'vitest';
import { systemClock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import { CircuitBreaker } from '../../platform/outage/circuit-breaker.js';
import { HttpTournamentsAdmin } from './http-tournaments-admin.adapter.js';
import { ACTING_ADMIN_HEADER, SERVICE_TOKEN_HEADER } from '../../areas/tournaments/tournament-admin-link.protocol.js';

const TOKEN = 's'.repeat(40);
const cancellation = {
  tournamentId: 'a'.repeat(24),
  status: 'CANCELED',
  alreadyCancelled: false,
  cancelledAt: '2026-12-01T10:00:00.000Z',
  reason: 'Fixtures moved',
  cancelledBy: 'admin:42',
  acceptedRequests: 0,
  refund: null,
};

/** A tournaments host that answers each call with the next scripted answer, recording the requests. */
function scripted(...answers: (() => Response)[]) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetchFake = (async (url: string, init?: RequestInit) => {
    seen.push({ url, init: init ?? {} });
    const next = answers.shift();
    if (!next) throw new Error('no scripted answer left');
    return next();
  }) as typeof fetch;
  const breaker = new CircuitBreaker({ threshold: 2, cooldownMs: 60_000 }, systemClock);
  const admin = new HttpTournamentsAdmin('http://tournaments.internal:3001/', {
    serviceToken: TOKEN,
    timeoutMs: 1_000,
    breaker,
    fetch: fetchFake,
  });
  return { admin, breaker, seen };
}

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function failure(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(err)}`);
  return err;
}

describe('HttpTournamentsAdmin', () => {
  it('sends the service credential and the acting admin, and answers the parsed body', async () => {
    const { admin, seen } = scripted(json(200, cancellation));
    expect(await admin.cancel({ adminId: '42' }, 'a'.repeat(24), 'Fixtures moved')).toEqual(cancellation);
    const [call] = seen;
    expect(call?.url).toBe(
      `http://tournaments.internal:3001/internal/tournaments-admin/tournaments/${'a'.repeat(24)}/cancel`,
    );
    const headers = call?.init.headers as Record<string, string>;
    expect(headers[SERVICE_TOKEN_HEADER]).toBe(TOKEN);
    expect(headers[ACTING_ADMIN_HEADER]).toBe('42');
    expect(call?.init.body).toBe(JSON.stringify({ reason: 'Fixtures moved' }));
  });

  it('keeps the code of a refusal and counts it as the host being up', async () => {
    const { admin, breaker } = scripted(
      json(409, { code: 'TOURNAMENT_HAS_ENTRIES', message: 'has entries', details: { entries: 2 } }),
      json(409, { code: 'TOURNAMENT_HAS_ENTRIES', message: 'has entries' }),
    );
    for (let i = 0; i < 2; i++) {
      const err = await failure(admin.discard({ adminId: '42' }, 'a'.repeat(24), undefined));
      expect(err.code).toBe('TOURNAMENT_HAS_ENTRIES');
    }
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('turns outages, 5xx, a refused credential and unreadable answers into TOURNAMENTS_UNAVAILABLE, then opens', async () => {
    const { admin, breaker, seen } = scripted(
      json(503, { code: 'SERVICE_UNAVAILABLE', message: 'starting' }),
      json(401, { code: 'UNAUTHENTICATED', message: 'Service credential required' }),
    );
    const first = await failure(admin.cancelRequests({ limit: 20, offset: 0 }));
    expect([first.code, first.details?.['reason']]).toEqual(['TOURNAMENTS_UNAVAILABLE', 'server-error']);
    // A 5xx may come after the other side applied the call: the outcome is unknown, and said so.
    expect(first.details?.['outcome']).toBe('unknown');
    expect(first.message).toMatch(/may have been applied/);
    expect(first.retryAfterMs).toBeGreaterThan(0);
    const second = await failure(admin.ping());
    expect(second.details).toMatchObject({ reason: 'credential-rejected', outcome: 'not-applied' });
    expect(breaker.snapshot().state).toBe('open');
    const paused = await failure(admin.tournaments({ removable: true, limit: 20, offset: 0 }));
    expect(paused.details).toMatchObject({ reason: 'breaker-open', outcome: 'not-applied' });
    expect(seen).toHaveLength(2);
  });

  it('refuses an answer that does not match the contract', async () => {
    const { admin } = scripted(json(200, { tournamentId: 'x' }), () => {
      throw new TypeError('fetch failed');
    });
    expect((await failure(admin.cancel({ adminId: '1' }, 'a'.repeat(24), 'why not'))).details?.['reason']).toBe(
      'bad-answer',
    );
    expect((await failure(admin.ping())).details?.['reason']).toBe('unreachable');
  });

  it('says a call that never connected changed nothing, and one that timed out may have been applied', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    const { admin } = scripted(
      () => {
        throw refused;
      },
      () => {
        throw timeout;
      },
    );
    const never = await failure(admin.cancel({ adminId: '1' }, 'a'.repeat(24), 'why not'));
    expect(never.details).toMatchObject({ reason: 'unreachable', outcome: 'not-applied' });
    expect(never.message).toMatch(/nothing was changed/);
    const late = await failure(admin.cancel({ adminId: '1' }, 'a'.repeat(24), 'why not'));
    expect(late.details).toMatchObject({ reason: 'timeout', outcome: 'unknown' });
  });
});
