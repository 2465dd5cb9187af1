import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@duelkit/sdk';
import { type ServerProcess, UNIT, signedInClient, startServer } from './support.js';

const BOOK = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ PARLAY_BOOK_ADDRESS: BOOK });
}, 120_000);
afterAll(() => server?.stop());

describe('parlays through the SDK', () => {
  it('walks the catalogue, validates legs, and is refused a quote by an empty pool', async () => {
    const { client, address } = await signedInClient(server, 'parlay_e2e');
    const { markets } = await client.parlay.markets();
    const open = markets.filter((m) => m.status === 'open');
    expect(open.length).toBeGreaterThanOrEqual(2);

    const legs = [];
    for (const m of open.slice(0, 2)) {
      const detail = await client.parlay.market({ params: { marketId: m.marketId } });
      const result = detail.conditions.find((c) => c.kind === 'FULL_TIME_RESULT');
      expect(result?.outcomes).toHaveLength(3);
      // The SDK sends the id as the catalogue gives it; a shorter hex would be left-padded by the server.
      legs.push({ conditionId: result!.conditionId, outcomeId: 1 });
    }
    const checked = await client.parlay.validateLegs({ body: { legs } });
    expect(checked.valid).toBe(true);
    expect(checked.combinedOdds).toMatch(/^[1-9][0-9]*\.[0-9]{2,}$/);

    const duplicate = await client.parlay
      .validateLegs({ body: { legs: [legs[0]!, legs[0]!] } })
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(ApiError);
    expect((duplicate as ApiError).code).toBe('LEGS_INVALID');

    // No LP has deposited: the pool cannot carry any payout.
    const refused = await client.parlay
      .quote({ body: { bettor: address, legs, stake: (10n * UNIT).toString() } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('EXPOSURE_LIMIT');

    expect(await client.parlay.nonce({ params: { address } })).toMatchObject({ nonce: '0' });
    const pool = await client.lp.pool();
    expect(pool).toMatchObject({ cash: '0', nav: '0', sharePrice: '1.000000000000000000' });
    const add = await client.lp.addLiquidityQuote({ body: { amount: (100n * UNIT).toString() } });
    expect(add.shares).toBe((100n * UNIT).toString());
    const preview = await client.parlay.feesPreview({ params: { amount: (10n * UNIT).toString() } });
    expect(preview).toMatchObject({ fee: (UNIT / 10n).toString(), netStake: ((99n * UNIT) / 10n).toString() });
  }, 90_000);
});
