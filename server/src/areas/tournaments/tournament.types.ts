import type { Address } from 'viem';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type {
  FixtureResult,
  ParticipantStatus,
  PickOutcome,
  StageKind,
  TournamentFormat,
} from './tournament-format.js';

/** Who acts on a write: the wallet that enters, picks, creates; and the addresses that may have paid for it. */
export interface Actor {
  /** The managed wallet of a bearer token, or the signing wallet of a wallet credential. */
  readonly wallet: Address;
  readonly userId: string | null;
  readonly builderAppId: string | null;
  /** Deposits from these count as the actor's: the managed wallet and the signing EOA. */
  readonly senders: readonly Address[];
}

export type TournamentStatus = 'LIVE' | 'COMPLETED' | 'CANCELED';

export interface TournamentRow {
  id: string;
  builderAppId: string | null;
  name: string;
  description: string | null;
  sport: string;
  league: string | null;
  category: string | null;
  gameType: 'CLASSIC' | 'F1_GRID_PREDICTOR';
  format: TournamentFormat;
  type: 'PROTOCOL' | 'COMMUNITY';
  status: TournamentStatus;
  stakeAsset: CollateralKind;
  ownerWallet: Address;
  ownerUserId: string | null;
  totalStages: number;
  minEntries: number;
  maxEntrants: number;
  chipsPerStage: number;
  groupSize: number;
  advancePerGroup: number;
  fixturesPerStage: number;
  leagueId: number;
  feeBps: number;
  payoutBps: number[];
  creatorDepositTxHash: string;
  poolId: string;
  startsAt: Date;
  endsAt: Date;
  activatedAt: Date | null;
  completedAt: Date | null;
  championWallet: Address | null;
  createdAt: Date;
  cancelledAt: Date | null;
  cancelReason: string | null;
  /** `admin:<adminId>` or `system:<rule>`. */
  cancelledBy: string | null;
  /** Set when an admin discarded (hid) the tournament. */
  discardedAt: Date | null;
  /** Entries now. */
  entryCount: number;
  /** Deposits not refunded, base units. */
  prizePool: string;
  /** The first stage without every result. */
  firstOpenStage: number | null;
}

export interface StageRow {
  id: string;
  tournamentId: string;
  stageIndex: number;
  stageName: string;
  kind: StageKind;
  buyin: string;
  multiplier: number;
  isFinal: boolean;
  startChips: number;
  windowStart: Date;
  windowEnd: Date;
  startsAt: Date;
  lockAt: Date;
  endsAt: Date;
  /** The last fixture's lock: picks close for good. */
  lastLockAt: Date;
  completedAt: Date | null;
  participants: number;
}

export interface FixtureRow {
  id: string;
  tournamentId: string;
  stageId: string;
  providerFixtureId: number;
  title: string;
  homeTeam: string;
  awayTeam: string;
  startsAt: Date;
  lockAt: Date;
  endsAt: Date;
  expiresAt: Date;
  oddsHome: number;
  oddsDraw: number;
  oddsAway: number;
  result: FixtureResult | null;
  homeScore: number | null;
  awayScore: number | null;
  /** When the fixture's picks were settled. */
  settledAt: Date | null;
}

export interface EntryRow {
  id: string;
  tournamentId: string;
  wallet: Address;
  userId: string | null;
  isCreator: boolean;
  /** 1-based entry order among current entries. */
  seed: number;
  depositTxHash: string;
  enteredAt: Date;
  placement: number | null;
  stagesPlayed: number;
  points: number;
  status: 'ALIVE' | 'ELIMINATED' | 'CHAMPION';
}

export interface DepositRow {
  txHash: string;
  tournamentId: string;
  stageIndex: number;
  wallet: Address;
  amount: string;
  purpose: 'create' | 'entry' | 'stage' | 'reenter';
  refundTxHash: string | null;
  refundedAt: Date | null;
}

export interface StageEntryRow {
  stageId: string;
  entryId: string;
  tournamentId: string;
  wallet: Address;
  startChips: number;
  available: number;
  stack: number;
  rank: number | null;
  groupLabel: string | null;
  groupRank: number | null;
  status: ParticipantStatus;
  paidTxHash: string | null;
  picks: number;
  wonPicks: number;
  seed: number;
  username: string | null;
}

export interface PickRow {
  id: string;
  tournamentId: string;
  stageId: string;
  fixtureId: string;
  entryId: string;
  wallet: Address;
  outcome: PickOutcome;
  stake: number;
  odds: number;
  status: 'OPEN' | 'WON' | 'LOST' | 'VOID';
  payout: number | null;
  createdAt: Date;
  settledAt: Date | null;
}

export interface MatchRow {
  stageId: string;
  slot: number;
  aEntryId: string | null;
  aSeed: number | null;
  bEntryId: string | null;
  bSeed: number | null;
  winnerEntryId: string | null;
  status: 'PENDING' | 'DECIDED' | 'BYE';
}

/** Rules and defaults of the area, from the configuration. */
export interface TournamentSettings {
  readonly bondAmount: bigint;
  readonly bondAsset: CollateralKind;
  readonly chipsPerStage: number;
  readonly maxEntrants: number;
  readonly groupSize: number;
  readonly advancePerGroup: number;
  readonly fixturesPerStage: number;
  readonly leagueId: number;
  readonly feeBps: number;
  readonly payoutBps: readonly number[];
  readonly stageHours: number;
  readonly startLeadMinutes: number;
  readonly fixtureExpiryHours: number;
  readonly resultsIntervalMs: number;
  /** Hours a market stays disputable after its result. */
  readonly disputeWindowHours: number;
  /** Hours after the final stage settles before the payout root may be built. */
  readonly finalDisputeWindowHours: number;
  /** Hours after a market's window closes within which an admin decides its disputes; then they expire. */
  readonly disputeResolveHours: number;
  readonly automationIntervalMs: number;
  /** Receives the platform fee; the container defaults it to the chain operator. */
  readonly treasury: `0x${string}` | undefined;
  readonly timeoutsIntervalMs: number;
}

/** The smallest stage-1 buy-in: 5 whole units of an 18-decimal asset. */
export const MINIMUM_BUYIN = 5n * 10n ** 18n;
/** From kick-off to the expected end of a fixture, when results are first asked for. */
export const FIXTURE_LENGTH_MS = 2 * 3_600_000;
