import type {
  ClaimFeesRequest,
  ClaimFeesResponse,
  ClaimWinningsRequest,
  ClaimWinningsResponse,
  CreatorFeeMarket,
  CreatorFeesQuery,
  CreatorFeesResponse,
  MarketClaim,
} from '@duelkit/contract';
import { getAddress, type Address } from 'viem';
import type { Bytes32, ChainPort } from '../../adapters/chain/chain.port.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { OperationContext, WriteKey } from '../../platform/operation-context.js';
import type { Duel } from '../markets/duel.entity.js';
import type { ClaimOutcome } from '../settlement/distribution.service.js';
import type { ClaimsRepository, CreatorFeeMarketRow } from './claims.repository.js';

/** Most markets one claim call looks at; the caller claims again for the rest. */
export const CLAIM_BATCH = 50;

/** The caller of a claim: a signed-in user and their managed wallet. */
export interface Claimant {
  readonly address: string;
}

export interface ClaimsDeps {
  readonly repo: ClaimsRepository;
  readonly chain: Pick<ChainPort, 'feesOwed' | 'claimFees'>;
  readonly duels: { require(duelId: string): Promise<Duel> };
  /** The settlement ledger's pull of one holder's payout. */
  readonly payouts: { claim(duel: Duel, holder: Address, write?: WriteKey): Promise<ClaimOutcome> };
}

const toClaim = (o: ClaimOutcome): MarketClaim => ({
  duelId: o.duelId,
  status: o.status,
  amount: o.amount === null ? null : o.amount.toString(),
  txHash: o.txHash,
});

const submittedTotal = (claims: readonly MarketClaim[]) =>
  claims
    .filter((c) => c.status === 'submitted')
    .reduce((sum, c) => sum + BigInt(c.amount ?? '0'), 0n)
    .toString();

/** Claims of winnings and of creator fees (§4.4, docs/money.md). */
export class ClaimsService {
  constructor(private readonly deps: ClaimsDeps) {}

  /** Pays the caller's payout of one settled market, or of every settled market they are owed by. */
  async claimWinnings(
    ctx: OperationContext,
    caller: Claimant,
    body: ClaimWinningsRequest,
  ): Promise<ClaimWinningsResponse> {
    const holder = getAddress(caller.address);
    const ids = body.duelId ? [body.duelId] : await this.deps.repo.claimableWinnings(holder, CLAIM_BATCH);
    const claims: MarketClaim[] = [];
    for (const id of ids) {
      const duel = await this.deps.duels.require(id);
      claims.push(toClaim(await this.deps.payouts.claim(duel, holder, ctx.writeKey(`payout:${duel.duelId}`))));
    }
    return { claims, totalSubmitted: submittedTotal(claims) };
  }

  async creatorFees(caller: Claimant, query: CreatorFeesQuery): Promise<CreatorFeesResponse> {
    if (query.collateralMode !== query.collateralStack) {
      throw new DomainError('VALIDATION_FAILED', 'collateralMode must equal collateralStack', {
        fieldErrors: { 'query.collateralMode': [`must equal collateralStack (${query.collateralStack})`] },
      });
    }
    const creator = getAddress(caller.address);
    const offset = (query.page - 1) * query.limit;
    const rows = await this.deps.repo.creatorFeeMarkets(creator, query.collateralStack, query.limit, offset);
    const data: CreatorFeeMarket[] = [];
    for (const row of rows) data.push(await this.feeMarket(row, creator, query.collateralStack));
    const totals = await this.deps.repo.creatorFeeTotals(creator, query.collateralStack);
    return {
      data,
      pagination: {
        page: query.page,
        limit: query.limit,
        total: totals.total,
        hasMore: offset + rows.length < totals.total,
      },
      collateralStack: query.collateralStack,
      totalAccrued: totals.accrued,
      totalClaimable: totals.claimable,
      totalPaid: totals.paid,
    };
  }

