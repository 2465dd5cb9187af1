import { spawn, type ChildProcess } from 'node:child_process';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuelkitClient, verifyWebhookSignature, type DuelkitEvent, type StreamEvent } from '@duelkit/sdk';
import {
  bet,
  confirmedDuel,
  freePort,
  ROOT,
  type ServerProcess,
  signedInClient,
  startServer,
  UNIT,
  until,
} from './support.js';

let server: ServerProcess;
const children: ChildProcess[] = [];

/**
 * Places a bet, then waits up to 2 s for `done`; again, up to `attempts` bets. A stream subscribes
 * when it connects, so a bet placed before that is not on it: the next one is.
 */
async function betUntil(place: () => Promise<void>, done: () => boolean, attempts = 15): Promise<void> {
  for (let i = 0; i < attempts && !done(); i++) {
    await place();
    for (let j = 0; j < 20 && !done(); j++) await new Promise((r) => setTimeout(r, 100));
  }
  if (!done()) throw new Error(`not done after ${attempts} bets`);
}

beforeAll(async () => {
  server = await startServer({ DUEL_PUBLIC_LEAD_SECONDS: '0', INDEXER_INTERVAL_MS: '200', JOBS_ENABLED: 'true' });
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await server?.stop();
});

/** Runs an example as its own process, as a builder would; its stdout lines and exit code. */
function runExample(file: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=duelkit-source', `examples/${file}`], {
    cwd: ROOT,
    env: {
      ...process.env,
      DUELKIT_BUILDER_KEY: server.builderKey,
      DUELKIT_MARKETS_URL: server.marketsUrl,
      DUELKIT_TOURNAMENTS_URL: server.tournamentsUrl,
      ...env,
    },
  });
  children.push(child);
  const out: string[] = [];
  const err: string[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    out.push(...lines.filter(Boolean));
  });
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  return { out, err, exited, code: () => code };
}

describe('events through the SDK', () => {
  it('client.events.stream sees a bet’s bet.confirmed against the running server', async () => {
    const { client: creator } = await signedInClient(server, 'ev_creator');
    const { client: trader, address } = await signedInClient(server, 'ev_trader');
    const duelId = await confirmedDuel(server, creator, 'Will the event stream deliver?');
    const controller = new AbortController();
    const seen: DuelkitEvent[] = [];
    const reading = (async () => {
      for await (const event of trader.events.stream({
        types: ['bet.confirmed'],
        duelIds: [duelId],
        signal: controller.signal,
      })) {
        seen.push(event);
      }
    })();
    await betUntil(
      () => bet(trader, duelId, 0, 5n),
      () => seen.length > 0,
    );
    controller.abort();
    await reading;
    const [first] = seen;
    expect(first?.type).toBe('bet.confirmed');
    if (first?.type !== 'bet.confirmed') throw new Error('unreachable');
    expect(first.data).toMatchObject({ duelId, trader: address, side: 'buy', optionIndex: 0 });
    expect(BigInt(first.data.collateral)).toBeGreaterThan(0n);
    expect(first.seq).toMatch(/^\d+$/);
  }, 120_000);
});

describe('the user stream through the SDK', () => {
  it('client.events.userStream shows a user their own bet, and another user only its price', async () => {
    const { client: creator } = await signedInClient(server, 'us_creator');
    const { client: trader, address } = await signedInClient(server, 'us_trader');
    const duelId = await confirmedDuel(server, creator, 'Will the user stream tell them apart?');
    const controller = new AbortController();
    const mine: StreamEvent[] = [];
    const theirs: StreamEvent[] = [];
    const read = async (client: DuelkitClient, into: StreamEvent[]) => {
      const options = { types: ['bet.confirmed' as const], duelIds: [duelId], prices: true as const };
      for await (const event of client.events.userStream({ ...options, signal: controller.signal })) into.push(event);
    };
    const reading = Promise.all([read(trader, mine), read(creator, theirs)]);
    await betUntil(
      () => bet(trader, duelId, 0, 5n),
      () => mine.some((e) => e.type === 'bet.confirmed') && theirs.some((e) => e.type === 'price'),
    );
    controller.abort();
    await reading;
    const own = mine.find((e) => e.type === 'bet.confirmed');
    expect(own?.type === 'bet.confirmed' ? own.data.trader : undefined).toBe(address);
    expect(theirs.filter((e) => e.type === 'bet.confirmed')).toEqual([]);
  }, 120_000);
});

