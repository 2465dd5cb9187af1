import { memoryTokenStore, type Signer, type TokenStore } from './core/auth.js';
import { DuelkitError } from './core/errors.js';
import { verifyWebhookSignature } from './core/webhooks.js';
import { leveled, type Logger, type LogLevel } from './core/logger.js';
import { DuelkitNamespaces } from './namespaces.generated.js';
import { bindRouter } from './internal/bind.js';
import { namespaces } from './internal/namespaces.js';
import { readEnv, userAgent } from './internal/runtime.js';
import { AuthSession } from './internal/session.js';
import { Transport, type TransportConfig } from './internal/transport.js';
import { createEvents } from './events.js';
import { sleep } from './internal/signals.js';
import { createTrade, type TradeNamespace } from './trade.js';
import { waitForDuel, type WaitForDuelOptions } from './wait-for-duel.js';
import type { Duel } from './api.generated.js';

/** Defaults of the client, each also documented on its option. */
export const DEFAULTS = {
  marketsUrl: 'http://localhost:3000',
  tournamentsUrl: 'http://localhost:3001',
  timeoutMs: 30_000,
  totalTimeoutMs: 120_000,
  maxRetries: 2,
  maxRetryAfterMs: 60_000,
} as const;

export interface DuelkitClientOptions {
  /** Base URL of the markets host. Default: `DUELKIT_MARKETS_URL`, else `http://localhost:3000`. */
  marketsUrl?: string;
  /** Base URL of the tournaments host. Default: `DUELKIT_TOURNAMENTS_URL`, else `http://localhost:3001`. */
  tournamentsUrl?: string;
  /**
   * Your builder API key. Default: `DUELKIT_BUILDER_KEY`; one of the two is required. Server-side
   * only: never ship it to browsers you do not control.
   */
  builderApiKey?: string;
  /** Signs the sign-in challenge: a viem Account or WalletClient, or `{ address, signMessage }`. */
  signer?: Signer;
  /** Admin token sent on admin routes (from `adminAuth.login` or `adminAuth.twoFactorVerify`); a request's own `adminToken` wins. */
  adminToken?: string;
  fetch?: typeof fetch;
  /** Budget of each attempt in ms (default 30 s). */
  timeoutMs?: number;
  /** Budget of a whole call in ms, retries and the waits between them included (default 120 s). */
  totalTimeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /**
   * The longest `Retry-After` the client waits for on its own (default 60 s). A longer one (an
   * admin lockout, say) is not waited for: the error is thrown at once with its `retryAfterMs`.
   */
  maxRetryAfterMs?: number;
  /** Headers sent on every request, after the SDK's own; `null` removes one the SDK would send. */
  headers?: Record<string, string | null>;
  /** Your application's product token, put before the SDK's in the User-Agent: `my-app/1.2.0`. */
  userAgent?: string;
  logger?: Logger;
  logLevel?: LogLevel;
  tokenStore?: TokenStore;
}

/**
 * The Duelkit client. One namespace per contract router, one method per route, typed and
 * documented from the contract. Every non-GET carries an Idempotency-Key reused across its
 * retries, retries stay within the call's budget, the session renews itself, and paginated
 * routes are async-iterable.
 *
 * @example
 * const client = new DuelkitClient({ builderApiKey, signer: privateKeyToAccount(key) });
 * const { user } = await client.auth.signIn({ username: 'alice' });
 * for await (const duel of client.duels.publicAll({ query: { status: 'open' } })) console.log(duel.duelId);
 */
export class DuelkitClient extends DuelkitNamespaces {
  /** The markets host's base URL in use. */
  readonly marketsUrl: string;
  /** The tournaments host's base URL in use. */
  readonly tournamentsUrl: string;
  /** Task-level helpers over several routes: `trade.buy` quotes and places a bet in one call. */
  readonly trade: TradeNamespace;
  readonly #options: DuelkitClientOptions;
  readonly #logger: Logger;

  constructor(options: DuelkitClientOptions = {}) {
    super();
    const builderApiKey = options.builderApiKey ?? readEnv('DUELKIT_BUILDER_KEY');
    if (!builderApiKey) {
      throw new DuelkitError('A builder API key is required: pass `builderApiKey` or set DUELKIT_BUILDER_KEY');
    }
    this.marketsUrl = options.marketsUrl ?? readEnv('DUELKIT_MARKETS_URL') ?? DEFAULTS.marketsUrl;
    this.tournamentsUrl = options.tournamentsUrl ?? readEnv('DUELKIT_TOURNAMENTS_URL') ?? DEFAULTS.tournamentsUrl;
    const tokenStore = options.tokenStore ?? memoryTokenStore();
    this.#options = { ...options, tokenStore };
    const logger = leveled(options.logger, options.logLevel ?? 'warn');
    this.#logger = logger;
    const config: TransportConfig = {
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      builderApiKey,
      maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      totalTimeoutMs: options.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs,
      logger,
      userAgent: userAgent(options.userAgent),
      headers: options.headers ?? {},
      adminToken: options.adminToken,
      tokens: undefined,
    };
    const session = new AuthSession(new Transport(config), this.marketsUrl, tokenStore, options.signer, logger);
    const transport = new Transport({ ...config, tokens: session });
    const bases = { markets: this.marketsUrl, tournaments: this.tournamentsUrl };
    for (const ns of namespaces()) {
      const bound = bindRouter(transport, bases[ns.host], ns.router);
      Object.defineProperty(this, ns.name, { value: bound, enumerable: true });
    }
    this.trade = createTrade(this);
    Object.assign(this.events, createEvents({ ...config, marketsUrl: this.marketsUrl, token: () => session.token() }));
    Object.assign(this.auth, {
      signIn: (opts: { username?: string } = {}) => session.signIn(opts),
      signOut: () => session.signOut(),
    });
    Object.assign(this.webhooks, { verify: verifyWebhookSignature });
  }

  /**
   * Resolves with the market (`duels.getById`) once its status is `options.status` (or one of
   * several): follows the event stream filtered to the market, and reads the market at once and
   * then every 30 s in case the stream is unavailable. Rejects with `DuelWaitTimeoutError` after
   * `timeoutMs` (no limit by default), `AbortError` on `signal`, or a non-retryable read error.
   *
   * @example
   * const duel = await client.waitForDuel(duelId, { status: 'settled', timeoutMs: 3_600_000 });
   */
  waitForDuel(duelId: string, options: WaitForDuelOptions): Promise<Duel> {
    return waitForDuel(
      {
        events: this.events,
        getDuel: (id, signal) => this.duels.getById({ params: { duelId: id }, query: {} }, { signal }),
        sleep,
        logger: this.#logger,
      },
      duelId,
      options,
    );
  }

  /**
   * A client with the given options replacing this one's, sharing its session (the token store):
   * for an admin token, a shorter budget, extra headers.
   *
   * @example
   * const login = await client.adminAuth.login({ body: { email, password } });
   * if (login.status === 'authenticated') admin = client.withOptions({ adminToken: login.token });
   */
  withOptions(options: Omit<DuelkitClientOptions, 'tokenStore'>): DuelkitClient {
    return new DuelkitClient({ ...this.#options, ...options });
  }
}
