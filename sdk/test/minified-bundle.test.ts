import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type * as Sdk from '../src/index.js';
import { health, KEY } from './mock-service.js';

/**
 * The SDK as an application's bundler may ship it: bundled and minified by esbuild, so every class
 * name is renamed. Retries and `instanceof` must not depend on those names.
 */

/** The part of esbuild's API used here. */
interface Esbuild {
  build(options: {
    entryPoints: string[];
    outfile: string;
    bundle: boolean;
    minify: boolean;
    format: 'esm';
    platform: 'node';
    conditions: string[];
    logLevel: 'silent';
  }): Promise<unknown>;
}

// esbuild is tsup's own dependency (tsup builds the SDK): resolved from there, not declared again.
const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup'))('esbuild') as Esbuild;

type Responder = (req: IncomingMessage, res: ServerResponse) => void;

let dir: string;
let sdk: typeof Sdk;
let service: Server;
let url: string;
/** What the service does with each request, in turn (the last one repeats). */
let responders: Responder[] = [];
let requests = 0;

const ok: Responder = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(health));
};
const dropConnection: Responder = (req) => {
  req.socket.destroy();
};
const error =
  (status: number, code: string, headers: Record<string, string> = {}): Responder =>
  (_req, res) => {
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ code, message: code, requestId: `req-${requests}` }));
  };

const client = (options: Partial<Sdk.DuelkitClientOptions> = {}) =>
  new sdk.DuelkitClient({ marketsUrl: url, tournamentsUrl: url, builderApiKey: KEY, ...options });

/** The error a call rejects with (failing the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'duelkit-sdk-minified-'));
  const outfile = join(dir, 'sdk.min.mjs');
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    // The contract from its TypeScript source, as the workspace and the SDK's own build read it.
    conditions: ['duelkit-source', 'module', 'import', 'default'],
    logLevel: 'silent',
  });
  // The bundle really is minified: the class names are gone from it.
  expect(await readFile(outfile, 'utf8')).not.toMatch(/class ConnectionError\b/);
  sdk = (await import(/* @vite-ignore */ pathToFileURL(outfile).href)) as typeof Sdk;

  service = createServer((req, res) => {
    requests += 1;
    const responder = responders[Math.min(requests, responders.length) - 1] ?? ok;
    responder(req, res);
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((r) => (service ? service.close(() => r()) : r()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  requests = 0;
  responders = [];
});

describe('a minified bundle of the SDK', () => {
  it('renames the error classes, yet names its errors as documented', () => {
    expect(sdk.ConnectionError.name).not.toBe('ConnectionError');
    expect(new sdk.ConnectionError('down').name).toBe('ConnectionError');
    expect(new sdk.QuoteRejectedError('X', 'no', undefined, 'k').name).toBe('QuoteRejectedError');
  });

  it('retries a dropped connection and answers from the second attempt', async () => {
    responders = [dropConnection, ok];
    const res = await client().health.parlayHealth.withResponse();
    expect(res.data.status).toBe('ok');
    expect(res.meta.attempts).toBe(2);
    expect(requests).toBe(2);
  });

  it('retries a 503 after its Retry-After', async () => {
    responders = [error(503, 'SERVICE_UNAVAILABLE', { 'Retry-After': '1' }), ok];
    const res = await client().health.parlayHealth.withResponse();
    expect(res.data.status).toBe('ok');
    expect(res.meta.attempts).toBe(2);
    expect(requests).toBe(2);
  });

  it('does not retry a 400, and throws an error its exported classes recognise', async () => {
    responders = [error(400, 'VALIDATION_FAILED')];
    const err = await rejection(client().health.parlayHealth());
    expect(requests).toBe(1);
    expect(err).toBeInstanceOf(sdk.ValidationError);
    expect(err).toBeInstanceOf(sdk.ApiError);
    expect(err).toBeInstanceOf(sdk.DuelkitError);
    expect(err).not.toBeInstanceOf(sdk.ServerError);
    expect(sdk.isApiError(err)).toBe(true);
    expect(sdk.isRetryable(err)).toBe(false);
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', requestId: 'req-1' });
  });

  it('throws a ConnectionError instance when the connection drops on every attempt', async () => {
    responders = [dropConnection];
    const err = await rejection(client({ maxRetries: 1 }).health.parlayHealth());
    expect(requests).toBe(2);
    expect(err).toBeInstanceOf(sdk.ConnectionError);
    expect(err).toBeInstanceOf(sdk.DuelkitError);
    expect(err).not.toBeInstanceOf(sdk.ApiError);
    expect(sdk.isRetryable(err)).toBe(true);
    expect((err as Error).name).toBe('ConnectionError');
  });

  it('throws a ServerError instance once the retries of a 503 run out', async () => {
    responders = [error(503, 'SERVICE_UNAVAILABLE', { 'Retry-After': '0' })];
    const err = await rejection(client({ maxRetries: 1 }).health.parlayHealth());
    expect(requests).toBe(2);
    expect(err).toBeInstanceOf(sdk.ServerError);
    expect(err).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });
});
