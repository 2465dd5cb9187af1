import type { AppRoute } from '@ts-rest/core';
import type { z } from 'zod';
import { routeMeta } from '@duelkit/contract';
import {
  AbortError,
  ApiError,
  ConnectionError,
  isDuelkitError,
  isRetryable,
  ResponseValidationError,
  retryAfterMs,
  TimeoutError,
  type DuelkitError,
} from './errors.js';
import { newIdempotencyKey } from './idempotency.js';
import type { Logger } from './logger.js';
import { backoffMs, sleep } from './retry.js';
import type { CallOptions, ResponseMeta } from './types.js';

/** How the transport gets and renews a user token; provided by the auth session. */
export interface TokenSource {
  token(): Promise<string | null>;
  /** The current session's token if it is still valid, without signing in. */
  peek(): Promise<string | null>;
  /** Signs in again after a 401; false when it cannot (no signer). */
  reauthenticate(): Promise<boolean>;
}

export interface TransportConfig {
  readonly fetch: typeof fetch;
  readonly builderApiKey: string;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly userAgent?: string;
}

const AUTH_CODES = new Set(['TOKEN_EXPIRED', 'TOKEN_INVALID', 'TOKEN_REVOKED', 'UNAUTHENTICATED']);
const USER_AUTH = new Set(['bearer', 'optional-bearer', 'jwt-or-wallet']);

type Input = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/** Path, query and form values are scalars; objects go as JSON rather than `[object Object]`. */
function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? '';
}

function urlOf(base: string, route: AppRoute, input: Input): string {
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const value = input.params?.[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
    return encodeURIComponent(scalar(value));
  });
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  url.pathname = `${new URL(base).pathname.replace(/\/$/, '')}${path}`;
  for (const [k, v] of Object.entries(input.query ?? {})) {
    if (v !== undefined && v !== null) url.searchParams.set(k, scalar(v));
  }
  return url.toString();
}

function bodyOf(route: AppRoute, body: unknown): { payload: BodyInit | undefined; contentType: string | undefined } {
  if (route.method === 'GET' || body === undefined) return { payload: undefined, contentType: undefined };
  if ('contentType' in route && route.contentType === 'multipart/form-data') {
    if (body instanceof FormData) return { payload: body, contentType: undefined };
    const form = new FormData();
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      form.append(k, v instanceof Blob ? v : scalar(v));
    }
    return { payload: form, contentType: undefined };
  }
  return { payload: JSON.stringify(body), contentType: 'application/json' };
}

/** One signal that fires when any of `signals` does (AbortSignal.any is not in every runtime). */
function anySignal(signals: (AbortSignal | undefined)[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const listeners: [AbortSignal, () => void][] = [];
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) controller.abort(s.reason);
    const on = () => controller.abort(s.reason);
    s.addEventListener('abort', on, { once: true });
    listeners.push([s, on]);
  }
  return {
    signal: controller.signal,
    dispose: () => listeners.forEach(([s, on]) => s.removeEventListener('abort', on)),
  };
}

/**
 * Sends contract routes: builder key, bearer token, Idempotency-Key (one per logical call, the
 * same on every retry and re-sign-in), retries with Retry-After, one re-sign-in on 401, and the
 * success body parsed by the contract.
 */
export class Transport {
  constructor(
    private readonly config: TransportConfig,
    private tokens: TokenSource | undefined = undefined,
  ) {}

  private adminToken: string | null = null;

  setTokenSource(tokens: TokenSource): void {
    this.tokens = tokens;
  }

  /** The admin JWT sent on admin routes (from adminAuth.login or 2fa/verify). */
  setAdminToken(token: string | null): void {
    this.adminToken = token;
  }

