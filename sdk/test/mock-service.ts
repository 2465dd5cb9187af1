import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { DuelkitClient, type DuelkitClientOptions } from '../src/client.js';
import type { Logger } from '../src/core/logger.js';

/** Base URLs the mocked hosts answer on. */
export const M = 'http://markets.test';
export const T = 'http://tournaments.test';
export const KEY = 'dk_test_builder_key_value';
export const ADDRESS = '0x00000000000000000000000000000000000000aA';
export const DUEL_ID = `0x${'ab'.repeat(32)}`;

/** An msw server for one test file: every request must have a handler. */
export function mockService() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export function client(extra: DuelkitClientOptions = {}): DuelkitClient {
  return new DuelkitClient({ marketsUrl: M, tournamentsUrl: T, builderApiKey: KEY, ...extra });
}

/** The service's error body. */
export function apiError(status: number, code: string, headers: Record<string, string> = {}) {
  return HttpResponse.json({ code, message: code, requestId: 'req-1' }, { status, headers });
}

/** A logger that keeps what it is given; `waits()` lists the waits the client chose before each retry. */
export function recordingLogger() {
  const entries: { message: string; data: Record<string, unknown> | undefined }[] = [];
  const sink = (message: string, data?: Record<string, unknown>) => entries.push({ message, data });
  const logger: Logger = { debug: sink, info: sink, warn: sink, error: sink };
  return {
    logger,
    entries,
    waits: () => entries.filter((e) => e.message.endsWith('retrying')).map((e) => e.data?.['waitMs']),
  };
}

export const health = { status: 'ok', service: 'parlay', uptimeSeconds: 1, time: '2026-11-22T12:00:00.000Z' };

/** A duel as `duels.getById` answers it, in `status`. */
export function duelFixture(status: string) {
  return {
    id: '7b0f8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    duelId: DUEL_ID,
    question: 'Will it rain?',
    description: null,
    category: 'Weather',
    tags: [],
    options: ['YES', 'NO'],
    duelType: 'PREDICTION',
    collateralStack: 'credits',
    isPrivate: false,
    leagueId: null,
    parentMarketId: null,
    coverImageUrl: null,
    creatorAddress: '0x00000000000000000000000000000000000000Bb',
    startTime: '2026-11-22T12:00:00.000Z',
    endTime: '2026-11-23T12:00:00.000Z',
    createdAt: '2026-11-22T11:00:00.000Z',
    status,
    chainState: 'confirmed',
    txHash: `0x${'cd'.repeat(32)}`,
    chainError: null,
    winningOptionIndex: status === 'settled' ? 0 : null,
    poolBalances: ['0', '0'],
    prices: ['500000000000000000', '500000000000000000'],
    yesPercentage: 50,
    totalVolume: '0',
    uniqueParticipants: 0,
    extMarketId: null,
    extMarketVolume24h: null,
    extLive: false,
    isCanonical: false,
  };
}
