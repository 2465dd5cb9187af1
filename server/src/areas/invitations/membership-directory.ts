import type { MarketMembershipPort } from '../../adapters/chain/market-membership.port.js';
import type { MembershipLookup } from '../markets/market-access.js';
import type { InvitationRepository } from './invitation.repository.js';

/** Where a membership answer came from. */
export type MembershipSource = 'database' | 'chain';

/**
 * Who belongs to a private market: the database first (joins recorded by this service and by the
 * indexer), then the chain, which also knows joins a frontend sent itself that are not indexed yet.
 */
export class MembershipDirectory implements MembershipLookup {
  constructor(
    private readonly repo: InvitationRepository,
    private readonly chain: Pick<MarketMembershipPort, 'isMember'>,
  ) {}

  async isMember(duelId: string, address: string): Promise<boolean> {
    return (await this.lookup(duelId, address)).isMember;
  }

  /** `address` in EIP-55 form. */
  async lookup(duelId: string, address: string): Promise<{ isMember: boolean; source: MembershipSource }> {
    if (await this.repo.isActiveMember(duelId, address)) return { isMember: true, source: 'database' };
    const onChain = await this.chain.isMember(duelId.toLowerCase() as `0x${string}`, address as `0x${string}`);
    return { isMember: onChain, source: 'chain' };
  }
}
