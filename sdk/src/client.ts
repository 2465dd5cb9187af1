import { marketsContract, tournamentsContract } from '@duelkit/contract';
import { AuthSession, memoryTokenStore, type Signer, type StoredSession, type TokenStore } from './core/auth.js';
import { leveled, type Logger, type LogLevel } from './core/logger.js';
import { Transport } from './core/transport.js';
import type { BoundRouter } from './core/types.js';
import { bindRouter } from './internal/bind.js';

export interface DuelkitClientOptions {
  /** Base URL of the markets host, e.g. http://localhost:3000. */
  marketsUrl: string;
  /** Base URL of the tournaments host, e.g. http://localhost:3001. */
  tournamentsUrl: string;
  /** Your builder API key (server-side only: never ship it to browsers you do not control). */
  builderApiKey: string;
  /** Signs the sign-in challenge: a viem Account or WalletClient, or `{ address, signMessage }`. */
  signer?: Signer;
  fetch?: typeof fetch;
  /** Per-attempt timeout (default 30 s). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  logger?: Logger;
  logLevel?: LogLevel;
  tokenStore?: TokenStore;
}

type Markets = typeof marketsContract;
type Tournaments = typeof tournamentsContract;

/**
 * The Duelkit client. Every method is typed from the contract; writes carry idempotency keys,
 * failures are retried where that is safe, and the session renews itself.
 *
 * @example
 * const client = new DuelkitClient({ marketsUrl, tournamentsUrl, builderApiKey, signer: privateKeyToAccount(key) });
 * const { user } = await client.auth.signIn({ username: 'alice' });
 */
export class DuelkitClient {
  /** §4.1 user auth, plus `signIn`/`signOut` for the whole challenge flow. */
  readonly auth: BoundRouter<Markets['auth']> & {
    signIn(options?: { username?: string }): Promise<StoredSession>;
    signOut(): Promise<void>;
  };
  readonly wallet: BoundRouter<Markets['wallet']>;
  readonly bulkRegister: BoundRouter<Markets['bulkRegister']>;
  readonly adminAuth: BoundRouter<Markets['adminAuth']> & { useToken(token: string | null): void };
  /** §4.7 markets: create (accepted, not final; poll getById), lists, detail, participants. */
  readonly duels: BoundRouter<Markets['duels']>;
  /** §4.7 resolution by the creator, contests by participants, finalization (accepted, not final). */
  readonly resolution: BoundRouter<Markets['resolution']>;
  /** §4.16 market administration (admin token: `adminAuth.useToken`). */
  readonly adminMarket: BoundRouter<Markets['adminMarket']>;
  /** §4.11 trading: estimate → create/sell with the estimate, holdings, limits. */
  readonly bets: BoundRouter<Markets['bets']>;
  /** §4.8 private markets: invitation codes, joins (accepted, not final) and memberships. */
  readonly invitations: BoundRouter<Markets['invitations']>;
  /** §4.9 parent markets: groups of sub-markets with parent-level invitations. */
  readonly parentMarkets: BoundRouter<Markets['parentMarkets']>;
  /** §4.11 price history (yes-percentage snapshots). */
  readonly priceHistory: BoundRouter<Markets['priceHistory']>;
  /** §4.14 portfolio of a wallet. */
  readonly portfolio: BoundRouter<Markets['portfolio']>;
  /** §4.12 leaderboards. */
  readonly leaderboard: BoundRouter<Markets['leaderboard']>;
  /** §4.10 protocol statistics. */
  readonly protocolStats: BoundRouter<Markets['protocolStats']>;
  readonly tournamentsAuth: BoundRouter<Tournaments['auth']>;
  readonly health: BoundRouter<Tournaments['health']>;
  readonly sports: BoundRouter<Tournaments['sports']>;
  /**
   * §4.17 tournaments: paid creation (deposit first), creator bonds, entries, picks, standings,
   * brackets, prizes and statistics. Writes take the session token (or wallet credentials);
   * entering is accepted, not final: poll `myStatus` until `hasEntry`.
   */
  readonly tournaments: BoundRouter<Tournaments['tournaments']>;

  constructor(options: DuelkitClientOptions) {
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    const logger = leveled(options.logger, options.logLevel ?? 'warn');
    const transport = new Transport({
      fetch: fetchImpl,
      builderApiKey: options.builderApiKey,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 30_000,
      logger,
    });
    const session = new AuthSession(
      transport,
      options.marketsUrl,
      options.tokenStore ?? memoryTokenStore(),
      options.signer,
      logger,
    );
    transport.setTokenSource(session);
    const markets = () => options.marketsUrl;
    const tournaments = () => options.tournamentsUrl;
    const auth = bindRouter(transport, markets, marketsContract.auth);
    this.auth = Object.assign(auth, {
      signIn: (opts: { username?: string } = {}) => session.signIn(opts),
      signOut: () => session.signOut(),
    });
    this.wallet = bindRouter(transport, markets, marketsContract.wallet);
    this.bulkRegister = bindRouter(transport, markets, marketsContract.bulkRegister);
    this.adminAuth = Object.assign(bindRouter(transport, markets, marketsContract.adminAuth), {
      useToken: (token: string | null) => transport.setAdminToken(token),
    });
    this.duels = bindRouter(transport, markets, marketsContract.duels);
    this.bets = bindRouter(transport, markets, marketsContract.bets);
    this.resolution = bindRouter(transport, markets, marketsContract.resolution);
    this.adminMarket = bindRouter(transport, markets, marketsContract.adminMarket);
    this.invitations = bindRouter(transport, markets, marketsContract.invitations);
    this.parentMarkets = bindRouter(transport, markets, marketsContract.parentMarkets);
    this.priceHistory = bindRouter(transport, markets, marketsContract.priceHistory);
    this.portfolio = bindRouter(transport, markets, marketsContract.portfolio);
    this.leaderboard = bindRouter(transport, markets, marketsContract.leaderboard);
    this.protocolStats = bindRouter(transport, markets, marketsContract.protocolStats);
    this.tournamentsAuth = bindRouter(transport, tournaments, tournamentsContract.auth);
    this.health = bindRouter(transport, tournaments, tournamentsContract.health);
    this.sports = bindRouter(transport, tournaments, tournamentsContract.sports);
    this.tournaments = bindRouter(transport, tournaments, tournamentsContract.tournaments);
  }
}
