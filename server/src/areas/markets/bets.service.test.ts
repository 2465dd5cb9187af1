import type { BuyEstimate } from '@duelkit/contract';
import { describe, expect, it } from 'vitest';
import { idempotentRun, MarketWorld, type FakeUser } from '../../../test/fakes/market-world.js';
import { UNIT } from '../../../test/fakes/chain-harness.js';
import { UNRESTRICTED } from '../../platform/geo/region.js';
import { DuplicateWriteNameError } from '../../platform/operation.context.js';
import { Quoter } from './bet-quotes.js';
import { BetsService } from './bets.service.js';
import type { Duel } from './duel.entity.js';
import { buy } from './fpmm.math.js';
import { QuoteSigner } from './quote-signer.js';

const QUOTE_TTL_SECONDS = 30;

function setup(opts: { userBetLimit?: bigint; openExposure?: bigint } = {}) {
  const world = new MarketWorld();
  const bets = new BetsService({
    trading: world.chain.trading,
    collateral: world.chain.collateral,
    duels: world.duels,
    repo: {
      positionsOf: () => Promise.resolve([]),
      openExposure: () => Promise.resolve(opts.openExposure ?? 0n),
    },
    access: world.access,
    signers: world.signers,
    quoter: new Quoter(new QuoteSigner('unit-test-secret'), QUOTE_TTL_SECONDS, world.clock),
    settings: { userBetLimit: opts.userBetLimit ?? 0n },
    clock: world.clock,
  });
  return { world, bets };
}

const trader = (u: FakeUser) => ({ userId: u.userId, address: u.address, region: UNRESTRICTED });

async function quote(bets: BetsService, u: FakeUser, duel: Duel, amount: bigint, slippageBps = 100) {
  const answer = await bets.estimateBuy(trader(u), {
    duelId: duel.duelId,
    optionIndex: 0,
    betAmountUsdc: amount.toString(),
    slippageBps,
  });
  if (!answer.success) throw new Error(`estimate rejected: ${answer.code}`);
  return answer.estimate;
}

const placing = (duel: Duel, estimate: BuyEstimate) => ({
  estimate,
  duelId: duel.duelId,
  bet: duel.options[estimate.optionIndex] ?? '',
  optionIndex: estimate.optionIndex,
  betAmount: estimate.amountIn,
  betAmountUsdc: estimate.amountIn,
  slippageBps: estimate.slippageBps,
});

