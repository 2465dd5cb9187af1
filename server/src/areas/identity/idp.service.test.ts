import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { IdpService, type IdpIssuer } from './idp.service.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const GOOGLE: IdpIssuer = {
  issuer: 'https://accounts.idp.test',
  jwksUri: 'https://idp.test/jwks',
  audience: 'duelkit',
};
const OTHER: IdpIssuer = { issuer: 'https://other.idp.test', jwksUri: 'https://other.test/jwks', audience: 'duelkit' };

interface Key {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

let trusted: Key;
let otherKey: Key;

async function newKey(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } };
}

beforeAll(async () => {
  trusted = await newKey('k1');
  otherKey = await newKey('k2');
});

/** Each issuer's JWKS served from memory instead of its URL; expiry judged by the test clock. */
function setup() {
  const clock = new ManualClock(T0);
  const jwks = new Map([
    [GOOGLE.jwksUri, [trusted.jwk]],
    [OTHER.jwksUri, [otherKey.jwk]],
  ]);
  const idp = new IdpService([GOOGLE, OTHER], {
    clock,
    keySetOf: (issuer) => createLocalJWKSet({ keys: jwks.get(issuer.jwksUri) ?? [] }),
  });
  return { clock, idp };
}

function token(
  claims: { iss?: string; aud?: string; sub?: string | null; ttl?: number } = {},
  key: Key = trusted,
): Promise<string> {
  const iat = Math.floor(T0 / 1000);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: key.jwk.kid! })
    .setIssuer(claims.iss ?? GOOGLE.issuer)
    .setAudience(claims.aud ?? GOOGLE.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (claims.ttl ?? 3_600));
  if (claims.sub !== null) jwt.setSubject(claims.sub ?? 'subject-1');
  return jwt.sign(key.privateKey);
}

describe('IdpService', () => {
  it('answers the issuer and subject of a token signed by a trusted issuer for our audience', async () => {
    const { idp } = setup();
    expect(await idp.verify(await token())).toEqual({ issuer: GOOGLE.issuer, subject: 'subject-1' });
    expect(await idp.verify(await token({ iss: OTHER.issuer }, otherKey))).toEqual({
      issuer: OTHER.issuer,
      subject: 'subject-1',
    });
  });

  it('accepts a token until it expires on the clock, then refuses it as expired', async () => {
    const { idp, clock } = setup();
    const jwt = await token({ ttl: 60 });

    clock.advance(59_000);
    await expect(idp.verify(jwt)).resolves.toMatchObject({ subject: 'subject-1' });

    clock.advance(1_000);
    await expect(idp.verify(jwt)).rejects.toMatchObject({
      code: 'IDENTITY_TOKEN_INVALID',
      message: expect.stringContaining('expired') as unknown,
    });
  });

  it('refuses a token of an issuer this server does not trust', async () => {
    const { idp } = setup();
    await expect(idp.verify(await token({ iss: 'https://evil.test' }))).rejects.toMatchObject({
      code: 'IDENTITY_TOKEN_INVALID',
      message: expect.stringContaining('does not trust') as unknown,
    });
  });

  it("refuses a token naming a trusted issuer but signed with another issuer's key", async () => {
    const { idp } = setup();
    await expect(idp.verify(await token({}, otherKey))).rejects.toMatchObject({
      code: 'IDENTITY_TOKEN_INVALID',
      message: expect.stringContaining('could not be verified') as unknown,
    });
  });

  it('refuses a token for another audience, and one without a subject', async () => {
    const { idp } = setup();
    await expect(idp.verify(await token({ aud: 'someone-else' }))).rejects.toMatchObject({
      code: 'IDENTITY_TOKEN_INVALID',
    });
    await expect(idp.verify(await token({ sub: null }))).rejects.toMatchObject({
      code: 'IDENTITY_TOKEN_INVALID',
      message: expect.stringContaining('no subject') as unknown,
    });
  });

  it('refuses what is not a JWT, and a token whose signature was altered', async () => {
    const { idp } = setup();
    await expect(idp.verify('not-a-jwt')).rejects.toMatchObject({
      code: 'IDENTITY_TOKEN_INVALID',
      message: expect.stringContaining('not a JWT') as unknown,
    });
    const [h, p] = (await token()).split('.');
    const forged = `${h}.${p}.${Buffer.alloc(64, 1).toString('base64url')}`;
    await expect(idp.verify(forged)).rejects.toMatchObject({ code: 'IDENTITY_TOKEN_INVALID' });
  });
});
