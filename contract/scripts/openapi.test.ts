import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

  it('has no redocly lint errors', async () => {
    const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin/redocly');
    const run = promisify(execFile);
    const result = await run(bin, ['lint', file, '--format', 'json'], { cwd: resolve(docsDir, '../..') }).catch(
      (err: { stdout: string }) => ({ stdout: err.stdout }),
    );
    const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: unknown[] };
    expect(report.problems.filter((p) => (p as { severity: string }).severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);
});
