import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedUser, UNIT, until } from '../test/support/market-fixtures.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startDuelkit, type RunningServer } from './server.js';
import { UNRESTRICTED } from './platform/geo/region.js';
import { testContext } from '../test/support/operation.js';

describe('embedded defaults', () => {
  let running: RunningServer;
  const devKey = 'dk_embedded_smoke_test_key';
  const warnings: string[] = [];

  beforeAll(async () => {
    // No DATABASE_URL and no REDIS_URL: embedded PostgreSQL and in-memory limits.
    running = await startDuelkit(
      loadConfig({
        PORT: '0',
        TOURNAMENTS_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DUELKIT_DEV_BUILDER_KEY: devKey,
        CHAIN_EMBEDDED_RPC_PORT: '0',
        OPERATOR_PORT: 'off',
        DUEL_PUBLIC_LEAD_SECONDS: '0',
        INDEXER_INTERVAL_MS: '200',
      }),
      { logger: createLogger('warn', { write: (line: string) => void warnings.push(line) }) },
    );
  }, 60_000);
  afterAll(() => running?.stop());

  it('starts both hosts, creates the development key and serves spec routes with it', async () => {
    expect(running.devKey).toBe(devKey);
    for (const url of [running.marketsUrl, running.tournamentsUrl]) {
      expect((await fetch(`${url}/health`)).status).toBe(200);
    }
    const ready = await fetch(`${running.tournamentsUrl}/api/parlay/health/ready`, {
      headers: { 'x-builder-api-key': devKey },
    });
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { checks: Record<string, { status: string }> };
    expect(body.checks['postgres']?.status).toBe('up');
    expect(body.checks['redis']?.status).toBe('not_configured');
    expect(body.checks['chain']?.status).toBe('up');
  });

  it('runs the market flow on the embedded database, chain and job engine: create, index, bet', async () => {
    const c = running.container;
    const alice = await fundedUser(c, devKey, 'embedded_alice');
    const { duelId } = await c.markets.duels.create(
      testContext(),
      { userId: alice.user.id, builderAppId: alice.builderAppId, address: alice.address },
      {
        question: 'Embedded?',
        category: 'Football',
        startTime: new Date(Date.now() + 60_000).toISOString(),
        endTime: new Date(Date.now() + 3_600_000).toISOString(),
      },
    );
    await until(
      () => c.markets.repo.byDuelId(duelId),
      (d) => d?.chainState === 'confirmed',
    );
    const quote = await c.markets.bets.estimateBuy(
      { userId: alice.user.id, address: alice.address, region: UNRESTRICTED },
      { duelId, optionIndex: 1, betAmountUsdc: (5n * UNIT).toString(), slippageBps: 50 },
    );
    if (!quote.success) throw new Error(quote.message);
    await c.markets.bets.placeBet(
      testContext(),
      { userId: alice.user.id, address: alice.address, region: UNRESTRICTED },
      {
        estimate: quote.estimate,
        duelId,
        bet: 'NO',
        optionIndex: 1,
        betAmount: quote.estimate.amountIn,
        betAmountUsdc: quote.estimate.amountIn,
        slippageBps: 50,
      },
    );
    const duel = await until(
      () => c.markets.repo.byDuelId(duelId),
      (d) => (d?.uniqueParticipants ?? 0) > 0,
    );
    expect(duel?.totalVolume).toBe((5n * UNIT).toString());
  }, 60_000);

  it('logs no job-engine error: concurrent batches of the ORM and the workers do not interleave', () => {
    const failures = warnings.filter((line) => /worker error|job failed|bind message/.test(line));
    expect(failures).toEqual([]);
  });
});
