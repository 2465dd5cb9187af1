import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from './support.js';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when it is missing). */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', 'test-results');

type OpenApi = { paths: Record<string, Record<string, { operationId?: string }>> };
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** GET /docs in a real browser: every operation of the host listed, nothing fetched from elsewhere. */
describe('the API reference page', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium`);
    server = await startServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const host of ['markets', 'tournaments'] as const) {
    it(`lists every operation of the ${host} host without a builder key or any outside request`, async () => {
      const origin = host === 'markets' ? server.marketsUrl : server.tournamentsUrl;
      const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as OpenApi;
      const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((method) => METHODS.has(method))
          .map((method) => [method, path] as const),
      );
      expect(operations.length).toBeGreaterThan(10);

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const outside: string[] = [];
      page.on('request', (req) => {
        const url = req.url();
        if (!url.startsWith(origin) && !url.startsWith('data:')) outside.push(url);
      });
      const failed: string[] = [];
      page.on('requestfailed', (req) => failed.push(req.url()));
      const response = await page.goto(`${origin}/docs`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      // The page renders long lists as they scroll into view: walk it top to bottom and collect
      // every operation it shows (method and path).
      const seen = new Set<string>();
      for (let step = 0; step < 2_000; step++) {
        const shown = await page.$$eval('.opblock-summary', (rows) =>
          rows.map(
            (r) =>
              `${r.querySelector('.opblock-summary-method')?.textContent?.toLowerCase() ?? ''} ${
                r.querySelector('[data-path]')?.getAttribute('data-path') ?? ''
              }`,
          ),
        );
        for (const op of shown) seen.add(op);
        const atBottom = await page.evaluate(() => {
          const before = window.scrollY;
          window.scrollBy(0, window.innerHeight * 0.5);
          return window.scrollY === before;
        });
        if (atBottom && step > 0) break;
        // Let the newly visible rows render before reading them.
        await page.evaluate(
          () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 30)))),
        );
      }
      const expected = operations.map(([method, path]) => `${method} ${path}`).sort();
      expect([...seen].sort()).toEqual(expected);
      const guides = await page.$$eval('header nav a', (links) => links.map((a) => a.getAttribute('href')));
      // The builder guides first (their index leads), then the reference pages of docs/.
      expect(guides[0]).toBe('/docs/guides/guides/README.md');
      expect(guides).toContain('/docs/guides/guides/quickstart.md');
      expect(guides).toContain('/docs/guides/sdk.md');
      expect(guides.indexOf('/docs/guides/guides/quickstart.md')).toBeLessThan(guides.indexOf('/docs/guides/sdk.md'));
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(SCREENSHOTS, `reference-${host}.png`) });
      expect(outside).toEqual([]);
      expect(failed).toEqual([]);
      await page.close();

      for (const path of ['/docs/guides/errors.md', '/docs/guides/guides/errors.md']) {
        const guide = await fetch(`${origin}${path}`);
        expect(guide.status).toBe(200);
        expect(guide.headers.get('content-type')).toMatch(/^text\/markdown/);
      }
    }, 60_000);
  }
});