describe('examples/price-bot.ts', () => {
  it('buys NO once the price of YES crosses its threshold, then exits', async () => {
    const { client: creator } = await signedInClient(server, 'bot_creator');
    const { client: mover } = await signedInClient(server, 'bot_mover');
    const duelId = await confirmedDuel(server, creator, 'Will the price bot trade?');
    const key = generatePrivateKey();
    const botClient = new DuelkitClient({
      marketsUrl: server.marketsUrl,
      tournamentsUrl: server.tournamentsUrl,
      builderApiKey: server.builderKey,
      signer: privateKeyToAccount(key),
    });
    const session = await botClient.auth.signIn({
      username: `bot_${privateKeyToAccount(key).address.slice(2, 10).toLowerCase()}`,
    });
    const botAddress = session.user?.address as `0x${string}`;
    await server.grantCredits(botAddress, 100n * UNIT);
    const bot = runExample('price-bot.ts', {
      DUELKIT_PRIVATE_KEY: key,
      DUELKIT_DUEL_ID: duelId,
      PRICE_THRESHOLD_BPS: '5300',
    });
    await until(
      async () => bot.err.join(''),
      (text) => text.includes('watching'),
      30_000,
    );
    // Push YES up until the bot has seen a crossing (each bet moves the price), then let it trade.
    await betUntil(
      () => bet(mover, duelId, 0, 20n),
      () => bot.err.join('').includes('crossed') || bot.code() !== undefined,
    );
    await Promise.race([bot.exited, new Promise((r) => setTimeout(r, 90_000))]);
    expect(bot.code(), bot.err.join('')).toBe(0);
    const printed = JSON.parse(bot.out.at(-1) ?? '{}') as {
      duelId: string;
      yesBps: number;
      txHash: string;
      noShares: string;
    };
    expect(printed.duelId).toBe(duelId);
    expect(printed.yesBps).toBeGreaterThanOrEqual(5300);
    expect(printed.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(BigInt(printed.noShares)).toBeGreaterThan(0n);
  }, 180_000);
});

describe('examples/webhook-backend.ts', () => {
  it('verifies signed deliveries and prints each event, refusing a forged one', async () => {
    const { client: admin } = await signedInClient(server, 'wh_builder', 0n);
    const port = await freePort();
    const endpoint = await admin.webhooks.createEndpoint({
      body: { url: `http://127.0.0.1:${port}/hooks`, types: ['webhook.test', 'bet.confirmed'] },
    });
    const backend = runExample('webhook-backend.ts', {
      DUELKIT_WEBHOOK_SECRET: endpoint.secret,
      PORT: String(port),
      EXIT_AFTER: '2',
    });
    await until(
      async () => backend.err.join(''),
      (text) => text.includes('listening'),
      30_000,
    );
    // A forged delivery (signed with another secret) is refused and printed nowhere.
    const body = JSON.stringify({ id: 'forged', type: 'webhook.test' });
    const t = Math.floor(Date.now() / 1000);
    const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'duelkit-signature': `t=${t},v1=${'ab'.repeat(32)}` },
      body,
    });
    expect(forged.status).toBe(400);
    expect(await verifyWebhookSignature(body, `t=${t},v1=${'ab'.repeat(32)}`, endpoint.secret)).toBe(false);

    await admin.webhooks.testEndpoint({ params: { endpointId: endpoint.endpoint.id }, body: {} });
    const { client: creator } = await signedInClient(server, 'wh_creator');
    const { client: trader } = await signedInClient(server, 'wh_trader');
    const duelId = await confirmedDuel(server, creator, 'Will the webhook arrive?');
    await bet(trader, duelId, 1, 5n);
    const code = await Promise.race([
      backend.exited,
      new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000)),
    ]);
    expect(code, backend.err.join('')).toBe(0);
    const printed = backend.out.map((l) => JSON.parse(l) as { verified: boolean; type: string; id: string });
    expect(printed.map((p) => p.type).sort()).toEqual(['bet.confirmed', 'webhook.test']);
    expect(printed.every((p) => p.verified)).toBe(true);
    expect(printed.some((p) => p.id === 'forged')).toBe(false);
  }, 180_000);
});
