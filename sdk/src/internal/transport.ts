import type { AppRoute } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { enforcedAuth, routeMeta } from '@duelkit/contract';
import {
  AbortError,
  ApiError,
  ConnectionError,
  isRetryable,
  ResponseValidationError,
  TimeoutError,
  type DuelkitError,
} from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { RequestOptions, ResponseMeta } from '../core/types.js';
import { newIdempotencyKey } from './idempotency.js';
import { lenient } from './lenient.js';
import { bodyOf, urlOf, type RouteArgs } from './request.js';
import { anySignal, sleep } from './signals.js';

/** How the transport gets and renews a user token; provided by the auth session. */
export interface TokenSource {
  token(): Promise<string | null>;
  /** The current session's token if it is still valid, without signing in. */
  peek(): Promise<string | null>;
  /** Signs in again after a 401; false when it cannot (no signer). */
  reauthenticate(): Promise<boolean>;
}

/** The client-wide settings every request starts from. */
export interface TransportConfig {
  readonly fetch: typeof fetch;
  readonly builderApiKey: string;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly totalTimeoutMs: number;
  /** A longer Retry-After is not waited for: the error is thrown at once. */
  readonly maxRetryAfterMs: number;
  readonly logger: Logger;
  readonly userAgent: string | undefined;
  readonly headers: Readonly<Record<string, string | null>>;
  readonly adminToken: string | undefined;
  readonly tokens: TokenSource | undefined;
}

const AUTH_CODES = new Set(['TOKEN_EXPIRED', 'TOKEN_INVALID', 'TOKEN_REVOKED', 'UNAUTHENTICATED']);
const USER_AUTH = new Set(['bearer', 'optional-bearer', 'jwt-or-wallet']);

/** Backoff before retry `attempt` (1-based): 0.5 s doubling, at most 8 s, with jitter in [50 %, 100 %]. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(8_000, 500 * 2 ** (attempt - 1));
  return Math.round(base * (0.5 + random() * 0.5));
}

type Attempt = { error: DuelkitError } | { data: unknown; meta: Omit<ResponseMeta, 'attempts'> };

/**
 * Sends contract routes: builder key, credentials, User-Agent, an Idempotency-Key on every
 * non-GET (one per logical call, the same on every retry and re-sign-in), retries of what
 * {@link isRetryable} allows within the call's budget, one re-sign-in on 401, and the success
 * body read leniently by the contract's schema.
 */
export class Transport {
  constructor(readonly config: TransportConfig) {}

  async call<T>(
    base: string,
    route: AppRoute,
    args: RouteArgs = {},
    options: RequestOptions = {},
  ): Promise<{ data: T; meta: ResponseMeta }> {
    const auth = enforcedAuth(routeMeta(route));
    const extraHeaders = { ...this.config.headers, ...options.headers };
    const idempotencyKey =
      route.method === 'GET'
        ? undefined
        : (options.idempotencyKey ?? headerValue(extraHeaders, 'idempotency-key') ?? newIdempotencyKey());
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const deadline = Date.now() + (options.totalTimeoutMs ?? this.config.totalTimeoutMs);
    const canReauthenticate = USER_AUTH.has(auth) && options.accessToken === undefined;
    let retries = 0;
    let reauthenticated = false;
    for (;;) {
      if (options.signal?.aborted) {
        throw new AbortError('The request was aborted', { cause: options.signal.reason, idempotencyKey });
      }
      const token = await this.credential(auth, options);
      const attempt = await this.send(base, route, args, {
        token,
        idempotencyKey,
        extraHeaders,
        signal: options.signal,
        timeoutMs: Math.max(1, Math.min(options.timeoutMs ?? this.config.timeoutMs, deadline - Date.now())),
      });
      if ('data' in attempt) return { data: attempt.data as T, meta: { ...attempt.meta, attempts: retries + 1 } };
      const error = attempt.error;
      if (
        error instanceof ApiError &&
        error.status === 401 &&
        canReauthenticate &&
        !reauthenticated &&
        AUTH_CODES.has(error.code) &&
        this.config.tokens &&
        (await this.config.tokens.reauthenticate())
      ) {
        // A fresh sign-in and one resend; this is not a retry.
        reauthenticated = true;
        continue;
      }
      error.idempotencyKey ??= idempotencyKey;
      if (!isRetryable(error) || !mayResend(route, error) || retries >= maxRetries) throw error;
      const asked = error instanceof ApiError ? error.retryAfterMs : undefined;
      if (asked !== undefined && asked > this.config.maxRetryAfterMs) throw error;
      const wait = asked ?? backoffMs(retries + 1);
      if (Date.now() + wait >= deadline) throw error;
      retries += 1;
      this.config.logger.info('retrying', {
        method: route.method,
        path: route.path,
        status: error instanceof ApiError ? error.status : error.name,
        code: error instanceof ApiError ? error.code : undefined,
        waitMs: wait,
        retry: retries,
      });
      await sleep(wait, options.signal).catch((err: unknown) => {
        if (err instanceof AbortError) err.idempotencyKey ??= idempotencyKey;
        throw err;
      });
    }
  }

