import { DomainError } from '../../errors.js';
import type { AdminAuthService, AdminTokenPurpose } from './admin-auth.service.js';
import type { AdminChallengePrincipal, AdminPrincipal, UserPrincipal, WalletPrincipal } from './principal.js';
import { ADMIN_AUDIENCE, ADMIN_MFA_AUDIENCE, TokenService } from './token.service.js';
import type { WalletCredential, WalletCredentialVerifier } from './wallet-credential.js';

/**
 * Turns credentials into principals: user and admin bearer tokens and wallet credentials. It sees
 * tokens and header values only, never a request; every refusal is a DomainError with its code.
 */
export class AuthenticationService {
  constructor(
    private readonly tokens: TokenService,
    private readonly admins: AdminAuthService,
    private readonly wallets: WalletCredentialVerifier,
  ) {}

  /** A user token issued under the builder app the request is made for. */
  async authenticateUser(token: string, builderAppId: string): Promise<UserPrincipal> {
    const aud = TokenService.audienceOf(token);
    if (aud === ADMIN_AUDIENCE || aud === ADMIN_MFA_AUDIENCE) {
      throw new DomainError('TOKEN_INVALID', 'An admin token is not accepted on user routes');
    }
    const claims = await this.tokens.verifyUser(token);
    if (claims.bap !== builderAppId) {
      throw new DomainError('TENANT_MISMATCH', 'This token belongs to another builder app than the x-builder-api-key');
    }
    return {
      kind: 'user',
      userId: claims.sub,
      address: claims.address,
      eoaAddress: claims.eoaAddress ?? claims.address,
      builderAppId: claims.bap,
      tokenId: claims.jti,
      expiresAt: claims.exp,
    };
  }

  /** An admin token: a live session of an active admin (or its login challenge, for that purpose only). */
  authenticateAdmin(token: string, purpose: AdminTokenPurpose): Promise<AdminPrincipal | AdminChallengePrincipal> {
    return this.admins.authenticate(token, purpose);
  }

  /**
   * Whoever the bearer token names, user or admin (by its audience), on routes either may
   * personalise. A half-finished admin login is refused here as everywhere else.
   */
  async authenticateBearer(token: string, builderAppId: string): Promise<UserPrincipal | AdminPrincipal> {
    const aud = TokenService.audienceOf(token);
    if (aud === ADMIN_AUDIENCE || aud === ADMIN_MFA_AUDIENCE) {
      const admin = await this.admins.authenticate(token, 'session');
      if (admin.kind !== 'admin')
        throw new DomainError('TWO_FACTOR_REQUIRED', 'Complete the login with 2fa/verify first');
      return admin;
    }
    return this.authenticateUser(token, builderAppId);
  }

  authenticateWallet(credential: WalletCredential): Promise<WalletPrincipal> {
    return this.wallets.verify(credential);
  }
}
