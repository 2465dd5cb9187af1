import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { generateDocuments, serialise } from './openapi.js';

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/openapi');
const docs = generateDocuments();

describe.each(['markets', 'tournaments'] as const)('docs/openapi/%s.json', (host) => {
  const file = resolve(docsDir, `${host}.json`);

  it('is current: regenerate with `pnpm openapi` when this fails', () => {
    expect(readFileSync(file, 'utf8')).toBe(serialise(docs[host]));
  });

  it('validates as OpenAPI 3', async () => {
    await expect(SwaggerParser.validate(JSON.parse(readFileSync(file, 'utf8')) as never)).resolves.toBeTruthy();
  });

  it.skipIf(Object.keys(docs[host].paths).length === 0)('puts shared shapes in named components', () => {
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('#/components/schemas/ApiError');
    expect(docs[host].components?.securitySchemes).toHaveProperty('builderKey');
  });

  it('lints with no redocly error and no warning (redocly.yaml, .redocly.lint-ignore.yaml)', async () => {
    const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin/redocly');
    const run = promisify(execFile);
    const result = await run(bin, ['lint', file, '--format', 'json'], { cwd: resolve(docsDir, '../..') }).catch(
      (err: { stdout: string }) => ({ stdout: err.stdout }),
    );
    const report = JSON.parse(result.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems
      .filter((p) => p.severity !== 'off')
      .map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('describes every tag with its guide, lists it in one tag group, in reading order', () => {
    const doc = docs[host] as (typeof docs)[typeof host] & { 'x-tagGroups': { name: string; tags: string[] }[] };
    const tags = doc.tags ?? [];
    const used = new Set(
      Object.values(doc.paths)
        .flatMap((item) => Object.values(item as Record<string, { tags: string[] }>))
        .flatMap((op) => op.tags),
    );
    expect(tags.map((t) => t.name).sort()).toEqual([...used].sort());
    for (const tag of tags) {
      expect(tag.description, tag.name).toMatch(/\S.*\.\n\nGuide: `docs\/[a-z-]+\.md`/s);
      const guide = /docs\/([a-z-]+\.md)/.exec(tag.description?.split('Guide:')[1] ?? '')?.[1] ?? '';
      expect(existsSync(resolve(docsDir, '..', guide)), `${tag.name}: docs/${guide}`).toBe(true);
    }
    // Redoc shows only the tags of some group: every tag in exactly one, in the order of `tags`.
    expect(doc['x-tagGroups'].flatMap((g) => g.tags)).toEqual(tags.map((t) => t.name));
  });

  it('gives every operation a summary and a description of who may call it and how it refuses', () => {
    for (const [path, item] of Object.entries(docs[host].paths)) {
      for (const [method, op] of Object.entries(item as Record<string, { summary?: string; description?: string }>)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.summary?.trim(), where).toBeTruthy();
        expect(op.summary, where).not.toContain('\n');
        expect(op.description, where).toContain('**Who may call:**');
        expect(op.description, where).toContain('**Refusals:**');
      }
    }
  });
});
