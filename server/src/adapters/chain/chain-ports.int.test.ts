import { entities } from '../../entities.js';
import { afterAll, beforeAll } from 'vitest';
import { chainConfig, chainStores } from '../../../test/support/chain.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { keyedAccount, type ChainHarness } from '../../../test/fakes/chain-harness.js';
import { describeCollateral } from '../../../test/fakes/collateral.behaviour.js';
import { describeMarketLifecycle } from '../../../test/fakes/market-lifecycle.behaviour.js';
import { describeMarketMembership } from '../../../test/fakes/market-membership.behaviour.js';
import { describeMarketTrading } from '../../../test/fakes/market-trading.behaviour.js';
import { createLogger } from '../../logger.js';
import { initOrm, type Orm } from '../../platform/db/orm.js';
import { systemClock } from '../../platform/clock.js';
import { ViemChainAdapter } from './viem-chain.adapter.js';

// The behaviour suites the in-memory fakes pass (test/fakes/*.fake.test.ts), run against the viem
// adapter on the embedded EVM: a fake that drifts from the contract fails one of the two.
let db: TestDatabase;
let orm: Orm;
let chain: ViemChainAdapter;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm(entities, db.url, 3, false);
  chain = await ViemChainAdapter.connect(chainConfig(), createLogger('silent'), chainStores(orm));
});

afterAll(async () => {
  await chain.close();
  await orm.close(true);
  await db.drop();
});

const harness = (): ChainHarness => ({
  reads: chain,
  collateral: chain,
  trading: chain,
  lifecycle: chain,
  membership: chain,
  // The embedded chain keeps wall time.
  chainTime: () => Math.floor(systemClock.now() / 1000),
  newAccount: keyedAccount,
});

describeMarketTrading('viem adapter on the embedded EVM', harness);
describeMarketLifecycle('viem adapter on the embedded EVM', harness);
describeMarketMembership('viem adapter on the embedded EVM', harness);
describeCollateral('viem adapter on the embedded EVM', harness);
