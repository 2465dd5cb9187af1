import type { AppRoute } from '@ts-rest/core';
import type { z } from 'zod';
import type { PagePromise } from '../core/types.js';
import type { RouteArgs } from './request.js';

/** How a route pages, read from its contract schemas. */
export interface PaginationSpec {
  /** `page`: `page` + `limit`; `offset`: `offset` + `limit`. */
  readonly style: 'page' | 'offset';
  /** Where the paging parameters go. */
  readonly location: 'query' | 'body';
  /** The field of the answer that holds the page's items. */
  readonly items: string;
}

const WRAPPERS = new Set([
  'ZodOptional',
  'ZodNullable',
  'ZodDefault',
  'ZodEffects',
  'ZodBranded',
  'ZodReadonly',
  'ZodCatch',
]);

/** The object schema under optional/default/refinement wrappers, if there is one. */
function objectShape(schema: unknown): Record<string, z.ZodTypeAny> | undefined {
  let current = schema as z.ZodTypeAny | undefined;
  for (let depth = 0; current && depth < 10; depth++) {
    const def = current._def as {
      typeName?: string;
      innerType?: z.ZodTypeAny;
      schema?: z.ZodTypeAny;
      type?: z.ZodTypeAny;
    };
    if (def.typeName === 'ZodObject') return (current as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
    if (!def.typeName || !WRAPPERS.has(def.typeName)) return undefined;
    current = def.innerType ?? def.schema ?? def.type;
  }
  return undefined;
}

function isArraySchema(schema: z.ZodTypeAny | undefined): boolean {
  let current = schema;
  while (current && (current._def as { typeName?: string }).typeName !== 'ZodArray') {
    const def = current._def as { typeName?: string; innerType?: z.ZodTypeAny };
    if (!def.typeName || !WRAPPERS.has(def.typeName) || !def.innerType) return false;
    current = def.innerType;
  }
  return current !== undefined;
}

/**
 * A route is paginated when its query (or, for a POST, its body) takes `page` + `limit` or
 * `offset` + `limit` and its success answer is an object with an array of items: `data` when it
 * is one, else its only array field.
 */
export function paginationOf(route: AppRoute): PaginationSpec | undefined {
  const location = route.method === 'GET' ? 'query' : 'body';
  const input = objectShape(location === 'query' ? route.query : (route as { body?: unknown }).body);
  if (!input || !('limit' in input)) return undefined;
  const style = 'page' in input ? 'page' : 'offset' in input ? 'offset' : undefined;
  if (!style) return undefined;
  const status = Object.keys(route.responses).find((s) => s.startsWith('2'));
  const output = objectShape(status === undefined ? undefined : (route.responses as Record<string, unknown>)[status]);
  if (!output) return undefined;
  const arrays = Object.keys(output).filter((k) => isArraySchema(output[k]));
  const items = arrays.includes('data') ? 'data' : arrays.length === 1 ? arrays[0] : undefined;
  return items === undefined ? undefined : { style, location, items };
}

function num(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** The arguments of the page after `page`, or undefined when `page` was the last. */
export function nextPageArgs(spec: PaginationSpec, args: RouteArgs, page: unknown): RouteArgs | undefined {
  const answer = (page ?? {}) as Record<string, unknown>;
  const items = answer[spec.items];
  if (!Array.isArray(items) || items.length === 0) return undefined;
  const params = ((spec.location === 'query' ? args.query : args.body) ?? {}) as Record<string, unknown>;
  const meta = (answer['pagination'] ?? answer) as Record<string, unknown>;
  const limit = num(params['limit']) ?? num(meta['limit']);
  const total = num(meta['total']);
  let next: Record<string, unknown>;
  if (spec.style === 'page') {
    const current = num(meta['page']) ?? num(params['page']) ?? 1;
    if (meta['hasMore'] === false) return undefined;
    if (meta['hasMore'] !== true) {
      if (total !== undefined && limit !== undefined && current * limit >= total) return undefined;
      if (limit !== undefined && items.length < limit) return undefined;
    }
    next = { ...params, page: current + 1 };
  } else {
    const offset = num(params['offset']) ?? num(meta['offset']) ?? 0;
    if (meta['hasMore'] === false) return undefined;
    if (meta['hasMore'] !== true) {
      if (total !== undefined && offset + items.length >= total) return undefined;
      if (limit !== undefined && items.length < limit) return undefined;
    }
    next = { ...params, offset: offset + items.length };
  }
  return spec.location === 'query' ? { ...args, query: next } : { ...args, body: next };
}

/** Makes the first page's promise iterable over every page's items. */
export function pagePromise<Page, Item>(
  first: Promise<Page>,
  spec: PaginationSpec,
  args: RouteArgs,
  fetchPage: (args: RouteArgs) => Promise<Page>,
): PagePromise<Page, Item> {
  async function* pages(): AsyncGenerator<Page> {
    let current = args;
    let page = await first;
    for (;;) {
      yield page;
      const next = nextPageArgs(spec, current, page);
      if (!next) return;
      current = next;
      page = await fetchPage(current);
    }
  }
  async function* items(): AsyncGenerator<Item> {
    for await (const page of pages()) {
      yield* (page as Record<string, unknown>)[spec.items] as Item[];
    }
  }
  return Object.assign(first, {
    pages: () => ({ [Symbol.asyncIterator]: pages }),
    [Symbol.asyncIterator]: items,
  });
}
