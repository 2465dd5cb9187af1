import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Container } from '../../src/container.js';
import { testContext } from './operation.js';

export const UNIT = 10n ** 18n;

/** A user of the container's first builder app with a session token and funded credits. */
export async function fundedUser(c: Container, builderKey: string, username: string, credits = 1_000n * UNIT) {
  const tenant = await c.builderKeys.resolve(builderKey);
  if (!tenant) throw new Error('unknown builder key');
  const user = await c.identity.users.create({
    builderAppId: tenant.builderAppId,
    eoa: privateKeyToAccount(generatePrivateKey()).address,
    username,
  });
  if (credits > 0n) await c.chain.mint('credits', user.managedAddress as `0x${string}`, credits);
  const session = await c.identity.users.session(user);
  return { user, token: session.token, address: user.managedAddress, builderAppId: tenant.builderAppId };
}

/** Polls until `done` holds: reads are eventually consistent with the chain. */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates a confirmed public market through the service, seeded by `creator`. */
export async function confirmedMarket(
  c: Container,
  creator: { user: { id: string }; address: string; builderAppId: string },
  overrides: { startInMs?: number; endInMs?: number; options?: string[]; collateralStack?: 'usdc' | 'credits' } = {},
) {
  const { duelId } = await c.markets.duels.create(
    testContext(),
    { userId: creator.user.id, builderAppId: creator.builderAppId, address: creator.address },
    {
      question: 'Fixture market',
      category: 'Football',
      startTime: new Date(Date.now() + (overrides.startInMs ?? 3_600_000)).toISOString(),
      endTime: new Date(Date.now() + (overrides.endInMs ?? 7_200_000)).toISOString(),
      ...(overrides.options ? { options: overrides.options } : {}),
      ...(overrides.collateralStack ? { collateralStack: overrides.collateralStack } : {}),
    },
  );
  await until(
    () => c.markets.repo.byDuelId(duelId),
    (d) => d?.chainState === 'confirmed',
  );
  return duelId;
}