  async call<T>(
    base: string,
    route: AppRoute,
    input: Input = {},
    options: CallOptions = {},
  ): Promise<{ data: T; meta: ResponseMeta }> {
    const meta = routeMeta(route);
    const idempotencyKey = meta.idempotent ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined;
    const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    const usesUser = USER_AUTH.has(meta.auth);
    let retries = 0;
    let reauthenticated = false;
    for (;;) {
      let error: DuelkitError;
      try {
        // Public routes carry the session's token when there is one: members see private markets.
        const token =
          meta.auth === 'admin'
            ? this.adminToken
            : usesUser && this.tokens
              ? await this.tokens.token()
              : meta.auth === 'public' && this.tokens
                ? await this.tokens.peek()
                : null;
        const outcome = await this.send(base, route, input, {
          token,
          idempotencyKey,
          signal: options.signal,
          deadline,
        });
        if (outcome instanceof ApiError) {
          if (
            outcome.status === 401 &&
            usesUser &&
            !reauthenticated &&
            AUTH_CODES.has(outcome.code) &&
            this.tokens &&
            (await this.tokens.reauthenticate())
          ) {
            // A fresh sign-in and one resend; this is not a retry.
            reauthenticated = true;
            continue;
          }
          error = outcome;
        } else {
          return { data: outcome.data as T, meta: { ...outcome.meta, attempts: retries + 1 } };
        }
      } catch (err) {
        if (!isDuelkitError(err)) throw err;
        error = err;
      }
      error.idempotencyKey ??= idempotencyKey;
      if (!isRetryable(error, { method: route.method, idempotencyKey }) || retries >= this.config.maxRetries)
        throw error;
      const wait = (error instanceof ApiError ? retryAfterMs(error.headers) : undefined) ?? backoffMs(retries + 1);
      if (deadline !== undefined && Date.now() + wait > deadline) throw error;
      retries += 1;
      this.config.logger.info('retrying', {
        path: route.path,
        status: error instanceof ApiError ? error.status : error.name,
        waitMs: wait,
        retry: retries,
      });
      await sleep(wait, options.signal);
    }
  }

  private async send(
    base: string,
    route: AppRoute,
    input: Input,
    ctx: {
      token: string | null;
      idempotencyKey: string | undefined;
      signal: AbortSignal | undefined;
      deadline: number | undefined;
    },
  ): Promise<ApiError | { data: unknown; meta: Omit<ResponseMeta, 'attempts'> }> {
    const { payload, contentType } = bodyOf(route, input.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-builder-api-key': this.config.builderApiKey,
    };
    if (contentType) headers['content-type'] = contentType;
    if (ctx.token) headers['authorization'] = `Bearer ${ctx.token}`;
    if (ctx.idempotencyKey) headers['idempotency-key'] = ctx.idempotencyKey;
    const budget = Math.min(
      this.config.timeoutMs,
      ctx.deadline === undefined ? Infinity : Math.max(1, ctx.deadline - Date.now()),
    );
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error('timeout')), budget);
    const combined = anySignal([ctx.signal, timeout.signal]);
    const url = urlOf(base, route, input);
    this.config.logger.debug('request', { method: route.method, url, idempotencyKey: ctx.idempotencyKey });
    let res: Response;
    try {
      res = await this.config.fetch(url, {
        method: route.method,
        headers,
        body: payload ?? null,
        signal: combined.signal,
      });
    } catch (err) {
      if (ctx.signal?.aborted)
        throw new AbortError('The request was aborted', { cause: err, idempotencyKey: ctx.idempotencyKey });
      if (timeout.signal.aborted)
        throw new TimeoutError(`No answer within ${budget} ms`, { cause: err, idempotencyKey: ctx.idempotencyKey });
      throw new ConnectionError('The service could not be reached', { cause: err, idempotencyKey: ctx.idempotencyKey });
    } finally {
      clearTimeout(timer);
      combined.dispose();
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      // HTML or plain-text error pages carry no JSON body.
    }
    if (!res.ok) {
      const err = ApiError.generate(
        res.status,
        body ?? { message: res.statusText || `HTTP ${res.status}` },
        res.headers,
        ctx.idempotencyKey,
      );
      this.config.logger.warn('request failed', {
        method: route.method,
        path: route.path,
        status: res.status,
        code: err.code,
        requestId: err.requestId,
      });
      return err;
    }
    const schema = (route.responses as Record<number, unknown>)[res.status] as z.ZodTypeAny | undefined;
    const parsed =
      schema && typeof schema.safeParse === 'function'
        ? schema.safeParse(body)
        : { success: true as const, data: body };
    if (!parsed.success) {
      throw new ResponseValidationError(
        `The ${res.status} answer of ${route.method} ${route.path} does not match the contract`,
        res.status,
        body,
        {
          cause: parsed.error,
          idempotencyKey: ctx.idempotencyKey,
        },
      );
    }
    return {
      data: parsed.data,
      meta: {
        status: res.status,
        requestId: res.headers.get('x-request-id') ?? undefined,
        idempotencyKey: ctx.idempotencyKey,
        replayed: res.headers.get('idempotent-replayed') === 'true',
      },
    };
  }
}
