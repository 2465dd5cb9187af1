import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyBroadcastError } from './viem-tx-node.js';

const nodeSaid = (message: string) =>
  new RpcRequestError({
    body: { method: 'eth_sendRawTransaction' },
    error: { code: -32000, message },
    url: 'http://node',
  });

describe('classifyBroadcastError', () => {
  it('treats a node that already has the transaction as accepted', () => {
    expect(classifyBroadcastError(nodeSaid('already known')).kind).toBe('accepted');
  });

  it('tells a nonce gap (an earlier nonce still on its way) from a used nonce', () => {
    const gap =
      "Nonce too high. Expected nonce to be 5 but got 6. Note that transactions can't be queued when automining.";
    expect(classifyBroadcastError(nodeSaid(gap)).kind).toBe('nonce_gap');
    const low =
      "Nonce too low. Expected nonce to be 7 but got 6. Note that transactions can't be queued when automining.";
    expect(classifyBroadcastError(nodeSaid(low)).kind).toBe('nonce_used');
    expect(classifyBroadcastError(nodeSaid('replacement transaction underpriced')).kind).toBe('nonce_used');
  });

  it('never calls a timeout or a dropped connection a failure: the node may have the bytes', () => {
    expect(classifyBroadcastError(new TimeoutError({ body: {}, url: 'http://node' })).kind).toBe('unknown');
    expect(
      classifyBroadcastError(new HttpRequestError({ url: 'http://node', cause: new Error('socket hang up') })).kind,
    ).toBe('unknown');
    expect(
      classifyBroadcastError(Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNRESET' } })).kind,
    ).toBe('unknown');
  });

  it('reports what the node refused about the transaction itself', () => {
    const refused = classifyBroadcastError(nodeSaid('insufficient funds for gas * price + value'));
    expect(refused).toMatchObject({ kind: 'rejected' });
  });
});
