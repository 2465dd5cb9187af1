import type { ZodTypeAny } from 'zod';
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from './openapi-examples.js';
import { generateDocuments } from './openapi.js';
import { contractRoutes } from './spec-coverage.js';

const routes = new Map(contractRoutes().map(({ route }) => [`${route.method} ${route.path}`, route]));
const docs = generateDocuments();

const isZod = (schema: unknown): schema is ZodTypeAny =>
  typeof (schema as { safeParse?: unknown } | undefined)?.safeParse === 'function';

describe.each(Object.entries(EXAMPLES))('examples of %s', (key, examples) => {
  const route = routes.get(key);

  it('name a contract route', () => {
    expect(route, key).toBeDefined();
  });

  it.each((examples.request ?? []).map((e) => [e.name, e] as const))(
    'request %s parses with the body schema',
    (_, e) => {
      const body: unknown = route && 'body' in route ? route.body : undefined;
      expect(isZod(body), `${key} has a zod body`).toBe(true);
      const parsed = (body as ZodTypeAny).safeParse(e.value);
      expect(parsed.error?.issues ?? [], e.name).toEqual([]);
    },
  );

  const responses = Object.entries(examples.responses ?? {}).flatMap(([status, list]) =>
    list.map((e) => [`${status} ${e.name}`, status, e] as const),
  );
  it.each(responses)('response %s parses with its status schema', (_, status, e) => {
    const schema: unknown = (route?.responses as Record<string, unknown> | undefined)?.[status];
    expect(isZod(schema), `${key} declares ${status} with a zod schema`).toBe(true);
    const parsed = (schema as ZodTypeAny).safeParse(e.value);
    expect(parsed.error?.issues ?? [], e.name).toEqual([]);
  });

  it('reach the document of the route’s host', () => {
    const [method = '', path = ''] = key.split(' ');
    const op = Object.values(docs)
      .map(
        (doc) =>
          (doc.paths[path.replace(/:(\w+)/g, '{$1}')] as Record<string, unknown> | undefined)?.[method.toLowerCase()],
      )
      .find(Boolean);
    const text = JSON.stringify(op);
    for (const e of [...(examples.request ?? []), ...Object.values(examples.responses ?? {}).flat()]) {
      expect(text, e.name).toContain(JSON.stringify(e.name));
    }
  });
});

describe('example values', () => {
  const text = JSON.stringify(EXAMPLES);

  it('use addresses of 20 bytes, ids and hashes of 32 bytes and 65-byte signatures', () => {
    for (const hex of text.match(/0x[0-9a-fA-F]+/g) ?? []) expect([42, 66, 132], hex).toContain(hex.length);
  });

  it('write amounts as base-unit decimal strings of 18 decimals (at least 1e15 when not zero)', () => {
    for (const amount of text.match(/"\d{10,}"/g) ?? []) expect(amount.length - 2, amount).toBeGreaterThanOrEqual(16);
  });
});
