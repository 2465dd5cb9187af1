import type { Address, Hash, LocalAccount } from 'viem';
import type { Bytes32, ChainInvite, Signer, WriteOptions } from './chain.types.js';

/** Who may trade a private market: invitations and members. */
export interface MarketMembershipPort {
  /** Creates an invitation on chain; keyed by (duelId, codeHash). */
  createInvite(
    signer: Signer,
    duelId: Bytes32,
    codeHash: Bytes32,
    maxUses: number,
    expiresAt: number,
    opts?: WriteOptions,
  ): Promise<Hash>;
  revokeInvite(signer: Signer, duelId: Bytes32, codeHash: Bytes32, opts?: WriteOptions): Promise<Hash>;
  join(signer: LocalAccount, duelId: Bytes32, codeHash: Bytes32, opts?: WriteOptions): Promise<Hash>;
  /** The legacy server-signer join: the platform joins `member` with a code. */
  joinFor(duelId: Bytes32, codeHash: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash>;
  addMember(signer: Signer, duelId: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash>;
  removeMember(signer: Signer, duelId: Bytes32, member: Address, opts?: WriteOptions): Promise<Hash>;
  isMember(duelId: Bytes32, member: Address): Promise<boolean>;
  invite(duelId: Bytes32, codeHash: Bytes32): Promise<ChainInvite>;
}
