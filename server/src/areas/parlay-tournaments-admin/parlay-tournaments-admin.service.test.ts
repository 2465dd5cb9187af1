import { describe, expect, it } from 'vitest';
import type { TournamentsAdminPort } from '../../adapters/tournaments-admin/tournaments-admin.port.js';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../platform/clock.js';
import type { BreakerSnapshot } from '../../platform/outage/circuit-breaker.js';
import { ParlayTournamentsAdminService } from './parlay-tournaments-admin.service.js';

const START = Date.UTC(2026, 10, 28, 9);

/** The tournaments link: a ping that takes `pingMs` on the clock, or fails with `failure`. */
function link(
  clock: ManualClock,
  over: { pingMs?: number; failure?: unknown; breaker?: BreakerSnapshot; mode?: 'in-process' | 'http' } = {},
) {
  let pings = 0;
  const port = {
    mode: over.mode ?? 'http',
    url: over.mode === 'in-process' ? null : 'https://tournaments.example',
    credentialConfigured: true,
    breaker: () => over.breaker ?? { state: 'closed', consecutiveFailures: 0, openUntil: null },
    ping: async () => {
      pings++;
      clock.advance(over.pingMs ?? 0);
      await Promise.resolve();
      // A port may reject with anything; the status must still name it.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (over.failure !== undefined) throw over.failure;
    },
  } as Partial<TournamentsAdminPort> as TournamentsAdminPort;
  return { port, pings: () => pings };
}

describe('ParlayTournamentsAdminService.configStatus', () => {
  it('reports a reachable link with the round trip measured on the clock', async () => {
    const clock = new ManualClock(START);
    const { port, pings } = link(clock, { pingMs: 37 });
    const status = await new ParlayTournamentsAdminService(port, clock).configStatus();
    expect(pings()).toBe(1);
    expect(status).toEqual({
      mode: 'http',
      tournamentsUrl: 'https://tournaments.example',
      credentialConfigured: true,
      reachable: true,
      latencyMs: 37,
      checkedAt: new Date(START + 37).toISOString(),
      breaker: { state: 'closed', consecutiveFailures: 0, openUntil: null },
      error: null,
    });
  });

  it('keeps the code of a refusal from the tournaments side and gives no latency', async () => {
    const clock = new ManualClock(START);
    const failure = new DomainError('TOURNAMENTS_UNAVAILABLE', 'tournaments host did not answer');
    const openUntil = START + 30_000;
    const { port } = link(clock, {
      pingMs: 5_000,
      failure,
      breaker: { state: 'open', consecutiveFailures: 5, openUntil },
    });
    const status = await new ParlayTournamentsAdminService(port, clock).configStatus();
    expect(status).toMatchObject({
      reachable: false,
      latencyMs: null,
      error: { code: 'TOURNAMENTS_UNAVAILABLE', message: 'tournaments host did not answer' },
      breaker: { state: 'open', consecutiveFailures: 5, openUntil: new Date(openUntil).toISOString() },
    });
  });

  it('reports any other failure as INTERNAL with its message', async () => {
    const clock = new ManualClock(START);
    const plain = await new ParlayTournamentsAdminService(
      link(clock, { failure: new Error('socket hang up') }).port,
      clock,
    ).configStatus();
    expect(plain.error).toEqual({ code: 'INTERNAL', message: 'socket hang up' });
    const thrown = await new ParlayTournamentsAdminService(link(clock, { failure: 'boom' }).port, clock).configStatus();
    expect(thrown.error).toEqual({ code: 'INTERNAL', message: 'boom' });
  });

  it('names an in-process link without a URL', async () => {
    const clock = new ManualClock(START);
    const status = await new ParlayTournamentsAdminService(
      link(clock, { mode: 'in-process' }).port,
      clock,
    ).configStatus();
    expect(status).toMatchObject({ mode: 'in-process', tournamentsUrl: null, reachable: true, latencyMs: 0 });
  });
});
