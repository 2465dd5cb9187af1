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

/** Arguments of a method: its input (optional when the route takes nothing), then request options. */
type Args<I> = [I] extends [void] ? [input?: Record<string, never>] : [input: I];

interface WithResponse<I, O> {
  /** The same call, answering the parsed body and {@link ResponseMeta}. */
  withResponse(...args: [...Args<I>, options?: RequestOptions]): Promise<{ data: O; meta: ResponseMeta }>;
}

/** A contract route as a typed method: `I` is what it takes (`void`: nothing), `O` what it answers. */
export type Method<I, O> = ((...args: [...Args<I>, options?: RequestOptions]) => Promise<O>) & WithResponse<I, O>;

/** A paginated contract route: awaiting it gives the page, iterating it gives every `Item` of every page. */
export type PaginatedMethod<I, O, Item> = ((...args: [...Args<I>, options?: RequestOptions]) => PagePromise<O, Item>) &
  WithResponse<I, O>;

/** What a method of the client takes: `InputOf<DuelkitClient['bets']['create']>`. */
export type InputOf<M> = M extends WithResponse<infer I, unknown> ? I : never;

/** What a method of the client answers: `OutputOf<DuelkitClient['duels']['getById']>`. */
export type OutputOf<M> = M extends WithResponse<never, infer O> ? O : never;
