import type { Request, RequestHandler } from 'express';
import { validateResponse, type AppRoute } from '@ts-rest/core';

interface ZodDefLike {
  typeName?: string;
  coerce?: boolean;
  unknownKeys?: string;
  effect?: { type?: string };
  [key: string]: unknown;
}

/** Zod types whose parse gives back the value it was given (when it is valid): nothing inside to walk. */
const LEAVES = new Set([
  'ZodString',
  'ZodNumber',
  'ZodBigInt',
  'ZodBoolean',
  'ZodDate',
  'ZodLiteral',
  'ZodEnum',
  'ZodNativeEnum',
  'ZodNull',
  'ZodUndefined',
  'ZodAny',
  'ZodUnknown',
  'ZodNever',
  'ZodVoid',
  'ZodNaN',
  'ZodSymbol',
]);

/** Zod types that only wrap or combine others: they shape an answer when something inside does. */
const WRAPPERS = new Set([
  'ZodOptional',
  'ZodNullable',
  'ZodReadonly',
  'ZodBranded',
  'ZodArray',
  'ZodUnion',
  'ZodDiscriminatedUnion',
  'ZodIntersection',
  'ZodRecord',
  'ZodMap',
  'ZodSet',
  'ZodTuple',
  'ZodLazy',
  'ZodObject',
  'ZodEffects',
]);

function childSchemas(def: ZodDefLike): unknown[] {
  const out: unknown[] = [];
  for (const [key, value] of Object.entries(def)) {
    if (key === 'shape' && typeof value === 'function')
      out.push(...Object.values((value as () => Record<string, unknown>)()));
    else if (key === 'getter' && typeof value === 'function') out.push((value as () => unknown)());
    else if (Array.isArray(value)) out.push(...(value as unknown[]));
    else if (value instanceof Map) out.push(...(Array.from(value.values()) as unknown[]));
    else if (value && typeof value === 'object' && '_def' in value) out.push(value);
  }
  return out;
}

/**
 * Whether parsing a *valid* answer with `schema` can give back something other than that answer:
 * defaults, transforms, coercion, catch, or objects that drop unknown keys. A schema that cannot is
 * only a check, which the tests run on every answer; one that can shapes what callers see, so it
 * runs on every answer wherever the server runs. Unknown zod types count as shaping.
 */
export function shapesAnswers(schema: unknown, seen = new Set<unknown>()): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const def = (schema as { _def?: ZodDefLike })._def;
  if (!def) return false; // not a zod schema: ts-rest answers it as it is (no-body and other responses)
  if (seen.has(schema)) return false;
  seen.add(schema);
  const type = def.typeName ?? '';
  if (def.coerce === true) return true;
  if (LEAVES.has(type)) return false;
  if (!WRAPPERS.has(type)) return true;
  if (type === 'ZodObject' && def.unknownKeys === 'strip') return true;
  if (type === 'ZodEffects' && def.effect?.type !== 'refinement') return true;
  return childSchemas(def).some((child) => shapesAnswers(child, seen));
}

/** Whether any response of `route` shapes its answers (see `shapesAnswers`). */
export function routeShapesAnswers(route: AppRoute): boolean {
  return Object.values(route.responses as Record<string, unknown>).some((schema) => shapesAnswers(schema));
}

/**
 * In `shaping` mode (ts-rest's own response validation off), the answers of routes whose schema
 * shapes them still go through it: an answer that fails is the same logged 500 INTERNAL as with
 * every answer checked. Decided once per route.
 */
export function responseShaping(): RequestHandler {
  const decided = new WeakMap<AppRoute, boolean>();
  return (req, res, next) => {
    const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    if (!route) {
      next();
      return;
    }
    let shapes = decided.get(route);
    if (shapes === undefined) {
      shapes = routeShapesAnswers(route);
      decided.set(route, shapes);
    }
    if (!shapes) {
      next();
      return;
    }
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      // Error answers come from the error middleware, already in their own shape.
      if (res.statusCode >= 400) return json(body);
      return json(validateResponse({ appRoute: route, response: { status: res.statusCode, body } }).body);
    };
    next();
  };
}
