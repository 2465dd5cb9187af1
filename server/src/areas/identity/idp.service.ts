import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { DomainError } from '../../errors.js';
import { systemClock, type Clock } from '../../platform/clock.js';

export interface IdpIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly audience: string;
}

/** A verified identity-provider subject. */
export interface IdpIdentity {
  readonly issuer: string;
  readonly subject: string;
}

export interface IdpServiceDeps {
  /** What judges a token's expiry: the wall clock, as the identity provider's tokens are issued in it. */
  readonly clock?: Clock;
  /** The keys of an issuer (default: its JWKS fetched from `jwksUri`). */
  readonly keySetOf?: (issuer: IdpIssuer) => JWTVerifyGetKey;
}

const remoteKeySet = (issuer: IdpIssuer): JWTVerifyGetKey =>
  createRemoteJWKSet(new URL(issuer.jwksUri), { timeoutDuration: 5_000 });

/** Verifies OIDC id_tokens and JWT access tokens against the configured issuers' JWKS. */
export class IdpService {
  private readonly keys = new Map<string, { issuer: IdpIssuer; jwks: JWTVerifyGetKey }>();
  private readonly clock: Clock;

  constructor(issuers: readonly IdpIssuer[], deps: IdpServiceDeps = {}) {
    this.clock = deps.clock ?? systemClock;
    const keySetOf = deps.keySetOf ?? remoteKeySet;
    for (const issuer of issuers) this.keys.set(issuer.issuer, { issuer, jwks: keySetOf(issuer) });
  }

  async verify(token: string): Promise<IdpIdentity> {
    let iss: unknown;
    try {
      iss = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    } catch {
      throw new DomainError('IDENTITY_TOKEN_INVALID', 'The identity token is not a JWT');
    }
    const entry = typeof iss === 'string' ? this.keys.get(iss) : undefined;
    if (!entry)
      throw new DomainError(
        'IDENTITY_TOKEN_INVALID',
        'The identity token comes from an issuer this server does not trust',
      );
    try {
      const { payload } = await jwtVerify(token, entry.jwks, {
        issuer: entry.issuer.issuer,
        audience: entry.issuer.audience,
        algorithms: ['RS256', 'ES256', 'EdDSA', 'PS256'],
        currentDate: new Date(this.clock.now()),
      });
      if (!payload.sub) throw new DomainError('IDENTITY_TOKEN_INVALID', 'The identity token has no subject');
      return { issuer: entry.issuer.issuer, subject: payload.sub };
    } catch (err) {
      if (err instanceof DomainError) throw err;
      if (err instanceof errors.JWTExpired)
        throw new DomainError('IDENTITY_TOKEN_INVALID', 'The identity token has expired');
      throw new DomainError('IDENTITY_TOKEN_INVALID', 'The identity token could not be verified');
    }
  }
}
