import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { TestServer } from './test-server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answer fields
export type Body = Record<string, any>;

/** Calls the markets host as a builder would: JSON in and out, the builder key, an optional token. */
export function marketsApi(server: () => TestServer) {
  return async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const headers: Record<string, string> = { 'x-builder-api-key': server().builderKey };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers['authorization'] = `Bearer ${init.token}`;
    const res = await fetch(`${server().marketsUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
}

/** Registers a fresh wallet through Sign-In with Ethereum; the register answer's status and body. */
export async function signUpWallet(api: ReturnType<typeof marketsApi>, username: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  const challenge = await api('/svc/user/auth/eoa/challenge', { body: { address: account.address } });
  const message = challenge.body['message'] as string;
  const signature = await account.signMessage({ message });
  return api('/svc/user/auth/eoa/register', { body: { message, signature, username } });
}

/** A duel as the public read answers it, from a server in its own process (the fields tests poll). */
export async function publicDuel(instance: { marketsUrl: string; builderKey: string }, duelId: string) {
  const res = await fetch(`${instance.marketsUrl}/svc/public/duels/get-duel-by-id/${duelId}`, {
    headers: { 'x-builder-api-key': instance.builderKey },
  });
  return (await res.json()) as { chainState?: string; totalVolume?: string; uniqueParticipants?: number };
}

/** Serves `handler` (an Express app) on a free loopback port: its URL, and how to stop it. */
export async function serveOnLoopback(handler: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
