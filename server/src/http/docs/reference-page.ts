import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import { documentHeaders } from '../middleware/security-headers.js';

/** A page of docs/ (or of docs/guides/), served as Markdown beside the reference. */
interface Guide {
  /** Its path under docs/, which is also its path under /docs/guides/: `guides/quickstart.md`, `errors.md`. */
  readonly file: string;
  readonly title: string;
}

/** The Swagger UI files the page uses, from the `swagger-ui-dist` package (no CDN: works offline). */
const ASSETS = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'favicon-16x16.png'] as const;

function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/**
 * The pages: docs/ copied beside the built output by `pnpm build` (dist/guides, with docs/guides/
 * in dist/guides/guides), or the repository's docs/ when running from source. Each one's title is
 * its first heading.
 */
function guidesDir(): string | undefined {
  const built = fileURLToPath(new URL('../../guides/', import.meta.url));
  const source = fileURLToPath(new URL('../../../../docs/', import.meta.url));
  return [built, source].find((dir) => existsSync(dir));
}

/**
 * The Markdown pages of `dir`: its README first, then in the order the README links them (the
 * guides' index is written in reading order), then the rest by name.
 */
function readPages(dir: string, prefix: string): Guide[] {
  if (!existsSync(dir)) return [];
  const index = existsSync(join(dir, 'README.md')) ? readFileSync(join(dir, 'README.md'), 'utf8') : '';
  const rank = (file: string) => {
    if (file === 'README.md') return -1;
    const at = index.indexOf(`](${file})`);
    return at === -1 ? Number.MAX_SAFE_INTEGER : at;
  };
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((file) => {
      const heading = /^#\s+(.+)$/m.exec(readFileSync(join(dir, file), 'utf8'));
      return { file: `${prefix}${file}`, title: heading?.[1]?.trim() ?? file };
    });
}

/**
 * The builder guides of docs/guides/ (their index first), then the reference pages of docs/. Each
 * is served under /docs/guides/ at its path below docs/, so the relative links between them work
 * as they do in the repository (`../errors.md` from a guide, `guides/quickstart.md` from a page).
 */
function readGuides(dir: string | undefined): { guides: Guide[]; reference: Guide[] } {
  if (!dir) return { guides: [], reference: [] };
  return { guides: readPages(join(dir, 'guides'), 'guides/'), reference: readPages(dir, '') };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(host: string, pages: { guides: readonly Guide[]; reference: readonly Guide[] }): string {
  const links = (list: readonly Guide[]) =>
    list
      .map(
        (g) =>
          `<a href="/docs/guides/${g.file.split('/').map(encodeURIComponent).join('/')}">${escapeHtml(g.title)}</a>`,
      )
      .join(' · ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Duelkit API reference — ${escapeHtml(host)} host</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; }
  header { padding: 12px 20px; border-bottom: 1px solid #ddd; background: #fafafa; }
  header h1 { font-size: 18px; margin: 0 0 6px; }
  header nav { font-size: 13px; line-height: 1.7; }
  header nav + nav { margin-top: 4px; }
</style>
</head>
<body>
<header>
  <h1>Duelkit API reference — ${escapeHtml(host)} host</h1>
  <nav aria-label="Guides">Guides: ${links(pages.guides)}</nav>
  <nav aria-label="Reference pages">Reference: ${links(pages.reference)} · <a href="/openapi.json">OpenAPI document</a></nav>
</header>
<main id="reference"></main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
}

/** Starts Swagger UI on this host's document; a separate file, so the page needs no inline script. */
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  displayOperationId: true,
  docExpansion: 'list',
  tryItOutEnabled: false,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/**
 * GET /docs: an interactive reference of this host's OpenAPI document (Swagger UI, served from
 * the package, nothing from a CDN), with the builder guides of docs/guides/ linked first, then
 * the pages of docs/, all served as Markdown under /docs/guides/. Public like /openapi.json: no builder key needed to read it.
 * Mounted at `/docs` (its paths below are relative to it), so no other request walks its routes.
 */
export function referencePage(host: 'markets' | 'tournaments'): Router {
  const router = Router();
  const assets = swaggerUiDir();
  const dir = guidesDir();
  const pages = readGuides(dir);
  const html = page(host, pages);
  // Pages, not data: helmet's document headers replace the API's (its script and style policy).
  router.use(documentHeaders());
  router.get('/', (_req, res) => {
    res.type('html').send(html);
  });
  router.get('/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  for (const asset of ASSETS) {
    router.get(`/assets/${asset}`, (_req, res) => {
      res.sendFile(join(assets, asset), { maxAge: '1d' });
    });
  }
  for (const guide of [...pages.guides, ...pages.reference]) {
    const text = dir ? readFileSync(join(dir, guide.file), 'utf8') : '';
    router.get(`/guides/${guide.file}`, (_req, res) => {
      res.type('text/markdown; charset=utf-8').send(text);
    });
  }
  return router;
}