describe('BetsService', () => {
  it('places a bet at the quoted price: the pool and the shares move exactly as the FPMM math says', async () => {
    const { world, bets } = setup();
    const creator = await world.user('creator');
    const alice = await world.user('alice', 50n);
    const duel = await world.market(creator, { feeBps: 200 });
    const estimate = await quote(bets, alice, duel, 20n * UNIT);
    const expected = buy([100n * UNIT, 100n * UNIT], 0, 20n * UNIT, 200n);
    expect(estimate.sharesOut).toBe(expected.sharesOut.toString());

    const placed = await bets.placeBet(world.context(), trader(alice), placing(duel, estimate));

    expect(placed).toMatchObject({ success: true, expectedSharesOut: expected.sharesOut.toString() });
    expect(await world.chain.trading.sharesOf(duel.duelId as `0x${string}`, alice.account.address, 0)).toBe(
      expected.sharesOut,
    );
    expect(await world.chain.trading.poolBalances(duel.duelId as `0x${string}`)).toEqual(expected.balancesAfter);
    expect(await world.chain.collateral.collateralBalance('credits', alice.account.address)).toBe(30n * UNIT);
  });

  it('rejects an estimate below the 5-unit minimum with BET_BELOW_MINIMUM', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'));
    const alice = await world.user('alice', 10n);
    const answer = await bets.estimateBuy(trader(alice), {
      duelId: duel.duelId,
      optionIndex: 0,
      betAmountUsdc: (5n * UNIT - 1n).toString(),
      slippageBps: 100,
    });
    expect(answer).toMatchObject({ success: false, code: 'BET_BELOW_MINIMUM' });
  });

  it('refuses a bet whose price moved past its slippage floor with SLIPPAGE_EXCEEDED, sending nothing', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'));
    const alice = await world.user('alice', 20n);
    const bob = await world.user('bob', 50n);
    const estimate = await quote(bets, alice, duel, 10n * UNIT, 10);
    // Bob buys the same side first: Alice's 10 units now buy fewer shares than her floor.
    await bets.placeBet(world.context(), trader(bob), placing(duel, await quote(bets, bob, duel, 40n * UNIT)));
    const writes = world.chain.state.writes;

    await expect(bets.placeBet(world.context(), trader(alice), placing(duel, estimate))).rejects.toMatchObject({
      code: 'SLIPPAGE_EXCEEDED',
    });
    expect(world.chain.state.writes).toBe(writes);
    expect(await world.chain.collateral.collateralBalance('credits', alice.account.address)).toBe(20n * UNIT);
  });

  it('refuses a bet over the user bet limit with BET_LIMIT_EXCEEDED, and rejects its estimate', async () => {
    const { world, bets } = setup({ userBetLimit: 50n * UNIT, openExposure: 45n * UNIT });
    const duel = await world.market(await world.user('creator'));
    const alice = await world.user('alice', 20n);
    const answer = await bets.estimateBuy(trader(alice), {
      duelId: duel.duelId,
      optionIndex: 0,
      betAmountUsdc: (10n * UNIT).toString(),
      slippageBps: 100,
    });
    expect(answer).toMatchObject({
      success: false,
      code: 'BET_LIMIT_EXCEEDED',
      details: { remaining: `${5n * UNIT}` },
    });
    expect(await bets.userBetLimit(alice.address)).toEqual({
      address: alice.address,
      limit: (50n * UNIT).toString(),
      used: (45n * UNIT).toString(),
      remaining: (5n * UNIT).toString(),
    });
  });

  it('refuses an estimate handed back after its time to live with QUOTE_EXPIRED', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'));
    const alice = await world.user('alice', 20n);
    const estimate = await quote(bets, alice, duel, 10n * UNIT);
    world.clock.advance(QUOTE_TTL_SECONDS * 1000);
    await expect(bets.placeBet(world.context(), trader(alice), placing(duel, estimate))).rejects.toMatchObject({
      code: 'QUOTE_EXPIRED',
    });
  });

  it('stops trading at the end time: an estimate after it is MARKET_NOT_TRADABLE', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'), { endsIn: 3_600 });
    const alice = await world.user('alice', 20n);
    world.clock.advance(3_600 * 1000);
    const answer = await bets.estimateBuy(trader(alice), {
      duelId: duel.duelId,
      optionIndex: 0,
      betAmountUsdc: (10n * UNIT).toString(),
      slippageBps: 100,
    });
    expect(answer).toMatchObject({ success: false, code: 'MARKET_NOT_TRADABLE' });
    expect((await bets.sellUnlockLiquidity(undefined, duel.duelId)).sellable).toBe(false);
  });

  it('refuses a bet the managed wallet cannot cover with INSUFFICIENT_CREDITS', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'));
    const alice = await world.user('alice', 5n);
    const estimate = await quote(bets, alice, duel, 8n * UNIT);
    await expect(bets.placeBet(world.context(), trader(alice), placing(duel, estimate))).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
    });
  });

  it('reads the pools and the wallet’s funds together when placing, so the node gets them in one request', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'));
    const alice = await world.user('alice', 50n);
    const estimate = await quote(bets, alice, duel, 20n * UNIT);
    const steps: string[] = [];
    const yieldTurns = async () => {
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    };
    const { trading, collateral } = world.chain;
    const pools = trading.poolBalances.bind(trading);
    const funds = collateral.collateralBalance.bind(collateral);
    trading.poolBalances = async (id) => {
      steps.push('pools asked');
      await yieldTurns();
      steps.push('pools answered');
      return pools(id);
    };
    collateral.collateralBalance = async (stack, owner) => {
      steps.push('funds asked');
      await yieldTurns();
      steps.push('funds answered');
      return funds(stack, owner);
    };

    await bets.placeBet(world.context(), trader(alice), placing(duel, estimate));

    expect(steps.slice(0, 2).sort()).toEqual(['funds asked', 'pools asked']);
  });

  it('keeps a private market to its members: a stranger is refused with PRIVATE_MARKET', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'), { isPrivate: true });
    const stranger = await world.user('stranger', 20n);
    await expect(
      bets.estimateBuy(trader(stranger), {
        duelId: duel.duelId,
        optionIndex: 0,
        betAmountUsdc: (10n * UNIT).toString(),
        slippageBps: 100,
      }),
    ).rejects.toMatchObject({ code: 'PRIVATE_MARKET' });
  });

  it('names its buy once: a resumed request finds the first write, a second buy in one operation is a bug', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'));
    const alice = await world.user('alice', 40n);
    // A tight floor: the resumed request sees the pool its own first buy moved, and still answers it.
    const estimate = await quote(bets, alice, duel, 10n * UNIT, 10);
    const first = await bets.placeBet(world.context(idempotentRun('rec-1')), trader(alice), placing(duel, estimate));
    const resumed = await bets.placeBet(
      world.context(idempotentRun('rec-1', true)),
      trader(alice),
      placing(duel, estimate),
    );
    expect(resumed.txHash).toBe(first.txHash);
    expect(await world.chain.collateral.collateralBalance('credits', alice.account.address)).toBe(30n * UNIT);

    const ctx = world.context();
    await bets.placeBet(ctx, trader(alice), placing(duel, await quote(bets, alice, duel, 10n * UNIT)));
    const again = await quote(bets, alice, duel, 10n * UNIT, 2_000);
    await expect(bets.placeBet(ctx, trader(alice), placing(duel, again))).rejects.toBeInstanceOf(
      DuplicateWriteNameError,
    );
  });

  it('sells only shares held (INSUFFICIENT_SHARES) and pays the return the pool releases', async () => {
    const { world, bets } = setup();
    const duel = await world.market(await world.user('creator'));
    const alice = await world.user('alice', 30n);
    await bets.placeBet(world.context(), trader(alice), placing(duel, await quote(bets, alice, duel, 30n * UNIT)));
    const held = await world.chain.trading.sharesOf(duel.duelId as `0x${string}`, alice.account.address, 0);
    const tooMany = await bets.estimateSell(trader(alice), {
      duelId: duel.duelId,
      optionIndex: 0,
      shares: (held + 1n).toString(),
      slippageBps: 100,
    });
    expect(tooMany).toMatchObject({ success: false, code: 'INSUFFICIENT_SHARES' });

    const answer = await bets.estimateSell(trader(alice), {
      duelId: duel.duelId,
      optionIndex: 0,
      shares: held.toString(),
      slippageBps: 100,
    });
    if (!answer.success) throw new Error(answer.code);
    const { estimate } = answer;
    const sold = await bets.sell(world.context(), trader(alice), {
      estimate,
      duelId: duel.duelId,
      optionIndex: 0,
      shares: estimate.shares,
      slippageBps: estimate.slippageBps,
    });
    expect(await world.chain.collateral.collateralBalance('credits', alice.account.address)).toBe(
      BigInt(sold.expectedAmountOut),
    );
    expect(BigInt(sold.expectedAmountOut)).toBeGreaterThan(25n * UNIT);
  });
});
