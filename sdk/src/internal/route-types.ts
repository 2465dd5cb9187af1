import type { AppRoute, AppRouteMutation } from '@ts-rest/core';
import type { z } from 'zod';

// The types the contract's zod schemas infer, as this SDK reads them. The published declarations
// do not use these (they are generated as plain interfaces into `api.generated.ts`); the SDK's
// tests compare the two so the generated ones cannot drift from the contract.

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;
type WidenEnum<T> = [T] extends [never]
  ? never
  : string extends T
    ? T
    : true extends IsUnion<T>
      ? T | (string & {})
      : T;

/**
 * A response type as this SDK reads it: every enum (a union of two or more string literals)
 * also admits values a newer service may send, so a new status or kind never breaks an older
 * client. Single literals stay exact, so discriminated unions still narrow.
 */
export type Lenient<T> =
  | WidenEnum<Extract<T, string>>
  | (Exclude<T, string> extends infer O
      ? O extends readonly (infer E)[]
        ? Lenient<E>[]
        : O extends Date | Blob | ((...args: never[]) => unknown)
          ? O
          : O extends object
            ? { [K in keyof O]: Lenient<O[K]> }
            : O
      : never);

/** What a route takes: `params`, `query` and `body`, each only where the contract has it. */
export type RouteInput<R extends AppRoute> = Simplify<
  (R['pathParams'] extends z.ZodTypeAny ? { params: z.input<R['pathParams']> } : unknown) &
    (R['query'] extends z.ZodTypeAny ? { query: z.input<R['query']> } : unknown) &
    (R extends AppRouteMutation ? (R['body'] extends z.ZodTypeAny ? { body: z.input<R['body']> } : unknown) : unknown)
>;

type SuccessStatus<R extends AppRoute> = Extract<keyof R['responses'], 200 | 201 | 202>;

/** What a route answers on success, read leniently (see {@link Lenient}). */
export type RouteOutput<R extends AppRoute> = R['responses'][SuccessStatus<R>] extends z.ZodTypeAny
  ? Lenient<z.output<R['responses'][SuccessStatus<R>]>>
  : never;
