import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installJsonResponder } from './json-response.js';

/** The same routes on two apps: Express's own `res.json`, and the installed responder. */
function appWith(responder: boolean): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (responder) installJsonResponder(app);
  app.get('/object', (_req, res) => res.json({ id: 1, name: 'Zürich 🏁', amount: '1000000000000000000' }));
  app.get('/created', (_req, res) => res.status(201).json({ id: 2 }));
  app.get('/refused', (_req, res) => res.status(404).json({ code: 'NOT_FOUND', message: 'no such duel' }));
  app.get('/typed', (_req, res) => res.type('application/problem+json').json({ title: 'typed' }));
  app.get('/nothing', (_req, res) => res.json(undefined));
  app.get('/no-content', (_req, res) => res.status(204).json({ dropped: true }));
  app.get('/long', (_req, res) => res.json({ items: Array.from({ length: 200 }, (_, i) => `ünïcode-${i}`) }));
  app.get('/null', (_req, res) => res.json(null));
  return app;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function fetchRaw(server: Server, path: string, method = 'GET', headers: Record<string, string> = {}) {
  const { port } = server.address() as AddressInfo;
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: rest, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

let plain: Server;
let fast: Server;

beforeAll(async () => {
  plain = appWith(false).listen(0, '127.0.0.1');
  fast = appWith(true).listen(0, '127.0.0.1');
  await Promise.all([plain, fast].map((s) => new Promise((r) => s.once('listening', r))));
});

afterAll(async () => {
  await Promise.all([plain, fast].map((s) => new Promise((r) => s.close(r))));
});

describe('installJsonResponder', () => {
  const cases: [string, string, Record<string, string>][] = [
    ['a JSON object', '/object', {}],
    ['a 201', '/created', {}],
    ['an error answer', '/refused', {}],
    ['a Content-Type set by the handler', '/typed', {}],
    ['an undefined body', '/nothing', {}],
    ['a 204 with a body given', '/no-content', {}],
    ['a long body of multi-byte characters', '/long', {}],
    ['null', '/null', {}],
    ['a conditional request Express answers 304', '/object', { 'if-none-match': '*' }],
    ['a conditional request by date', '/object', { 'if-modified-since': 'Sat, 05 Dec 2026 00:00:00 GMT' }],
  ];
  it.each(cases)('answers %s exactly as Express does', async (_name, path, headers) => {
    const [expected, actual] = await Promise.all([
      fetchRaw(plain, path, 'GET', headers),
      fetchRaw(fast, path, 'GET', headers),
    ]);
    expect(actual).toEqual(expected);
  });

  it('answers HEAD exactly as Express does', async () => {
    const [expected, actual] = await Promise.all([
      fetchRaw(plain, '/object', 'HEAD'),
      fetchRaw(fast, '/object', 'HEAD'),
    ]);
    expect(actual).toEqual(expected);
    expect(actual.body).toBe('');
  });

  it('sends the body with its byte length and the JSON type', async () => {
    const answer = await fetchRaw(fast, '/object');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).toEqual({ id: 1, name: 'Zürich 🏁', amount: '1000000000000000000' });
  });

  it('refuses an app whose JSON settings it would not honour', () => {
    const app = express();
    app.set('etag', false);
    app.set('json spaces', 2);
    expect(() => installJsonResponder(app)).toThrow(/json spaces/);
    expect(() => installJsonResponder(express())).toThrow(/etag/);
  });
});