  /** Sends one claimFees per settled market of the caller (keyed by the market: paid once). */
  async claimFees(ctx: OperationContext, caller: Claimant, body: ClaimFeesRequest): Promise<ClaimFeesResponse> {
    if (body.collateralMode !== undefined && body.collateralMode !== body.collateralStack) {
      throw new DomainError('VALIDATION_FAILED', 'collateralMode must equal collateralStack', {
        fieldErrors: { 'body.collateralMode': [`must equal collateralStack (${body.collateralStack})`] },
      });
    }
    const creator = getAddress(caller.address);
    let ids: string[];
    if (body.duelId) {
      const duel = await this.deps.duels.require(body.duelId);
      if (getAddress(duel.creatorAddress) !== creator) {
        throw new DomainError('FORBIDDEN', 'Only the market’s creator may claim its fees', {
          details: { duelId: duel.duelId },
        });
      }
      if (duel.status !== 'settled') {
        throw new DomainError('INVALID_STATE', `Duel ${duel.duelId} is not settled: its fees are not claimable yet`, {
          details: { duelId: duel.duelId, status: duel.status },
        });
      }
      if (duel.collateralStack !== body.collateralStack) {
        throw new DomainError('VALIDATION_FAILED', `Duel ${duel.duelId} settles in ${duel.collateralStack}`, {
          fieldErrors: { 'body.collateralStack': [`the market's collateral is ${duel.collateralStack}`] },
        });
      }
      ids = [duel.duelId];
    } else {
      ids = await this.deps.repo.claimableFeeMarkets(creator, body.collateralStack, CLAIM_BATCH);
    }
    const claims: MarketClaim[] = [];
    for (const id of ids)
      claims.push(await this.claimFeesOf(id, creator, body.collateralStack, ctx.writeKey(`claim-fees:${id}`)));
    return { claims, totalSubmitted: submittedTotal(claims) };
  }

  private async claimFeesOf(
    duelId: string,
    creator: Address,
    stack: 'usdc' | 'credits',
    write: WriteKey,
  ): Promise<MarketClaim> {
    const { repo, chain } = this.deps;
    const existing = await repo.feeClaim(duelId);
    if (existing?.status === 'paid') {
      return { duelId, status: 'already_paid', amount: existing.amount, txHash: existing.tx_hash };
    }
    const owed = await chain.feesOwed(duelId as Bytes32);
    if (owed.claimed) {
      // Claimed on chain; the row may be missing (sent before a crash) or still `submitted`.
      await repo.markFeesPaid({ duelId, creator, stack, amount: BigInt(existing?.amount ?? '0') });
      const row = await repo.feeClaim(duelId);
      return { duelId, status: 'already_paid', amount: row?.amount ?? null, txHash: row?.tx_hash ?? null };
    }
    if (owed.amount === 0n) return { duelId, status: 'nothing_to_claim', amount: null, txHash: null };
    try {
      const txHash = await chain.claimFees(duelId as Bytes32, {
        write,
        record: (sql, hash) => repo.recordFeeClaim(sql, { duelId, creator, stack, amount: owed.amount, txHash: hash }),
      });
      const row = await repo.feeClaim(duelId);
      return { duelId, status: 'submitted', amount: row?.amount ?? owed.amount.toString(), txHash };
    } catch (err) {
      if (!isDomainError(err) || err.code !== 'ALREADY_PAID') throw err;
      await repo.markFeesPaid({ duelId, creator, stack, amount: owed.amount });
      const row = await repo.feeClaim(duelId);
      return { duelId, status: 'already_paid', amount: row?.amount ?? null, txHash: row?.tx_hash ?? null };
    }
  }

  /** One market of the fee list; a `submitted` claim the chain has paid is recorded as paid on the way. */
  private async feeMarket(
    row: CreatorFeeMarketRow,
    creator: Address,
    stack: 'usdc' | 'credits',
  ): Promise<CreatorFeeMarket> {
    let claimStatus = row.claim_status;
    if (claimStatus === 'submitted' && (await this.deps.chain.feesOwed(row.duel_id as Bytes32)).claimed) {
      await this.deps.repo.markFeesPaid({
        duelId: row.duel_id,
        creator,
        stack,
        amount: BigInt(row.claim_amount ?? '0'),
      });
      claimStatus = 'paid';
    }
    const status: CreatorFeeMarket['status'] =
      claimStatus ?? (row.status === 'settled' ? 'claimable' : row.status === 'cancelled' ? 'refunded' : 'accruing');
    return {
      duelId: row.duel_id,
      question: row.question,
      duelStatus: row.status,
      accrued: row.accrued,
      claimable: status === 'claimable' ? row.accrued : '0',
      status,
      paidAmount: claimStatus === 'paid' ? (row.claim_amount ?? null) : null,
      txHash: row.claim_tx_hash,
    };
  }
}
