import { systemClock, type Clock } from '../../src/platform/clock.js';
import { operationContext, type OperationContext } from '../../src/platform/operation-context.js';

/** A fresh operation context for a service called directly by a test: no idempotent run. */
export function testContext(clock: Clock = systemClock): OperationContext {
  return operationContext({ requestId: 'test', clock });
}
