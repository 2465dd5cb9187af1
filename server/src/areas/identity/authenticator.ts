import type { Request } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { HEADER } from '@duelkit/contract';
import { DomainError } from '../../errors.js';
import type { Authenticator } from '../../http/middleware/authenticate.js';
import type { Principal } from '../../http/request-context.js';
import type { AdminAuthService } from './admin-auth.service.js';
import { ADMIN_AUDIENCE, ADMIN_MFA_AUDIENCE, TokenService, USER_AUDIENCE } from './token.service.js';
import type { WalletCredentialVerifier } from './wallet-credential.js';

const TWO_FACTOR_VERIFY_PATH = '/svc/admin/auth/2fa/verify';

function bearer(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new DomainError('TOKEN_INVALID', 'Authorization must be "Bearer <token>"');
  return match[1];
}

/** Credentials of user, admin and wallet callers, verified per the route's auth kind. */
export class IdentityAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly admins: AdminAuthService,
    private readonly wallets: WalletCredentialVerifier,
  ) {}

  async user(req: Request): Promise<Principal | null> {
    const token = bearer(req);
    if (!token) return null;
    const aud = TokenService.audienceOf(token);
    if (aud && aud !== USER_AUDIENCE)
      throw new DomainError('TOKEN_INVALID', 'An admin token is not accepted on user routes');
    const claims = await this.tokens.verifyUser(token);
    if (req.tenant && claims.bap !== req.tenant.builderAppId) {
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

  async admin(req: Request): Promise<Principal | null> {
    const token = bearer(req);
    if (!token) return null;
    const aud = TokenService.audienceOf(token);
    const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    const completingLogin = route?.path === TWO_FACTOR_VERIFY_PATH;
    if (aud === USER_AUDIENCE) throw new DomainError('TOKEN_INVALID', 'A user token is not accepted on admin routes');
    if (aud === ADMIN_MFA_AUDIENCE && !completingLogin) {
      throw new DomainError('TWO_FACTOR_REQUIRED', 'Complete the login with 2fa/verify first');
    }
    const claims = await this.tokens.verifyAdmin(token, completingLogin ? ADMIN_MFA_AUDIENCE : ADMIN_AUDIENCE);
    if (await this.admins.isRevoked(claims.jti)) throw new DomainError('TOKEN_REVOKED', 'This token was logged out');
    return { kind: 'admin', adminId: claims.sub, email: claims.email, tokenId: claims.jti, expiresAt: claims.exp };
  }

  async wallet(req: Request): Promise<Principal | null> {
    const one = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const address = one(HEADER.walletAddress);
    const signature = one(HEADER.walletSignature);
    const timestamp = one(HEADER.walletTimestamp);
    if (!address && !signature && !timestamp) return null;
    if (!address || !signature || !timestamp) {
      throw new DomainError(
        'WALLET_CREDENTIAL_INVALID',
        'Send all three x-wallet-address, x-wallet-signature and x-wallet-timestamp',
      );
    }
    const verified = await this.wallets.verify(address, signature, timestamp);
    return { kind: 'wallet', address: verified.address, expiresAt: Math.floor(verified.expiresAt.getTime() / 1000) };
  }

  async webhook(): Promise<void> {
    throw new DomainError('UNAUTHENTICATED', 'Webhook signature verification is not configured');
  }
}
