import { afterAll, describe, expect, it } from 'vitest';
import { startChainNode } from '../../../test/support/chain-node.js';
import { marketCreator, outageHarness, readyState } from '../../../test/support/outage-harness.js';

const { close, onClose, proxyTo, serverProcess, behindProxy } = outageHarness();
afterAll(close);

describe('chain node outages', () => {
  it('chain node down: 503 CHAIN_UNAVAILABLE with Retry-After, readiness degraded, recovery without restart', async () => {
    const node = await startChainNode();
    onClose(() => node.stop());
    const proxy = await proxyTo(Number(new URL(node.rpcUrl).port));
    const { server, key } = await serverProcess(await behindProxy(node, proxy));
    const { api, token, market } = await marketCreator(server.marketsUrl, key, 'chain_outage', 'Chain outage?');

    await proxy.cut();
    const refused = await api('/svc/user/duels/create', { body: market, token });
    expect(refused.status).toBe(503);
    expect(refused.body['code']).toBe('CHAIN_UNAVAILABLE');
    const degraded = await readyState(server.marketsUrl, 'degraded');
    expect(degraded.httpStatus).toBe(200);
    expect(degraded.body.checks['chain']?.status).toBe('down');
    // Reads from the database keep working.
    expect((await api('/svc/public/duels/all')).status).toBe(200);

    await proxy.restore();
    await readyState(server.marketsUrl, 'ready');
    // The chain answers again: the unfunded creator is refused for a reason the chain gave.
    const answered = await api('/svc/user/duels/create', { body: market, token });
    expect(answered.body['code']).toBe('INSUFFICIENT_CREDITS');
  }, 180_000);

  it('chain node down at start: the instance comes up degraded and serves, and reaches the chain once the node answers as the recorded one', async () => {
    const node = await startChainNode();
    onClose(() => node.stop());
    const proxy = await proxyTo(Number(new URL(node.rpcUrl).port));
    const env = await behindProxy(node, proxy);
    // A first start records the chain's identity in the database.
    const first = await serverProcess(env);
    await readyState(first.server.marketsUrl, 'ready');
    expect(await first.server.stop('SIGTERM')).toBe(0);

    await proxy.cut();
    // The builder key the first start registered.
    const { server, key } = await serverProcess({ ...env, DUELKIT_DEV_BUILDER_KEY: first.key });
    expect(key).toBe(first.key);
    expect(server.lines.some((l) => l.includes('chain node unreachable at start'))).toBe(true);
    const degraded = await readyState(server.marketsUrl, 'degraded');
    expect(degraded.httpStatus).toBe(200);
    expect(degraded.body.checks['chain']?.status).toBe('down');
    expect(degraded.body.checks['chainIdentity']?.status).toBe('up');
    const { api, token, market } = await marketCreator(
      server.marketsUrl,
      key,
      'chain_away_at_start',
      'Chain away at start?',
    );
    const refused = await api('/svc/user/duels/create', { body: market, token });
    expect(refused.status).toBe(503);
    expect(refused.body['code']).toBe('CHAIN_UNAVAILABLE');
    expect((await api('/svc/public/duels/all')).status).toBe(200);

    await proxy.restore();
    await readyState(server.marketsUrl, 'ready');
    expect(server.lines.some((l) => l.includes('chain node verified'))).toBe(true);
    // The chain answers: the unfunded creator is refused for a reason the chain gave.
    const answered = await api('/svc/user/duels/create', { body: market, token });
    expect(answered.body['code']).toBe('INSUFFICIENT_CREDITS');
    expect(server.child.exitCode).toBeNull();
  }, 180_000);

  it('chain node replaced by another chain during an outage: chain calls stay refused, and readiness fails on the chain identity', async () => {
    const [node, other] = await Promise.all([startChainNode(), startChainNode()]);
    onClose(
      () => node.stop(),
      () => other.stop(),
    );
    const proxy = await proxyTo(Number(new URL(node.rpcUrl).port));
    const { server, key } = await serverProcess(await behindProxy(node, proxy));
    await readyState(server.marketsUrl, 'ready');
    const { api, token, market } = await marketCreator(server.marketsUrl, key, 'chain_replaced', 'Chain replaced?');

    await proxy.cut();
    await readyState(server.marketsUrl, 'degraded');
    expect(server.lines.some((l) => l.includes('chain node connection lost'))).toBe(true);
    // Behind the same address, a node of another chain answers.
    proxy.retarget({ host: '127.0.0.1', port: Number(new URL(other.rpcUrl).port) });
    await proxy.restore();

    const refused = await readyState(server.marketsUrl, 'not_ready');
    expect(refused.httpStatus).toBe(503);
    expect(refused.body.checks['chainIdentity']).toMatchObject({
      status: 'down',
      error: expect.stringContaining('this database belongs to a chain reached over CHAIN_RPC_URL'),
    });
    expect(server.lines.some((l) => l.includes('chain node answers as another chain'))).toBe(true);
    const write = await api('/svc/user/duels/create', { body: market, token });
    expect(write.status).toBe(503);
    expect(write.body['code']).toBe('CHAIN_UNAVAILABLE');
    // Reads from the database are still answered.
    expect((await api('/svc/public/duels/all')).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 180_000);

  it('chain node down at a first start: the start is refused, since the chain it would record is unknown', async () => {
    const node = await startChainNode();
    onClose(() => node.stop());
    const proxy = await proxyTo(Number(new URL(node.rpcUrl).port));
    await proxy.cut();
    const failed = await serverProcess(await behindProxy(node, proxy)).then(
      () => null,
      (err: unknown) => err,
    );
    expect(String(failed)).toContain('did not start');
  }, 120_000);
});