  /**
   * The token a route takes. Routes the spec lists as public carry the session's token when
   * there is a valid one (members see their private markets) but never start a sign-in.
   */
  private async credential(auth: string, options: RequestOptions): Promise<string | null> {
    // The challenge of a two-factor login is passed like an admin token (`adminToken`).
    if (auth === 'admin' || auth === 'admin-challenge') return options.adminToken ?? this.config.adminToken ?? null;
    if (options.accessToken !== undefined) return options.accessToken;
    const tokens = this.config.tokens;
    if (!tokens) return null;
    if (USER_AUTH.has(auth)) return tokens.token();
    if (auth === 'public') return tokens.peek();
    return null;
  }

  private async send(
    base: string,
    route: AppRoute,
    args: RouteArgs,
    ctx: {
      token: string | null;
      idempotencyKey: string | undefined;
      extraHeaders: Record<string, string | null>;
      signal: AbortSignal | undefined;
      timeoutMs: number;
    },
  ): Promise<Attempt> {
    const { payload, contentType } = bodyOf(route, args.body);
    const headers = new Headers({ accept: 'application/json', 'x-builder-api-key': this.config.builderApiKey });
    if (contentType) headers.set('content-type', contentType);
    if (ctx.token) headers.set('authorization', `Bearer ${ctx.token}`);
    if (this.config.userAgent) headers.set('user-agent', this.config.userAgent);
    for (const [name, value] of Object.entries(ctx.extraHeaders)) {
      if (value === null) headers.delete(name);
      else headers.set(name, value);
    }
    if (ctx.idempotencyKey) headers.set('idempotency-key', ctx.idempotencyKey);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error('timeout')), ctx.timeoutMs);
    const combined = anySignal([ctx.signal, timeout.signal]);
    const url = urlOf(base, route, args);
    const key = ctx.idempotencyKey;
    this.config.logger.debug('request', { method: route.method, url, idempotencyKey: key });
    let res: Response;
    let text: string;
    try {
      res = await this.config.fetch(url, {
        method: route.method,
        headers,
        body: payload ?? null,
        signal: combined.signal,
      });
      text = await res.text();
    } catch (err) {
      if (ctx.signal?.aborted)
        return { error: new AbortError('The request was aborted', { cause: err, idempotencyKey: key }) };
      if (timeout.signal.aborted)
        return { error: new TimeoutError(`No answer within ${ctx.timeoutMs} ms`, { cause: err, idempotencyKey: key }) };
      return { error: new ConnectionError('The service could not be reached', { cause: err, idempotencyKey: key }) };
    } finally {
      clearTimeout(timer);
      combined.dispose();
    }
    let body: unknown;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      // HTML or plain-text error pages carry no JSON body.
    }
    if (!res.ok) {
      const error = ApiError.generate(
        res.status,
        body ?? { message: res.statusText || `HTTP ${res.status}` },
        res.headers,
        key,
      );
      this.config.logger.warn('request failed', {
        method: route.method,
        path: route.path,
        status: res.status,
        code: error.code,
        requestId: error.requestId,
      });
      return { error };
    }
    const schema = (route.responses as Record<number, unknown>)[res.status];
    if (isZodSchema(schema)) {
      const parsed = lenient(schema).safeParse(body);
      if (!parsed.success) {
        return {
          error: new ResponseValidationError(
            `The ${res.status} answer of ${route.method} ${route.path} does not match the contract`,
            res.status,
            body,
            { cause: parsed.error, idempotencyKey: key },
          ),
        };
      }
      body = parsed.data;
    }
    return {
      data: body,
      meta: {
        status: res.status,
        requestId: res.headers.get('x-request-id') ?? undefined,
        idempotencyKey: key,
        replayed: res.headers.get('idempotent-replayed') === 'true',
      },
    };
  }
}

function isZodSchema(value: unknown): value is ZodTypeAny {
  return (
    typeof value === 'object' && value !== null && typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}

function headerValue(headers: Record<string, string | null>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name && v !== null) return v;
  return undefined;
}

/**
 * Whether this route may be sent again after this failure. GETs, routes that store their answer
 * under the Idempotency-Key (`idempotent`) and routes that repeat without a second effect
 * (`repeatable`) may; a one-time sign-in only when the service refused it before running it (429).
 */
function mayResend(route: AppRoute, error: DuelkitError): boolean {
  if (route.method === 'GET') return true;
  const meta = routeMeta(route);
  if (meta.idempotent || meta.repeatable) return true;
  return error instanceof ApiError && error.status === 429;
}
