import { marketsApi, type Body } from '../../../test/support/http.js';
import { fundedUser, UNIT, until } from '../../../test/support/market-fixtures.js';
import type { TestServer } from '../../../test/support/test-server.js';

export { chainNow, travelPast } from '../../../test/support/test-server.js';

export { UNIT, until };
export type { Body };

/** The environment of pack tests: markets that start at once, resolve without a contest period. */
export const PACK_TEST_ENV = {
  DUEL_PUBLIC_LEAD_SECONDS: '0',
  DUEL_PRIVATE_LEAD_SECONDS: '0',
  DUEL_CONTEST_PERIOD_SECONDS: '0',
  INDEXER_INTERVAL_MS: '200',
  JOBS_ENABLED: 'true',
  PACK_FEE_BPS: '500',
} as const;

export const FEE = 10n * UNIT;

export type Api = ReturnType<typeof marketsApi>;

/** A signed-in user with funded credits, as the HTTP tests call the API. */
export async function packUser(server: TestServer, username: string, credits = 1_000n * UNIT) {
  const u = await fundedUser(server.container, server.builderKey, username, credits);
  return { ...u, address: u.address as `0x${string}` };
}

/** An admin bearer token (a fresh admin logged in over HTTP). */
export async function adminToken(server: TestServer, api: Api): Promise<string> {
  const email = `packs-${Math.random().toString(36).slice(2)}@example.com`;
  await server.container.identity.admins.create(email, 'pack admin password');
  const login = await api('/svc/admin/auth/login', { body: { email, password: 'pack admin password' } });
  return login.body['token'] as string;
}

/** A new market request for a pack, trading from `startInMs` to `endInMs` after `now`. */
export function newMarket(question: string, now: number, startInMs: number, endInMs: number) {
  return {
    source: 'new' as const,
    market: {
      question,
      startTime: new Date(now + startInMs).toISOString(),
      endTime: new Date(now + endInMs).toISOString(),
    },
  };
}

/** A draft pack of `creator` with `markets`, published once the chain confirmed them. */
export async function publishedPack(
  api: Api,
  creator: { token: string },
  opts: { lockAt: number; markets: ReturnType<typeof newMarket>[]; title?: string },
) {
  const created = await api('/svc/packs/creator/packs', {
    token: creator.token,
    body: {
      title: opts.title ?? 'Weekend pack',
      category: 'Football',
      entryFee: FEE.toString(),
      lockAt: new Date(opts.lockAt).toISOString(),
    },
  });
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.body)}`);
  const packId = created.body['id'] as string;
  const marketIds: string[] = [];
  for (const m of opts.markets) {
    const added = await api(`/svc/packs/creator/packs/${packId}/markets`, { token: creator.token, body: m });
    if (added.status !== 201) throw new Error(`add market: ${JSON.stringify(added.body)}`);
    marketIds.push((added.body['market'] as Body)['marketId'] as string);
  }
  const published = await until(
    () => api(`/svc/packs/creator/packs/${packId}/publish`, { token: creator.token, body: {} }),
    (r) => r.status === 200,
  );
  return { packId, marketIds, pack: published.body };
}

/** Enters `user` and waits until the deposit is verified. */
export async function enterConfirmed(api: Api, packId: string, user: { token: string }) {
  const entered = await api(`/svc/packs/${packId}/enter`, { token: user.token, body: {} });
  if (entered.status !== 201) throw new Error(`enter: ${JSON.stringify(entered.body)}`);
  await until(
    () => api(`/svc/packs/${packId}/me`, { token: user.token }),
    (r) => (r.body['entry'] as Body | null)?.['status'] === 'confirmed',
  );
  return entered.body;
}
