import { ManualClock } from '../../src/platform/clock.js';
import { fakeChain } from './chain.fake.js';
import { describeCollateral } from './collateral.behaviour.js';
import { describeMarketLifecycle } from './market-lifecycle.behaviour.js';
import { describeMarketMembership } from './market-membership.behaviour.js';
import { describeMarketTrading } from './market-trading.behaviour.js';

const harness = () => fakeChain(new ManualClock(Date.UTC(2026, 5, 1)));

describeMarketTrading('in-memory fake', harness);
describeMarketLifecycle('in-memory fake', harness);
describeMarketMembership('in-memory fake', harness);
describeCollateral('in-memory fake', harness);
