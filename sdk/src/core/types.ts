import type { AppRoute, AppRouteMutation, AppRouter } from '@ts-rest/core';
import type { z } from 'zod';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** What a route takes: `params`, `query` and `body`, each only where the contract has it. */
export type RouteInput<R extends AppRoute> = Simplify<
  (R['pathParams'] extends z.ZodTypeAny ? { params: z.input<R['pathParams']> } : unknown) &
    (R['query'] extends z.ZodTypeAny ? { query: z.input<R['query']> } : unknown) &
    (R extends AppRouteMutation ? (R['body'] extends z.ZodTypeAny ? { body: z.input<R['body']> } : unknown) : unknown)
>;

type SuccessStatus<R extends AppRoute> = Extract<keyof R['responses'], 200 | 201 | 202>;

/** What a route answers on success, as parsed by the contract's schema. */
export type RouteOutput<R extends AppRoute> = R['responses'][SuccessStatus<R>] extends z.ZodTypeAny
  ? z.output<R['responses'][SuccessStatus<R>]>
  : never;

/** Per-call options. */
export interface CallOptions {
  /** Reuse a key you persisted (e.g. after a crash) instead of a new one; never replaced. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Budget for the whole call including retries; a wait that would pass it is not started. */
  timeoutMs?: number;
}

/** What a call knew besides the body. */
export interface ResponseMeta {
  status: number;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  /** The server replayed the stored answer of an earlier call with the same key. */
  replayed: boolean;
  attempts: number;
}

type HasKeys<T> = keyof T extends never ? false : true;

/** A contract route as a typed method; `.withResponse` also returns {@link ResponseMeta}. */
export type RouteMethod<R extends AppRoute> = (HasKeys<RouteInput<R>> extends true
  ? (input: RouteInput<R>, options?: CallOptions) => Promise<RouteOutput<R>>
  : (input?: Record<string, never>, options?: CallOptions) => Promise<RouteOutput<R>>) & {
  withResponse: HasKeys<RouteInput<R>> extends true
    ? (input: RouteInput<R>, options?: CallOptions) => Promise<{ data: RouteOutput<R>; meta: ResponseMeta }>
    : (input?: Record<string, never>, options?: CallOptions) => Promise<{ data: RouteOutput<R>; meta: ResponseMeta }>;
};

/** A contract router as a namespace of methods. */
export type BoundRouter<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteMethod<T[K]> : T[K] extends AppRouter ? BoundRouter<T[K]> : never;
};
