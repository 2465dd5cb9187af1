import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with `eth_sendRawTransaction` (or with `method`, when given):
 * - `pass`: forwards it;
 * - `delay`: holds it `ms` before forwarding, then answers with the node's reply;
 * - `drop-before`: closes the client's connection without forwarding (the node never sees it);
 * - `drop-after`: forwards it, then closes the client's connection instead of answering;
 * - `error-after`: forwards it, then answers a JSON-RPC error instead of the node's reply (a node
 *   or gateway that executed the transaction but reported a failure);
 * - `hook`: forwards it, then calls `hookUrl` (POST, the node's reply as body) and answers once
 *   the hook answered — the test acts at the exact moment the chain has the transaction.
 * - `chaos`: per transaction, with the probabilities of `chaos` drawn from a generator seeded with
 *   `chaos.seed` (the same seed, the same sequence of faults): `drop-before`, `drop-after`, or
 *   `delay` by up to `chaos.maxDelayMs`; otherwise `pass`.
 * `times` limits the mode to that many transactions, then it returns to `then` (default `pass`). `method` applies
 * the mode to another JSON-RPC method instead (e.g. `eth_estimateGas`, which a write calls after
 * it is reserved and before it is signed), leaving sends alone. `stall` names other methods whose
 * calls are held, unanswered, until a mode without them is set (a node that accepts connections
 * and never answers).
 */
export interface SendRawMode {
  readonly mode: 'pass' | 'delay' | 'drop-before' | 'drop-after' | 'error-after' | 'hook' | 'chaos';
  readonly ms?: number;
  readonly hookUrl?: string;
  readonly times?: number;
  readonly method?: string;
  readonly chaos?: ChaosOdds;
  readonly stall?: readonly string[];
  /** The mode once `times` ran out (a chaos mode keeps its generator where it was). */
  readonly then?: SendRawMode;
}

/** Probabilities (0–1) of each fault per send in `chaos` mode. */
export interface ChaosOdds {
  readonly seed: number;
  readonly dropBefore: number;
  readonly dropAfter: number;
  readonly delay: number;
  readonly maxDelayMs: number;
}

export interface RpcProxyStats {
  /** eth_sendRawTransaction calls seen, and how many reached the node. */
  sendRaw: number;
  forwarded: number;
  /** Faults applied in `chaos` mode. */
  droppedBefore: number;
  droppedAfter: number;
  delayed: number;
}

/** mulberry32: a small seeded generator, so a chaos run's faults repeat with its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A JSON-RPC proxy in front of a chain node that can delay or drop `eth_sendRawTransaction`, the
 * way a slow or flaky RPC provider does. `POST /__proxy` with a SendRawMode changes its mode;
 * `GET /__proxy` answers its stats. Everything else is forwarded unchanged.
 */
export async function startRpcProxy(upstream: string, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  let mode: SendRawMode = { mode: 'pass' };
  let random: () => number = Math.random;
  let released: () => void = () => undefined;
  let modeChanged = new Promise<void>((resolve) => (released = resolve));
  const stalled = (text: string) => (mode.stall ?? []).some((m) => text.includes(`"${m}"`));
  const stats: RpcProxyStats = { sendRaw: 0, forwarded: 0, droppedBefore: 0, droppedAfter: 0, delayed: 0 };
  const forward = async (path: string, method: string, payload: Buffer | undefined) => {
    const res = await fetch(`${upstream}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(payload ? { body: payload.toString('utf8') } : {}),
    });
    return { status: res.status, text: await res.text() };
  };
  const reply = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (url === '/__proxy') {
      if (req.method === 'POST') {
        mode = JSON.parse((await body(req)).toString('utf8')) as SendRawMode;
        if (mode.chaos) random = seeded(mode.chaos.seed);
        released();
        modeChanged = new Promise<void>((resolve) => (released = resolve));
      }
      reply(res, 200, JSON.stringify({ mode, stats }));
      return;
    }
    if (req.method !== 'POST') {
      const up = await forward(url, req.method ?? 'GET', undefined);
      reply(res, up.status, up.text);
      return;
    }
    const payload = await body(req);
    const text = payload.toString('utf8');
    while (stalled(text)) await modeChanged;
    const isSend = text.includes('"eth_sendRawTransaction"');
    const targeted = text.includes(`"${mode.method ?? 'eth_sendRawTransaction'}"`);
    if (isSend) stats.sendRaw++;
    if (!targeted) {
      if (isSend) stats.forwarded++;
      const up = await forward(url, 'POST', payload);
      reply(res, up.status, up.text);
      return;
    }
    let current = mode;
    if (current.times !== undefined) {
      mode = current.times > 1 ? { ...current, times: current.times - 1 } : (current.then ?? { mode: 'pass' });
    }
    if (current.mode === 'chaos' && current.chaos) {
      const odds = current.chaos;
      const roll = random();
      const delayMs = Math.floor(random() * odds.maxDelayMs);
      if (roll < odds.dropBefore) current = { mode: 'drop-before' };
      else if (roll < odds.dropBefore + odds.dropAfter) current = { mode: 'drop-after' };
      else if (roll < odds.dropBefore + odds.dropAfter + odds.delay) current = { mode: 'delay', ms: delayMs };
      else current = { mode: 'pass' };
      if (current.mode === 'drop-before') stats.droppedBefore++;
      if (current.mode === 'drop-after') stats.droppedAfter++;
      if (current.mode === 'delay') stats.delayed++;
    }
    if (current.mode === 'drop-before') {
      req.socket.destroy();
      return;
    }
    if (current.mode === 'delay') await new Promise((r) => setTimeout(r, current.ms ?? 15_000));
    if (isSend) stats.forwarded++;
    const up = await forward(url, 'POST', payload);
    if (current.mode === 'drop-after') {
      req.socket.destroy();
      return;
    }
    if (current.mode === 'error-after') {
      const id = (JSON.parse(text) as { id?: unknown }).id ?? null;
      reply(res, 200, JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'internal error' } }));
      return;
    }
    if (current.mode === 'hook' && current.hookUrl) {
      await fetch(current.hookUrl, { method: 'POST', body: up.text }).catch(() => undefined);
    }
    reply(res, up.status, up.text);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Changes the mode of a proxy running in another process. */
export async function setSendRawMode(proxyUrl: string, mode: SendRawMode): Promise<void> {
  const res = await fetch(`${proxyUrl}/__proxy`, { method: 'POST', body: JSON.stringify(mode) });
  if (!res.ok) throw new Error(`proxy answered ${res.status}`);
}

export async function proxyStats(proxyUrl: string): Promise<RpcProxyStats> {
  const res = await fetch(`${proxyUrl}/__proxy`);
  return ((await res.json()) as { stats: RpcProxyStats }).stats;
}
