import { randomBytes } from 'node:crypto';
import { getAddress, isAddress, recoverTypedDataAddress, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DomainError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { OperationContext } from '../../platform/operation.context.js';
import type { LegView, ParlayCatalogueService, ResolvedLeg } from './parlay-catalogue.service.js';
import {
  BPS,
  ODDS_SCALE,
  combinedOdds,
  feeOf,
  formatOdds,
  minimumOdds,
  priceTicket,
  productOfOdds,
} from './parlay-pricing.math.js';
import { outcomeKey, type ParlayRepository, type StoredQuote } from './parlay.repository.js';
import type { LegInput, ParlaySettings } from './parlay.types.js';

/** The EIP-712 types a ticket contract verifies (docs/parlays.md, "Signed quotes"). */
export const QUOTE_TYPES = {
  Leg: [
    { name: 'conditionId', type: 'bytes32' },
    { name: 'outcomeId', type: 'uint64' },
    { name: 'odds', type: 'uint256' },
  ],
  ParlayQuote: [
    { name: 'bettor', type: 'address' },
    { name: 'legs', type: 'Leg[]' },
    { name: 'stake', type: 'uint256' },
    { name: 'payout', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiresAt', type: 'uint64' },
  ],
} as const;

export const QUOTE_DOMAIN_NAME = 'Duelkit Parlay';
export const QUOTE_DOMAIN_VERSION = '1';

/** The signed message as it travels: integers as decimal strings. */
export interface QuoteMessage {
  bettor: Address;
  legs: { conditionId: Hex; outcomeId: number; odds: string }[];
  stake: string;
  payout: string;
  nonce: string;
  expiresAt: number;
}

/** The typed data as it travels (and is stored): plain JSON. */
export interface WireTypedData {
  domain: { name: string; version: string; chainId: number; verifyingContract: Hex };
  types: Record<string, { name: string; type: string }[]>;
  primaryType: 'ParlayQuote';
  message: QuoteMessage;
}

/** Why the pool refused a quote: the limit, its cap and what is held against it already. */
interface Refusal {
  limit: 'perOutcome' | 'perGame' | 'poolShare';
  cap: bigint;
  current: bigint;
  conditionId?: Hex;
  outcomeId?: number;
  marketId?: string;
}

export type QuoteStore = Pick<ParlayRepository, 'reserve' | 'quote' | 'quoteByNonce' | 'nextNonce'>;

export interface QuoteDeps {
  readonly catalogue: Pick<ParlayCatalogueService, 'checkLegs'>;
  readonly store: QuoteStore;
  readonly clock: Clock;
  readonly settings: ParlaySettings;
  readonly chainId: number;
}

export interface QuoteRequest {
  readonly bettor: string;
  readonly legs: readonly LegInput[];
  readonly stake: string;
  readonly slippageBps?: number | undefined;
}

/**
 * Signed parlay quotes: legs checked against the catalogue, priced (margin once, fee on the
 * stake), held against the pool's risk limits under its lock, then signed as EIP-712 typed data
 * bound to the bettor, a fresh nonce and an expiry; and re-checked before placement.
 */
export class ParlayQuoteService {
  private readonly signer;

  constructor(private readonly deps: QuoteDeps) {
    this.signer = privateKeyToAccount(deps.settings.signerKey);
  }

  /** The address whose signature a ticket contract accepts. */
  get signerAddress(): Address {
    return this.signer.address;
  }

  async quote(ctx: Pick<OperationContext, 'now'>, callers: readonly Address[], req: QuoteRequest) {
    const s = this.deps.settings;
    const book = s.bookAddress;
    if (!book) throw new DomainError('SERVICE_UNAVAILABLE', 'Parlay tickets are not deployed on this chain');
    if (!isAddress(req.bettor) || getAddress(req.bettor) === zeroAddress) {
      throw new DomainError('VALIDATION_FAILED', 'A real bettor address is required', {
        fieldErrors: { bettor: ['a 0x-prefixed 20-byte address, not the zero address'] },
      });
    }
    const bettor = getAddress(req.bettor);
    if (!callers.includes(bettor)) throw new DomainError('QUOTE_NOT_YOURS', 'Quotes are bound to the calling wallet');
    const legs = await this.checkedLegs(req.legs, ctx.now);
    const stake = BigInt(req.stake);
    if (stake < s.minStake)
      throw limit('minStake', `The stake is below the minimum of ${s.minStake}`, s.minStake, stake);
    const odds = combinedOdds(
      legs.map((l) => l.odds),
      s.marginBps,
    );
    const maxOdds = (BigInt(s.maxOddsX100) * ODDS_SCALE) / 100n;
    if (odds > maxOdds) throw limit('maxOdds', `The ticket's odds exceed ${formatOdds(maxOdds)}`, maxOdds, odds);
    const price = priceTicket(stake, odds, s.feeBps);
    if (price.payout > s.maxPayout)
      throw limit('maxPayout', 'The payout exceeds the maximum', s.maxPayout, price.payout);
    const now = ctx.now.getTime();
    const expiresAt = Math.floor(now / 1000) + s.quoteTtlSeconds;
    const legRows = legs.map((l) => ({ conditionId: l.conditionId, outcomeId: l.outcomeId, fixtureId: l.fixtureId }));
    const id = `pq_${randomBytes(12).toString('hex')}`;
    const result = await this.deps.store.reserve<Refusal>(legRows, new Date(now), (held) => {
      for (const l of uniqueBy(legs, (x) => outcomeKey(x.conditionId, x.outcomeId))) {
        const current = held.byOutcome.get(outcomeKey(l.conditionId, l.outcomeId)) ?? 0n;
        if (current + price.exposure > s.capPerOutcome) {
          return {
            ok: false,
            refusal: {
              limit: 'perOutcome',
              cap: s.capPerOutcome,
              current,
              conditionId: l.conditionId,
              outcomeId: l.outcomeId,
            },
          };
        }
      }
      for (const fixtureId of new Set(legs.map((l) => l.fixtureId))) {
        const current = held.byGame.get(fixtureId) ?? 0n;
        if (current + price.exposure > s.capPerGame) {
          return { ok: false, refusal: { limit: 'perGame', cap: s.capPerGame, current, marketId: String(fixtureId) } };
        }
      }
      const free = held.cash > held.total ? held.cash - held.total : 0n;
      const cap = (free * BigInt(s.poolPayoutShareBps)) / BPS;
      if (price.payout > cap) return { ok: false, refusal: { limit: 'poolShare', cap, current: held.total } };
      return {
        ok: true,
        legs: legRows,
        quote: {
          id,
          bettor: bettor.toLowerCase(),
          stake,
          fee: price.fee,
          odds,
          payout: price.payout,
          exposure: price.exposure,
          expectedLiability: (price.payout * ODDS_SCALE) / productOfOdds(legs.map((l) => l.odds)),
          legs: legs.map((l) => l.view),
          typedData: null,
          signature: '',
          status: 'quoted',
          expiresAt: new Date(expiresAt * 1000),
          createdAt: new Date(now),
        },
        sign: async (nonce) => {
          const message: QuoteMessage = {
            bettor,
            legs: legs.map((l) => ({ conditionId: l.conditionId, outcomeId: l.outcomeId, odds: l.odds.toString() })),
            stake: stake.toString(),
            payout: price.payout.toString(),
            nonce: nonce.toString(),
            expiresAt,
          };
          const typedData = this.typedData(book, message);
          return { typedData, signature: await this.signer.signTypedData(toSignable(typedData)) };
        },
      };
    });
    if (!result.ok) {
      const r = result.refusal;
      throw new DomainError(
        'EXPOSURE_LIMIT',
        `The pool cannot carry this ticket: the ${r.limit} limit would be exceeded`,
        {
          details: { ...r, cap: r.cap.toString(), current: r.current.toString(), requested: price.exposure.toString() },
        },
      );
    }
    return this.view(result.quote, req.slippageBps ?? 0);
  }

  /** Legs checked as a quote would check them, with the ticket's odds when they pass. */
  async validateLegs(input: readonly LegInput[]) {
    const legs = await this.checkedLegs(input);
    const odds = combinedOdds(
      legs.map((l) => l.odds),
      this.deps.settings.marginBps,
    );
    return { valid: true as const, legs: legs.map((l) => l.view), combinedOdds: formatOdds(odds) };
  }

  /** What the ticket contract charges and the limits of one ticket. */
  feesConfig() {
    const s = this.deps.settings;
    return {
      feeBps: s.feeBps,
      marginBps: s.marginBps,
      decimals: 18,
      minStake: s.minStake.toString(),
      maxPayout: s.maxPayout.toString(),
      maxLegs: s.maxLegs,
      maxOdds: formatOdds((BigInt(s.maxOddsX100) * ODDS_SCALE) / 100n),
      quoteTtlSeconds: s.quoteTtlSeconds,
      maxDriftBps: s.maxDriftBps,
    };
  }

  /** The fee on a stake, floored to the base unit as the contract floors it. */
  feePreview(amount: string) {
    const stake = BigInt(amount);
    const fee = feeOf(stake, this.deps.settings.feeBps);
    return {
      amount: stake.toString(),
      fee: fee.toString(),
      netStake: (stake - fee).toString(),
      feeBps: this.deps.settings.feeBps,
    };
  }

  async get(quoteId: string) {
    const q = await this.deps.store.quote(quoteId);
    if (!q) throw new DomainError('NOT_FOUND', 'No such quote');
    return this.view(q, 0);
  }

  async nonce(address: string) {
    const bettor = getAddress(address);
    return { address: bettor, nonce: (await this.deps.store.nextNonce(bettor)).toString() };
  }

  /**
   * Re-checks a signed quote before placement, as the ticket contract will and more: the
   * signature over exactly these fields, the bettor, the nonce unused, the expiry, the legs still
   * open, and the odds not drifted beyond the allowed share since the quote.
   */
  async validate(ctx: Pick<OperationContext, 'now'>, callers: readonly Address[], quote: QuoteMessage, signature: Hex) {
    const book = this.deps.settings.bookAddress;
    if (!book) throw new DomainError('SERVICE_UNAVAILABLE', 'Parlay tickets are not deployed on this chain');
    const signer = await recoverTypedDataAddress({ ...toSignable(this.typedData(book, quote)), signature }).catch(
      () => null,
    );
    if (signer !== this.signer.address) {
      throw new DomainError('QUOTE_INVALID', 'The signature does not cover these quote fields', {
        details: { reason: 'signature' },
      });
    }
    const bettor = getAddress(quote.bettor);
    if (!callers.includes(bettor)) throw new DomainError('QUOTE_NOT_YOURS', 'This quote is bound to another bettor');
    const stored = await this.deps.store.quoteByNonce(bettor, BigInt(quote.nonce));
    if (!stored || stored.signature.toLowerCase() !== signature.toLowerCase()) {
      throw new DomainError('QUOTE_INVALID', 'No such quote was issued', { details: { reason: 'unknown' } });
    }
    if (stored.status !== 'quoted') throw new DomainError('NONCE_USED', 'This quote was placed already');
    const now = ctx.now.getTime();
    if (quote.expiresAt * 1000 <= now) {
      throw new DomainError('QUOTE_EXPIRED', 'The quote has expired; ask for a new one', {
        details: { expiresAt: new Date(quote.expiresAt * 1000).toISOString() },
      });
    }
    const legs = await this.checkedLegs(quote.legs, ctx.now);
    const current = combinedOdds(
      legs.map((l) => l.odds),
      this.deps.settings.marginBps,
    );
    const floor = (stored.odds * (BPS - BigInt(this.deps.settings.maxDriftBps))) / BPS;
    if (current < floor) {
      throw new DomainError('ODDS_DRIFTED', 'The odds moved beyond the allowed drift since the quote', {
        details: { quotedOdds: formatOdds(stored.odds), currentOdds: formatOdds(current) },
      });
    }
    return {
      valid: true as const,
      quoteId: stored.id,
      quotedOdds: formatOdds(stored.odds),
      currentOdds: formatOdds(current),
      expiresAt: new Date(quote.expiresAt * 1000).toISOString(),
      secondsLeft: Math.floor((quote.expiresAt * 1000 - now) / 1000),
    };
  }

  private async checkedLegs(input: readonly LegInput[], at?: Date): Promise<readonly ResolvedLeg[]> {
    const check = await this.deps.catalogue.checkLegs(input, at);
    if (!check.valid) {
      throw new DomainError('LEGS_INVALID', 'These legs cannot go on one ticket', { fieldErrors: check.fieldErrors });
    }
    return check.legs;
  }

  private typedData(book: Hex, message: QuoteMessage) {
    return {
      domain: {
        name: QUOTE_DOMAIN_NAME,
        version: QUOTE_DOMAIN_VERSION,
        chainId: this.deps.chainId,
        verifyingContract: book,
      },
      types: QUOTE_TYPES,
      primaryType: 'ParlayQuote' as const,
      message,
    };
  }

  private view(q: StoredQuote, slippageBps: number) {
    const now = this.deps.clock.now();
    return {
      quoteId: q.id,
      bettor: getAddress(q.bettor),
      legs: q.legs as LegView[],
      stake: q.stake.toString(),
      fee: q.fee.toString(),
      netStake: (q.stake - q.fee).toString(),
      odds: formatOdds(q.odds),
      minOdds: formatOdds(minimumOdds(q.odds, slippageBps)),
      payout: q.payout.toString(),
      exposure: q.exposure.toString(),
      nonce: q.nonce.toString(),
      expiresAt: q.expiresAt.toISOString(),
      status:
        q.status !== 'quoted'
          ? ('placed' as const)
          : q.expiresAt.getTime() <= now
            ? ('expired' as const)
            : ('quoted' as const),
      signer: this.signer.address,
      signature: q.signature as Hex,
      typedData: q.typedData as WireTypedData,
    };
  }
}

function limit(name: string, message: string, cap: bigint, requested: bigint): DomainError {
  return new DomainError('PARLAY_LIMIT', message, {
    details: { limit: name, cap: cap.toString(), requested: requested.toString() },
  });
}

function uniqueBy<T>(xs: readonly T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
}

/** The typed data with integers as bigint, as a signer takes it. */
function toSignable(t: {
  domain: { name: string; version: string; chainId: number; verifyingContract: Hex };
  message: QuoteMessage;
}) {
  return {
    domain: t.domain,
    types: QUOTE_TYPES,
    primaryType: 'ParlayQuote' as const,
    message: {
      bettor: t.message.bettor,
      legs: t.message.legs.map((l) => ({
        conditionId: l.conditionId,
        outcomeId: BigInt(l.outcomeId),
        odds: BigInt(l.odds),
      })),
      stake: BigInt(t.message.stake),
      payout: BigInt(t.message.payout),
      nonce: BigInt(t.message.nonce),
      expiresAt: BigInt(t.message.expiresAt),
    },
  };
}
