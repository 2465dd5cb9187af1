import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger.js';

describe('logger', () => {
  it('never writes builder keys, bearer tokens or provider tokens', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logger = createLogger('info', sink);
    logger.info({
      req: { headers: { authorization: 'Bearer secret-jwt', 'x-builder-api-key': 'dk_secret', cookie: 'a=b' } },
      upstream: { api_token: 'provider-secret' },
    });
    const out = lines.join('');
    expect(out).not.toMatch(/secret-jwt|dk_secret|provider-secret|a=b/);
    expect(out).toMatch(/REDACTED/);
  });

  it('redacts secret query parameters from URLs', () => {
    expect(redactUrl('/x?api_token=abc&page=2&API_TOKEN=def')).toBe(
      '/x?api_token=[REDACTED]&page=2&API_TOKEN=[REDACTED]',
    );
  });
});
