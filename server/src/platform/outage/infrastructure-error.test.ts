import { ContractFunctionExecutionError, ContractFunctionRevertedError, HttpRequestError, TimeoutError } from 'viem';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { classifyInfrastructureError, OUTAGE_RETRY_AFTER_MS } from './infrastructure-error.js';

const socketError = (code: string) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect', errno: -111 });

describe('classifyInfrastructureError', () => {
  it.each([
    ['a refused connection of the pg driver', socketError('ECONNREFUSED')],
    ['a reset connection', socketError('ECONNRESET')],
    ['a lost server connection', new Error('Connection terminated unexpectedly')],
    [
      'the pool waiting too long for a connection',
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
        name: 'KnexTimeoutError',
      }),
    ],
    ['the server shutting down', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['a connection exception', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['too many connections', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['a timed-out connection', socketError('ETIMEDOUT')],
  ])('turns %s into a retryable DATABASE_UNAVAILABLE', (_what, err) => {
    const out = classifyInfrastructureError(err);
    expect(out?.code).toBe('DATABASE_UNAVAILABLE');
    expect(out?.retryAfterMs).toBe(OUTAGE_RETRY_AFTER_MS);
    expect(out?.cause).toBe(err);
  });

  it('turns an unreachable or slow chain node into CHAIN_UNAVAILABLE, also inside a contract call', () => {
    const http = new HttpRequestError({ url: 'http://127.0.0.1:8545', details: 'fetch failed' });
    expect(classifyInfrastructureError(http)?.code).toBe('CHAIN_UNAVAILABLE');
    const wrapped = new ContractFunctionExecutionError(http, { abi: [], functionName: 'balanceOf' });
    expect(classifyInfrastructureError(wrapped)?.code).toBe('CHAIN_UNAVAILABLE');
    const slow = new TimeoutError({ body: {}, url: 'http://127.0.0.1:8545' });
    expect(classifyInfrastructureError(slow)?.code).toBe('CHAIN_UNAVAILABLE');
  });

  it('turns Redis being unreachable, or another unreachable upstream, into SERVICE_UNAVAILABLE', () => {
    const redis = new Error("Stream isn't writeable and enableOfflineQueue options is false");
    expect(classifyInfrastructureError(redis)?.code).toBe('SERVICE_UNAVAILABLE');
    const s3 = Object.assign(socketError('ECONNREFUSED'), { $metadata: { attempts: 3 } });
    expect(classifyInfrastructureError(s3)?.code).toBe('SERVICE_UNAVAILABLE');
    const fetchFailed = new TypeError('fetch failed', { cause: socketError('ECONNREFUSED') });
    expect(classifyInfrastructureError(fetchFailed)?.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('leaves everything else alone: bugs, reverts and domain errors', () => {
    expect(classifyInfrastructureError(new TypeError('x is undefined'))).toBeNull();
    expect(classifyInfrastructureError(new DomainError('NOT_FOUND', 'no'))).toBeNull();
    expect(classifyInfrastructureError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
    const reverted = new ContractFunctionRevertedError({ abi: [], functionName: 'buy', message: 'reverted' });
    expect(classifyInfrastructureError(reverted)).toBeNull();
    expect(classifyInfrastructureError('a string')).toBeNull();
  });
});
