import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuoteRejectedError, toBaseUnits } from '@duelkit/sdk';
import { confirmedDuel, signedInClient, startServer, type ServerProcess } from './support.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ DUEL_PUBLIC_LEAD_SECONDS: '0', INDEXER_INTERVAL_MS: '200', JOBS_ENABLED: 'true' });
}, 120_000);
afterAll(() => server?.stop());

describe('trade.buy through the SDK', () => {
  it('quotes, places and waits for a bet in one call, and refuses a stake below the minimum', async () => {
    const { client: creator } = await signedInClient(server, 'tr_creator');
    const { client: trader, address } = await signedInClient(server, 'tr_trader');
    const duelId = await confirmedDuel(server, creator, 'Will trade.buy place a bet?');

    const placed = await trader.trade.buy({ duelId, option: 'YES', amount: '12.5', maxSlippageBps: 100 });
    expect(placed.managedAddress.toLowerCase()).toBe(address.toLowerCase());
    expect(placed.estimate.amountIn).toBe(toBaseUnits('12.5').toString());
    expect(placed.bet.chainState).toBe('pending');
    const position = await placed.wait({ timeoutMs: 30_000, intervalMs: 200 });
    expect(position.label).toBe('YES');
    expect(BigInt(position.shares)).toBeGreaterThanOrEqual(BigInt(placed.bet.minSharesOut));
    expect(await server.sharesOf(duelId, address, 0)).toBe(BigInt(position.shares));

    const refused = await trader.trade.buy({ duelId, option: 1, amount: '1' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QuoteRejectedError);
    expect((refused as QuoteRejectedError).code).toBe('BET_BELOW_MINIMUM');
  });
});
