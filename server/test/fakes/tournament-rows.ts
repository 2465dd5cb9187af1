import { getAddress, type Address, type LocalAccount } from 'viem';
import type { SignerLookup } from '../../src/areas/tournaments/tournament-bond.service.js';
import type {
  Actor,
  FixtureRow,
  StageRow,
  TournamentRow,
  TournamentSettings,
} from '../../src/areas/tournaments/tournament.types.js';
import { tournamentPoolId } from '../../src/areas/tournaments/vault-pools.js';
import { isDomainError } from '../../src/errors.js';
import type { IdempotentRun } from '../../src/platform/idempotency/idempotent-run.js';

/*
 * The rows, actors and settings the tournaments area's unit tests start from, and the helpers that
 * read a refusal's code.
 */

export const UNIT = 10n ** 18n;
export const HOUR = 3_600_000;
/** Where the tournament fakes' clocks start: 08:00 UTC. */
export const T0 = Date.UTC(2026, 11, 1, 8);
/** The default tournament id: 12 bytes of hex, as clients generate them. */
export const TID = 'ab'.repeat(12);
export const at = (hoursAfterT0: number) => new Date(T0 + hoursAfterT0 * HOUR);

/** The owner of `TournamentWorld.liveFinal` tournaments, and two wallets to enter them with. */
export const CREATOR = getAddress('0x00000000000000000000000000000000000000c0');
export const ALICE = getAddress('0x00000000000000000000000000000000000000a1');
export const BOB = getAddress('0x00000000000000000000000000000000000000b0');

/** A 32-byte hash made of one repeated byte. */
export function hash(n: number): `0x${string}` {
  return `0x${(n % 256).toString(16).padStart(2, '0').repeat(32)}`;
}

/** An actor acting for `wallet` with a wallet credential (no managed wallet). */
export function actor(wallet: Address): Actor {
  return { wallet, userId: null, builderAppId: null, senders: [wallet] };
}

/** A wallet whose every hex digit is `digit`, as an actor with a managed wallet. */
export function actorOf(digit: string, userId: string | null = `user-${digit}`): Actor {
  const wallet = getAddress(`0x${digit.repeat(40)}`);
  return { wallet, userId, builderAppId: null, senders: [wallet] };
}

/** The managed wallets' signers of `actors`, by user id (only the address is used by the fakes). */
export function signersOf(...actors: Actor[]): SignerLookup {
  return {
    forUser: (userId) => {
      const actor = actors.find((a) => a.userId === userId);
      return actor
        ? Promise.resolve({ address: actor.wallet } as LocalAccount)
        : Promise.reject(new Error(`no signer for ${userId}`));
    },
  };
}

/** The run of a request carrying an Idempotency-Key (`resumed`: a retry that took over). */
export function idempotentRun(recordId: string, resumed = false): IdempotentRun {
  return {
    recordId,
    successStatus: 200,
    shape: (body) => body,
    resumed,
    names: new Set(),
    scoped: new Map(),
    effectStarted: resumed,
    pending: undefined,
  };
}

/** The domain error code a promise rejects with, or 'ok'. */
export function codeOf(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'ok',
    (e: unknown) => (isDomainError(e) ? e.code : `thrown: ${String(e)}`),
  );
}

/** The domain error a promise rejects with (fails when it resolves). */
export async function errorOf(p: Promise<unknown>) {
  const e: unknown = await p.then(
    () => new Error('expected a refusal, got a result'),
    (err: unknown) => err,
  );
  if (!isDomainError(e)) throw e;
  return e;
}

/** The area's settings as the tests assume them: a 10-unit credits bond, 24 h market windows. */
export function tournamentSettings(over: Partial<TournamentSettings> = {}): TournamentSettings {
  return {
    bondAmount: 10n * UNIT,
    bondAsset: 'credits',
    chipsPerStage: 1000,
    maxEntrants: 64,
    groupSize: 4,
    advancePerGroup: 2,
    fixturesPerStage: 2,
    leagueId: 8,
    feeBps: 500,
    payoutBps: [6000, 2500, 1500],
    stageHours: 24,
    startLeadMinutes: 60,
    fixtureExpiryHours: 48,
    resultsIntervalMs: 60_000,
    disputeWindowHours: 24,
    finalDisputeWindowHours: 48,
    disputeResolveHours: 72,
    automationIntervalMs: 60_000,
    treasury: `0x${'7'.repeat(40)}`,
    timeoutsIntervalMs: 60_000,
    ...over,
  };
}

/** A LIVE two-stage knockout in credits starting 24 h after T0; `over` replaces any field. */
export function tournamentRow(over: Partial<TournamentRow> = {}): TournamentRow {
  return {
    id: TID,
    builderAppId: null,
    name: 'Cup',
    description: null,
    sport: 'football',
    league: null,
    category: null,
    gameType: 'CLASSIC',
    format: 'KNOCKOUT',
    type: 'COMMUNITY',
    status: 'LIVE',
    stakeAsset: 'credits',
    ownerWallet: actorOf('a').wallet,
    ownerUserId: 'user-a',
    totalStages: 2,
    minEntries: 2,
    maxEntrants: 4,
    chipsPerStage: 1000,
    groupSize: 4,
    advancePerGroup: 2,
    fixturesPerStage: 2,
    leagueId: 8,
    feeBps: 500,
    payoutBps: [6000, 2500, 1500],
    creatorDepositTxHash: `0x${'c0'.repeat(32)}`,
    startsAt: at(24),
    endsAt: at(72),
    activatedAt: null,
    completedAt: null,
    championWallet: null,
    createdAt: at(0),
    cancelledAt: null,
    cancelReason: null,
    cancelledBy: null,
    discardedAt: null,
    entryCount: 0,
    prizePool: '0',
    firstOpenStage: 1,
    ...over,
    poolId: over.poolId ?? tournamentPoolId(over.id ?? TID),
  };
}

export function stageRow(index: number, over: Partial<StageRow> = {}): StageRow {
  const start = at(24 * index);
  return {
    id: `s-${index}`,
    tournamentId: TID,
    stageIndex: index,
    stageName: `Stage ${index}`,
    kind: 'KNOCKOUT',
    buyin: index === 1 ? (5n * UNIT).toString() : '0',
    multiplier: 1,
    isFinal: false,
    startChips: 1000,
    windowStart: start,
    windowEnd: new Date(start.getTime() + 24 * HOUR),
    startsAt: start,
    lockAt: start,
    endsAt: new Date(start.getTime() + 4 * HOUR),
    lastLockAt: new Date(start.getTime() + 2 * HOUR),
    completedAt: null,
    participants: 0,
    ...over,
  };
}

export function fixtureRow(id: string, stageId: string, over: Partial<FixtureRow> = {}): FixtureRow {
  return {
    id,
    tournamentId: TID,
    stageId,
    providerFixtureId: 1,
    title: `${id} home v away`,
    homeTeam: 'Home',
    awayTeam: 'Away',
    startsAt: at(24),
    lockAt: at(24),
    endsAt: at(26),
    expiresAt: at(74),
    oddsHome: 200,
    oddsDraw: 300,
    oddsAway: 400,
    result: null,
    homeScore: null,
    awayScore: null,
    settledAt: null,
    ...over,
  };
}
