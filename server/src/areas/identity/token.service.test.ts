import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../platform/clock.js';
import { TokenService } from './token.service.js';

const claims = { sub: 'u1', bap: 'app', address: '0x0000000000000000000000000000000000000001', eoaAddress: null };

describe('TokenService', () => {
  it('a token verified once keeps verifying until it expires, then answers TOKEN_EXPIRED', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const tokens = new TokenService('a-secret-of-enough-length-0123456789', [], 60, 60, clock);
    const { token } = await tokens.signUser(claims);
    expect((await tokens.verifyUser(token)).sub).toBe('u1');
    expect((await tokens.verifyUser(token)).sub).toBe('u1');
    clock.advance(61_000);
    await expect(tokens.verifyUser(token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
  });

  it('remembers a verification per audience: a user token is never an admin token', async () => {
    const tokens = new TokenService('a-secret-of-enough-length-0123456789', [], 60, 60, systemClock);
    const { token } = await tokens.signUser(claims);
    await tokens.verifyUser(token);
    await expect(tokens.verifyAdmin(token, 'duelkit:admin')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('a tampered token fails even after the genuine one verified', async () => {
    const tokens = new TokenService('a-secret-of-enough-length-0123456789', [], 60, 60, systemClock);
    const { token } = await tokens.signUser(claims);
    await tokens.verifyUser(token);
    const [h, p, s] = token.split('.') as [string, string, string];
    const tampered = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(tokens.verifyUser(tampered)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });
});
