import type { User } from '../api.generated.js';

/** Anything that can sign a personal message: a viem Account, a WalletClient, or `{ address, signMessage }`. */
export type Signer =
  | { address: string; signMessage(args: { message: string }): Promise<string> }
  | { account: { address: string }; signMessage(args: { message: string; account: never }): Promise<string> };

export interface StoredSession {
  token: string;
  /** ISO-8601. */
  expiresAt: string;
  /** The signed-in user, as login or register returned it. */
  user?: User;
}

/** Where the session token lives (memory by default; use localStorage, a keychain, …). */
export interface TokenStore {
  get(): StoredSession | null | Promise<StoredSession | null>;
  set(session: StoredSession | null): void | Promise<void>;
}

/** A token store in memory: the default, one per client (and shared by its `withOptions` copies). */
export function memoryTokenStore(): TokenStore {
  let current: StoredSession | null = null;
  return {
    get: () => current,
    set: (s) => {
      current = s;
    },
  };
}

/** The whole Sign-In with Ethereum flow, on `client.auth`. */
export interface SessionMethods {
  /**
   * Signs in with the client's `signer`: challenge → signature → login, registering the wallet
   * when it has no account yet and `username` is given (else `RegistrationRequiredError`).
   * Concurrent calls share one sign-in; the session is renewed before it expires.
   *
   * @example
   * const { user } = await client.auth.signIn({ username: 'alice' });
   */
  signIn(options?: { username?: string }): Promise<StoredSession>;
  /** Forgets the session (the token store is cleared); the next user call signs in again. */
  signOut(): Promise<void>;
}
