import type { AppRoute, AppRouteMutation } from '@ts-rest/core';
import type { z } from 'zod';

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

/** Per-request options; each one left out takes the client's value. */
export interface RequestOptions {
  /** Reuse a key you persisted (after a crash, say) instead of a new one. Sent on every non-GET; never replaced. */
  idempotencyKey?: string;
  /** Cancels the call, including a wait between retries (`AbortError`). */
  signal?: AbortSignal;
  /** Budget of each attempt in ms (client default 30 s). */
  timeoutMs?: number;
  /** Budget of the whole call in ms, attempts and waits between them included (client default 120 s). */
  totalTimeoutMs?: number;
  /** Retries after the first attempt (client default 2). */
  maxRetries?: number;
  /** Extra headers, sent last; `null` removes one the SDK would send. */
  headers?: Record<string, string | null>;
  /** Admin token for this call (admin routes), instead of the client's `adminToken`. */
  adminToken?: string;
  /** User token for this call, instead of the signed-in session's; a 401 then is not followed by a re-sign-in. */
  accessToken?: string;
}

/** What a call knew besides the body. */
export interface ResponseMeta {
  status: number;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  /** The server replayed the stored answer of an earlier call with the same key. */
  replayed: boolean;
  /** Attempts made, the successful one included (a re-sign-in resend is not counted). */
  attempts: number;
}

/**
 * The first page of a paginated route, awaitable as usual, and async-iterable over the items of
 * every page: the next page is requested when the current one is used up.
 */
export type PagePromise<Page, Item> = Promise<Page> &
  AsyncIterable<Item> & {
    /** Every page, from the one requested. */
    pages(): AsyncIterable<Page>;
  };

type HasKeys<T> = keyof T extends never ? false : true;
type Args<R extends AppRoute> =
  HasKeys<RouteInput<R>> extends true ? [input: RouteInput<R>] : [input?: Record<string, never>];

interface WithResponse<R extends AppRoute> {
  /** The same call, answering the parsed body and {@link ResponseMeta}. */
  withResponse(...args: [...Args<R>, options?: RequestOptions]): Promise<{ data: RouteOutput<R>; meta: ResponseMeta }>;
}

/** A contract route as a typed method. */
export type RouteMethod<R extends AppRoute> = ((
  ...args: [...Args<R>, options?: RequestOptions]
) => Promise<RouteOutput<R>>) &
  WithResponse<R>;

/** A paginated contract route: `items` names the array of each page. */
export type PaginatedRouteMethod<R extends AppRoute, Items extends keyof RouteOutput<R>> = ((
  ...args: [...Args<R>, options?: RequestOptions]
) => PagePromise<RouteOutput<R>, RouteOutput<R>[Items] extends readonly (infer I)[] ? I : never>) &
  WithResponse<R>;
