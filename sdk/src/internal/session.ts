import { marketsContract } from '@duelkit/contract';
import type { User } from '../api.generated.js';
import type { SessionMethods, Signer, StoredSession, TokenStore } from '../core/auth.js';
import { RegistrationRequiredError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { TokenSource, Transport } from './transport.js';

const RENEW_MARGIN_MS = 60_000;

function addressOf(signer: Signer): string {
  return 'account' in signer ? signer.account.address : signer.address;
}

async function sign(signer: Signer, message: string): Promise<string> {
  if ('account' in signer) return signer.signMessage({ message, account: signer.account as never });
  return signer.signMessage({ message });
}

/** Sign-In with Ethereum for the client: shared in-flight sign-ins, renewal before expiry, re-sign-in on 401. */
export class AuthSession implements TokenSource, SessionMethods {
  private inflight: Promise<StoredSession> | undefined;
  private username: string | undefined;

  /** `transport` carries no session of its own: sign-in calls are public. */
  constructor(
    private readonly transport: Transport,
    private readonly marketsUrl: string,
    private readonly store: TokenStore,
    private readonly signer: Signer | undefined,
    private readonly logger: Logger,
  ) {}

  /**
   * Signs in with the signer: challenge → signature → login, and registers the wallet when it has
   * no account and `username` is given. Concurrent calls share one sign-in.
   */
  signIn(options: { username?: string } = {}): Promise<StoredSession> {
    if (options.username) this.username = options.username;
    this.inflight ??= this.doSignIn().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  async signOut(): Promise<void> {
    await this.store.set(null);
  }

  async token(): Promise<string | null> {
    const current = await this.store.get();
    if (current && Date.parse(current.expiresAt) - Date.now() > RENEW_MARGIN_MS) return current.token;
    if (this.signer) return (await this.signIn()).token;
    return current?.token ?? null;
  }

  async peek(): Promise<string | null> {
    const current = await this.store.get();
    return current && Date.parse(current.expiresAt) - Date.now() > RENEW_MARGIN_MS ? current.token : null;
  }

  async reauthenticate(): Promise<boolean> {
    if (!this.signer) return false;
    await this.store.set(null);
    await this.signIn();
    return true;
  }

  private async doSignIn(): Promise<StoredSession> {
    const signer = this.signer;
    if (!signer) throw new RegistrationRequiredError('No signer was configured: pass `signer` to DuelkitClient');
    const auth = marketsContract.auth;
    const address = addressOf(signer);
    const challenge = async () => {
      const { data } = await this.transport.call<{ message: string }>(this.marketsUrl, auth.eoaChallenge, {
        body: { address },
      });
      return { message: data.message, signature: await sign(signer, data.message) };
    };
    const login = await this.transport.call<{ exists: boolean; token?: string; expiresAt?: string; user?: User }>(
      this.marketsUrl,
      auth.eoaLogin,
      {
        body: await challenge(),
      },
    );
    let session = login.data;
    if (!session.exists) {
      if (!this.username) {
        throw new RegistrationRequiredError('This wallet has no account yet: call signIn({ username }) to register it');
      }
      this.logger.info('registering a new account', { address });
      session = (
        await this.transport.call<{ exists: true; token: string; expiresAt: string; user: User }>(
          this.marketsUrl,
          auth.eoaRegister,
          {
            body: { ...(await challenge()), username: this.username },
          },
        )
      ).data;
    }
    const stored: StoredSession = { token: session.token as string, expiresAt: session.expiresAt as string };
    if (session.user) stored.user = session.user;
    await this.store.set(stored);
    return stored;
  }
}
