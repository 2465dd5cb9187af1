import { pino } from 'pino';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

// From the server's built `dist/` (harness.ts `buildServer`), as production runs it.
const dist = new URL('../../dist/', import.meta.url);
const { loadConfig } = (await import(new URL('config.js', dist).href)) as typeof import('../../src/config.js');
const { startDuelkit } = (await import(new URL('server.js', dist).href)) as typeof import('../../src/server.js');
const { createLogger } = (await import(new URL('logger.js', dist).href)) as typeof import('../../src/logger.js');
const { jobContext } = (await import(
  new URL('platform/operation.context.js', dist).href
)) as typeof import('../../src/platform/operation.context.js');

// The full stack against DATABASE_URL with the embedded EVM, plus what the trading benches need:
// funded users with tokens and one confirmed market.
const key = 'dk_bench_key_0123456789abcdef';
const config = loadConfig({
  ...process.env,
  PORT: '0',
  TOURNAMENTS_PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  DUELKIT_DEV_BUILDER_KEY: key,
  RATE_LIMIT_TEAM_PER_MIN: '100000000',
  CHAIN_EMBEDDED_RPC_PORT: '0',
  OPERATOR_PORT: 'off',
  // Answers checked as production checks them (docs/kernel.md, "Response validation").
  RESPONSE_VALIDATION: process.env['RESPONSE_VALIDATION'] ?? 'shaping',
  DUEL_PUBLIC_LEAD_SECONDS: '0',
  USER_BET_LIMIT: '0',
  INDEXER_INTERVAL_MS: '200',
});
const logger = createLogger('info', pino.destination('/dev/null'));
const running = await startDuelkit(config, { logger });
const c = running.container;
const users = Number(process.env['BENCH_USERS'] ?? 0);
const sessions: { token: string; address: string }[] = [];
let duelId: string | undefined;
let creator: { id: string; managedAddress: string } | undefined;
if (users > 0) {
  const tenant = await c.builderKeys.resolve(key);
  if (!tenant) throw new Error('no bench key');
  for (let i = 0; i < users; i++) {
    const user = await c.identity.users.create({
      builderAppId: tenant.builderAppId,
      eoa: privateKeyToAccount(generatePrivateKey()).address,
      username: `bench_${i}`,
    });
    await c.chain.mint('credits', user.managedAddress as `0x${string}`, 10n ** 27n);
    creator ??= user;
    const session = await c.identity.users.session(user);
    sessions.push({ token: session.token, address: user.managedAddress });
  }
  if (!creator) throw new Error('no creator');
  const created = await c.markets.duels.create(
    jobContext(c.clock, 'bench-setup'),
    { userId: creator.id, builderAppId: tenant.builderAppId, address: creator.managedAddress },
    {
      question: 'Bench market',
      category: 'Football',
      startTime: new Date(Date.now() + 3_600_000).toISOString(),
      endTime: new Date(Date.now() + 7_200_000).toISOString(),
      initialLiquidity: (10n ** 24n).toString(),
    },
  );
  duelId = created.duelId;
  for (;;) {
    const duel = await c.markets.repo.byDuelId(duelId);
    if (duel?.chainState === 'confirmed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
}
process.stdout.write(`${JSON.stringify({ url: running.marketsUrl, key, sessions, duelId })}\n`);
process.on('SIGTERM', () => {
  void running.stop().then(() => process.exit(0));
});
