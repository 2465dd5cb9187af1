import { keccak256, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { mined, openMarket, type ChainHarness } from './chain-harness.js';

/** What every `MarketMembershipPort` does: run against the fake and the viem adapter (see market-trading.behaviour.ts). */
export function describeMarketMembership(name: string, harness: () => ChainHarness): void {
  describe(`MarketMembershipPort: ${name}`, () => {
    it('joins with a live invite, spending one use; a second join is ALREADY_MEMBER', async () => {
      const h = harness();
      const { duelId, creator } = await openMarket(h, { isPrivate: true });
      const code = keccak256(toHex(`code:${duelId}`));
      await mined(h, await h.membership.createInvite(creator, duelId, code, 2, 0));
      const member = h.newAccount();
      expect(await h.membership.isMember(duelId, member.address)).toBe(false);
      await mined(h, await h.membership.join(member, duelId, code));
      expect(await h.membership.isMember(duelId, member.address)).toBe(true);
      expect(await h.membership.invite(duelId, code)).toEqual({
        exists: true,
        maxUses: 2,
        uses: 1,
        expiresAt: 0,
        revoked: false,
      });
      await expect(h.membership.join(member, duelId, code)).rejects.toMatchObject({ code: 'ALREADY_MEMBER' });
    });

    it('refuses an exhausted invite with INVITE_EXHAUSTED and a revoked one with INVITE_REVOKED', async () => {
      const h = harness();
      const { duelId, creator } = await openMarket(h, { isPrivate: true });
      const once = keccak256(toHex(`once:${duelId}`));
      await mined(h, await h.membership.createInvite(creator, duelId, once, 1, 0));
      await mined(h, await h.membership.join(h.newAccount(), duelId, once));
      await expect(h.membership.join(h.newAccount(), duelId, once)).rejects.toMatchObject({
        code: 'INVITE_EXHAUSTED',
      });
      const revoked = keccak256(toHex(`revoked:${duelId}`));
      await mined(h, await h.membership.createInvite(creator, duelId, revoked, 0, 0));
      await mined(h, await h.membership.revokeInvite(creator, duelId, revoked));
      await expect(h.membership.join(h.newAccount(), duelId, revoked)).rejects.toMatchObject({
        code: 'INVITE_REVOKED',
      });
    });

    it('lets only the creator or the platform add members (FORBIDDEN otherwise)', async () => {
      const h = harness();
      const { duelId, creator } = await openMarket(h, { isPrivate: true });
      const member = h.newAccount();
      await expect(h.membership.addMember(h.newAccount(), duelId, member.address)).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
      await mined(h, await h.membership.addMember('platform', duelId, member.address));
      expect(await h.membership.isMember(duelId, member.address)).toBe(true);
      await mined(h, await h.membership.removeMember(creator, duelId, member.address));
      expect(await h.membership.isMember(duelId, member.address)).toBe(false);
    });
  });
}
