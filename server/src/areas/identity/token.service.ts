import { createHash, randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT, decodeProtectedHeader, type JWTPayload } from 'jose';
import { DomainError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';

export const USER_AUDIENCE = 'duelkit:user';
export const ADMIN_AUDIENCE = 'duelkit:admin';
/** A half-finished admin login: only 2fa/verify accepts it. */
export const ADMIN_MFA_AUDIENCE = 'duelkit:admin-2fa';
const ISSUER = 'duelkit';

export interface UserClaims {
  sub: string;
  bap: string;
  address: string;
  eoaAddress: string | null;
  jti: string;
  exp: number;
}

export interface AdminClaims {
  sub: string;
  email: string;
  jti: string;
  exp: number;
}

/** A freshly signed token, its expiry and its id (`jti`). */
export interface SignedToken {
  readonly token: string;
  readonly expiresAt: Date;
  readonly jti: string;
}

interface Key {
  kid: string;
  secret: Uint8Array;
}

function keyOf(secret: string): Key {
  return {
    kid: createHash('sha256').update(secret).digest('hex').slice(0, 12),
    secret: new TextEncoder().encode(secret),
  };
}

/** Verified tokens remembered per process: every authenticated request verifies its token. */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * HS256 JWTs with a key id: new tokens are signed with the current secret; tokens signed with a
 * previous secret keep verifying until they expire, which is how the secret rotates.
 *
 * A token that verified once is remembered (by its exact text and audience) until it expires, so a
 * client's next requests skip the HMAC; expiry is still checked on every use, and revocation is the
 * caller's check, made on every request as before.
 */
export class TokenService {
  private readonly current: Key;
  private readonly byKid: Map<string, Key>;
  private readonly verified = new Map<string, JWTPayload>();

  constructor(
    secret: string,
    previous: readonly string[],
    private readonly userTtlSeconds: number,
    private readonly adminTtlSeconds: number,
    private readonly clock: Clock,
  ) {
    this.current = keyOf(secret);
    this.byKid = new Map([this.current, ...previous.map(keyOf)].map((k) => [k.kid, k]));
  }

  async signUser(claims: Omit<UserClaims, 'jti' | 'exp'>): Promise<SignedToken> {
    return this.sign(
      { bap: claims.bap, address: claims.address, eoaAddress: claims.eoaAddress },
      claims.sub,
      USER_AUDIENCE,
      this.userTtlSeconds,
    );
  }

  async signAdmin(sub: string, email: string, mfaPending: boolean): Promise<SignedToken> {
    return mfaPending
      ? this.sign({ email }, sub, ADMIN_MFA_AUDIENCE, 300)
      : this.sign({ email }, sub, ADMIN_AUDIENCE, this.adminTtlSeconds);
  }

  async verifyUser(token: string): Promise<UserClaims> {
    const p = await this.verify(token, USER_AUDIENCE);
    if (typeof p['bap'] !== 'string' || typeof p['address'] !== 'string') throw invalid();
    return {
      sub: p.sub as string,
      bap: p['bap'],
      address: p['address'],
      eoaAddress: typeof p['eoaAddress'] === 'string' ? p['eoaAddress'] : null,
      jti: p.jti as string,
      exp: p.exp as number,
    };
  }

  async verifyAdmin(token: string, audience: typeof ADMIN_AUDIENCE | typeof ADMIN_MFA_AUDIENCE): Promise<AdminClaims> {
    const p = await this.verify(token, audience);
    return { sub: p.sub as string, email: String(p['email']), jti: p.jti as string, exp: p.exp as number };
  }

  /** Which audience a token claims, without trusting it (to pick the right error). */
  static audienceOf(token: string): string | null {
    try {
      const [, payload] = token.split('.');
      const aud = (JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as JWTPayload).aud;
      return typeof aud === 'string' ? aud : null;
    } catch {
      return null;
    }
  }

  private async sign(claims: Record<string, unknown>, sub: string, audience: string, ttl: number) {
    const iat = Math.floor(this.clock.now() / 1000);
    const exp = iat + ttl;
    const jti = randomUUID();
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: this.current.kid, typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.current.secret);
    return { token, expiresAt: new Date(exp * 1000), jti };
  }

  private async verify(token: string, audience: string): Promise<JWTPayload> {
    const cacheKey = `${audience} ${token}`;
    const known = this.verified.get(cacheKey);
    if (known) {
      if ((known.exp as number) * 1000 > this.clock.now()) return known;
      this.verified.delete(cacheKey);
    }
    const payload = await this.verifyOnce(token, audience);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(cacheKey, payload);
    return payload;
  }

  private async verifyOnce(token: string, audience: string): Promise<JWTPayload> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw invalid();
    }
    const key = kid ? this.byKid.get(kid) : undefined;
    if (!key) throw invalid();
    try {
      const { payload } = await jwtVerify(token, key.secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience,
        currentDate: new Date(this.clock.now()),
      });
      if (!payload.sub || !payload.jti || !payload.exp) throw invalid();
      return payload;
    } catch (err) {
      if (err instanceof errors.JWTExpired)
        throw new DomainError('TOKEN_EXPIRED', 'The token has expired; sign in again');
      if (err instanceof DomainError) throw err;
      throw invalid();
    }
  }
}

function invalid(): DomainError {
  return new DomainError('TOKEN_INVALID', 'The token is invalid');
}
