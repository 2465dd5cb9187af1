import { randomBytes } from 'node:crypto';
import type { LocalAccount } from 'viem';
import { fundedUser, UNIT } from '../../../test/support/market-fixtures.js';
import type { Body } from '../../../test/support/http.js';
import type { TestServer } from '../../../test/support/test-server.js';
import { walletLoginMessage } from '../identity/wallet-credential.js';

export { UNIT };

/** Where the tests' clock starts: 08:00 UTC; the fake calendar kicks off a fixture every even hour. */
export const T0 = Date.UTC(2026, 11, 1, 8);
export const HOUR = 3_600_000;
export const at = (hoursAfterT0: number) => new Date(T0 + hoursAfterT0 * HOUR).toISOString();

/** Test settings of a server that plays tournaments: a small bond and fast limits out of the way. */
export const TOURNAMENT_ENV = {
  TOURNAMENT_BOND_AMOUNT: (10n * UNIT).toString(),
  TOURNAMENT_FIXTURES_PER_STAGE: '2',
  TOURNAMENTS_IP_LIMIT_PER_MIN: '100000',
  RATE_LIMIT_TEAM_PER_MIN: '100000',
};

export interface Player {
  readonly token: string;
  readonly address: `0x${string}`;
  readonly userId: string;
}

export type Call = (
  path: string,
  init?: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> },
) => Promise<{ status: number; body: Body }>;

/** Calls the tournaments host as a builder would. */
export function tournamentsApi(server: () => TestServer): Call {
  return async (path, init = {}) => {
    const headers: Record<string, string> = { 'x-builder-api-key': server().builderKey, ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers['authorization'] = `Bearer ${init.token}`;
    const res = await fetch(`${server().tournamentsUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
}

/** A user with a managed wallet holding `credits` of collateral. */
export async function player(server: TestServer, username: string, credits = 1_000n * UNIT): Promise<Player> {
  const u = await fundedUser(server.container, server.builderKey, username, credits);
  return { token: u.token, address: u.address as `0x${string}`, userId: u.user.id };
}

/** Fresh wallet-credential headers (each is accepted once). */
export async function walletHeaders(account: LocalAccount): Promise<Record<string, string>> {
  const timestamp = String(Date.now());
  return {
    'x-wallet-address': account.address,
    'x-wallet-timestamp': timestamp,
    'x-wallet-signature': await account.signMessage({ message: walletLoginMessage(account.address, timestamp) }),
  };
}

export const newTournamentId = () => randomBytes(12).toString('hex');

/** A paid-create body: a group stage and a final, fixture windows on the test day. */
export function createBody(id: string | undefined, txHash: string | undefined, overrides: Body = {}): Body {
  return {
    name: 'Test cup',
    sport: 'Football',
    format: 'GROUP_KNOCKOUT',
    stakeAsset: 'credits',
    totalStages: 2,
    stages: [
      {
        stageIndex: 1,
        buyinUsdc: (10n * UNIT).toString(),
        multiplier: 1,
        isFinal: false,
        startTime: at(1),
        endTime: at(7),
      },
      { stageIndex: 2, buyinUsdc: '0', multiplier: 2, isFinal: true, startTime: at(7), endTime: at(15) },
    ],
    config: { minEntriesToActivate: 2 },
    ...(id ? { clientTournamentId: id } : {}),
    ...(txHash ? { creatorDepositTxHash: txHash } : {}),
    ...overrides,
  };
}

/** Deposits the creator bond from the player's managed wallet. */
export async function postBond(api: Call, p: Player): Promise<void> {
  const res = await api('/api/tournaments/creator/deposit-bond', { token: p.token, body: { execute: true } });
  if (res.status !== 200 || res.body['recorded'] !== true) throw new Error(`bond: ${JSON.stringify(res.body)}`);
}

/** Deposits through the API from the managed wallet and answers the transaction hash. */
export async function depositFor(api: Call, p: Player, id: string, body: Body = {}): Promise<string> {
  const res = await api(`/api/tournaments/${id}/deposit`, { token: p.token, body: { execute: true, ...body } });
  if (res.status !== 200) throw new Error(`deposit: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body['txHash'] as string;
}

/** The whole paid create of a bonded creator: deposit the stage-1 buy-in, then create. */
export async function paidCreate(api: Call, creator: Player, overrides: Body = {}) {
  const id = newTournamentId();
  const body = createBody(id, undefined, overrides);
  const stage1 = (body['stages'] as Body[]).find((s) => s['stageIndex'] === 1);
  const tx = await depositFor(api, creator, id, {
    stakeAsset: body['stakeAsset'] as unknown,
    amount: stage1?.['buyinUsdc'] as unknown,
  });
  const res = await api('/api/tournaments', { token: creator.token, body: { ...body, creatorDepositTxHash: tx } });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  return { id, tx, body: res.body };
}

/** Deposits the stage-1 buy-in and enters. */
export async function enter(api: Call, p: Player, id: string) {
  const tx = await depositFor(api, p, id);
  const res = await api(`/api/tournaments/${id}/enter`, { token: p.token, body: { depositTxHash: tx } });
  if (res.status !== 200) throw new Error(`enter: ${res.status} ${JSON.stringify(res.body)}`);
  return { tx, body: res.body };
}
