import { getAddress, type Address, type Hash, type LocalAccount } from 'viem';
import type { Bytes32, ChainInvite, Signer, WriteOptions } from '../../src/adapters/chain/chain.types.js';
import type { MarketMembershipPort } from '../../src/adapters/chain/market-membership.port.js';
import { revertError } from '../../src/adapters/chain/revert-errors.js';
import { InMemoryChain } from './in-memory-chain.js';

/**
 * `MarketMembershipPort` over an in-memory chain, as the contract rules it: the creator or the
 * platform manages invites and members; a join spends one use of a live invite (expiry judged by
 * the chain's time, i.e. the test clock).
 */
export class FakeMarketMembership implements MarketMembershipPort {
  constructor(private readonly chain: InMemoryChain) {}

  createInvite(
    signer: Signer,
    duelId: Bytes32,
    codeHash: Bytes32,
    maxUses: number,
    expiresAt: number,
    opts?: WriteOptions,
  ): Promise<Hash> {
    const from = this.chain.accountOf(signer);
    return this.chain.write(
      {
        from,
        naturalKey: `markets.create_invite:${duelId}:${codeHash}`,
        apply: () => {
          this.chain.assertCreatorOrPlatform(this.chain.known(duelId), from);
          const key = this.chain.inviteKey(duelId, codeHash);
          if (this.chain.invites.has(key)) throw revertError('InviteExists');
          this.chain.invites.set(key, { maxUses, uses: 0, expiresAt, revoked: false });
          return [{ kind: 'invite_created', duelId, codeHash, maxUses, expiresAt }];
        },
      },
      opts,
    );
  }

  revokeInvite(signer: Signer, duelId: Bytes32, codeHash: Bytes32, opts?: WriteOptions): Promise<Hash> {
    const from = this.chain.accountOf(signer);
    return this.chain.write(
      {
        from,
        apply: () => {
          this.chain.assertCreatorOrPlatform(this.chain.known(duelId), from);
          const invite = this.chain.invites.get(this.chain.inviteKey(duelId, codeHash));
          if (!invite) throw revertError('InviteUnknown');
          invite.revoked = true;
          return [{ kind: 'invite_revoked', duelId, codeHash }];
        },
      },
      opts,
    );
  }

  join(signer: LocalAccount, duelId: Bytes32, codeHash: Bytes32, opts?: WriteOptions): Promise<Hash> {
    const member = this.chain.accountOf(signer);
    return this.chain.write({ from: member, apply: () => this.joinNow(duelId, codeHash, member) }, opts);
  }

  joinFor(duelId: Bytes32, codeHash: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash> {
    return this.chain.write(
      { from: this.chain.operator, apply: () => this.joinNow(duelId, codeHash, getAddress(member)) },
      opts,
    );
  }

  addMember(signer: Signer, duelId: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash> {
    const from = this.chain.accountOf(signer);
    const who = getAddress(member);
    return this.chain.write(
      {
        from,
        apply: () => {
          this.chain.assertCreatorOrPlatform(this.chain.known(duelId), from);
          if (this.chain.isMember(duelId, who)) throw revertError('AlreadyMember');
          this.chain.setMember(duelId, who, true);
          return [{ kind: 'member_added', duelId, member: who, codeHash: InMemoryChain.zeroHash }];
        },
      },
      opts,
    );
  }

  removeMember(signer: Signer, duelId: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash> {
    const from = this.chain.accountOf(signer);
    const who = getAddress(member);
    return this.chain.write(
      {
        from,
        apply: () => {
          const m = this.chain.known(duelId);
          this.chain.assertCreatorOrPlatform(m, from);
          if (who === getAddress(m.creator)) throw revertError('NotAuthorized');
          if (!this.chain.isMember(duelId, who)) throw revertError('NotMember');
          this.chain.setMember(duelId, who, false);
          return [{ kind: 'member_removed', duelId, member: who }];
        },
      },
      opts,
    );
  }

  isMember(duelId: Bytes32, member: Address): Promise<boolean> {
    return Promise.resolve(this.chain.isMember(duelId, getAddress(member)));
  }

  invite(duelId: Bytes32, codeHash: Bytes32): Promise<ChainInvite> {
    const invite = this.chain.invites.get(this.chain.inviteKey(duelId, codeHash));
    return Promise.resolve(
      invite ? { exists: true, ...invite } : { exists: false, maxUses: 0, uses: 0, expiresAt: 0, revoked: false },
    );
  }

  /** The contract's `_join`. */
  private joinNow(duelId: Bytes32, codeHash: Bytes32, member: Address) {
    this.chain.known(duelId);
    const invite = this.chain.invites.get(this.chain.inviteKey(duelId, codeHash));
    if (!invite) throw revertError('InviteUnknown');
    if (invite.revoked) throw revertError('InviteRevoked');
    if (invite.expiresAt !== 0 && this.chain.timestamp >= invite.expiresAt) {
      throw revertError('InviteExpired', [invite.expiresAt]);
    }
    if (invite.maxUses !== 0 && invite.uses >= invite.maxUses) throw revertError('InviteExhausted', [invite.maxUses]);
    if (this.chain.isMember(duelId, member)) throw revertError('AlreadyMember');
    invite.uses += 1;
    this.chain.setMember(duelId, member, true);
    return [{ kind: 'member_added' as const, duelId, member, codeHash }];
  }
}
