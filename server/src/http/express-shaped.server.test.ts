import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressShaped } from './express-shaped.server.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A server on `expressShaped`, recording each request's prototype before the app sees it. */
async function serve(adopt: boolean) {
  const app = express();
  app.get('/echo', (req, res) => {
    res.status(201).json({ query: req.query, ip: typeof req.ip, app: req.app === app });
  });
  const shaped = expressShaped();
  if (adopt) shaped.adopt(app);
  const seen: { request: boolean; response: boolean; classes: boolean }[] = [];
  server = createServer({ IncomingMessage: shaped.IncomingMessage, ServerResponse: shaped.ServerResponse });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    seen.push({
      request: Object.getPrototypeOf(req) === app.request,
      response: Object.getPrototypeOf(res) === app.response,
      classes: req instanceof IncomingMessage && res instanceof ServerResponse,
    });
    app(req, res);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('expressShaped', () => {
  it("makes requests and responses with the adopted app's prototypes, which Express then serves unchanged", async () => {
    const { url, seen } = await serve(true);
    const res = await fetch(`${url}/echo?side=yes&n=2`);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ query: { side: 'yes', n: '2' }, ip: 'string', app: true });
    expect(seen).toEqual([{ request: true, response: true, classes: true }]);
  });

  it('makes plain node:http objects until an app is adopted', async () => {
    const { url, seen } = await serve(false);
    const res = await fetch(`${url}/echo`);
    expect(res.status).toBe(201);
    expect(seen).toEqual([{ request: false, response: false, classes: true }]);
  });
});
