import { getAddress } from 'viem';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { EntryRow, FixtureRow, PickRow, StageRow, TournamentRow } from './tournament.types.js';

export type StageStatus = 'UPCOMING' | 'OPEN' | 'IN_PLAY' | 'COMPLETED';

/** "2.10" from 210. */
export function decimalOdds(x100: number): string {
  return `${Math.floor(x100 / 100)}.${String(x100 % 100).padStart(2, '0')}`;
}

const iso = (d: Date) => new Date(d).toISOString();
const isoOrNull = (d: Date | null) => (d ? iso(d) : null);

/**
 * A stage's status at `now`: complete once every result is in; until the stage before it is
 * complete its players are unknown; open while a fixture can still be picked.
 */
export function stageStatus(stage: StageRow, previous: StageRow | undefined, now: Date): StageStatus {
  if (stage.completedAt) return 'COMPLETED';
  if (previous && !previous.completedAt) return 'UPCOMING';
  return now < new Date(stage.lastLockAt ?? stage.lockAt) ? 'OPEN' : 'IN_PLAY';
}

export function fixtureStatus(f: FixtureRow, now: Date): 'SCHEDULED' | 'LOCKED' | 'FINISHED' | 'VOID' {
  if (f.result === 'VOID') return 'VOID';
  if (f.result) return 'FINISHED';
  return now < new Date(f.lockAt) ? 'SCHEDULED' : 'LOCKED';
}

export function toFixture(f: FixtureRow, now: Date) {
  return {
    id: f.id,
    stageId: f.stageId,
    providerFixtureId: f.providerFixtureId,
    title: f.title,
    teamAName: f.homeTeam,
    teamBName: f.awayTeam,
    startTime: iso(f.startsAt),
    lockTime: iso(f.lockAt),
    endTime: iso(f.endsAt),
    expiryTime: iso(f.expiresAt),
    status: fixtureStatus(f, now),
    odds: { home: decimalOdds(f.oddsHome), draw: decimalOdds(f.oddsDraw), away: decimalOdds(f.oddsAway) },
    result: f.result
      ? {
          outcome: f.result,
          score: f.homeScore === null || f.awayScore === null ? null : { home: f.homeScore, away: f.awayScore },
          settledAt: isoOrNull(f.settledAt),
        }
      : null,
  };
}

export function toStage(s: StageRow, previous: StageRow | undefined, fixtures: readonly FixtureRow[], now: Date) {
  return {
    id: s.id,
    tournamentId: s.tournamentId,
    stageIndex: s.stageIndex,
    stageName: s.stageName,
    kind: s.kind,
    status: stageStatus(s, previous, now),
    buyinUsdc: s.buyin,
    multiplier: s.multiplier,
    isFinal: s.isFinal,
    chips: s.startChips,
    participants: s.participants,
    startTime: iso(s.startsAt),
    lockTime: iso(s.lockAt),
    endTime: iso(s.endsAt),
    fixtures: fixtures.filter((f) => f.stageId === s.id).map((f) => toFixture(f, now)),
  };
}

export function toTournament(t: TournamentRow, vault: PrizeVaultPort, now: Date) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    sport: t.sport,
    league: t.league,
    category: t.category,
    gameType: t.gameType,
    format: t.format,
    type: t.type,
    status: t.status,
    stakeAsset: t.stakeAsset,
    vaultStack: t.stakeAsset,
    ownerWallet: getAddress(t.ownerWallet),
    entryCount: t.entryCount,
    maxEntrants: t.maxEntrants,
    minEntriesToActivate: t.minEntries,
    meetsMinimum: t.entryCount >= t.minEntries,
    entriesOpen: t.status === 'LIVE' && now < new Date(t.startsAt),
    prizePool: t.prizePool,
    totalStages: t.totalStages,
    // The stage being played: the first one without every result; none once finished or cancelled.
    currentStageIndex: t.status === 'LIVE' ? t.firstOpenStage : null,
    startTime: iso(t.startsAt),
    endTime: iso(t.endsAt),
    createdAt: iso(t.createdAt),
    activatedAt: isoOrNull(t.activatedAt),
    completedAt: isoOrNull(t.completedAt),
    championWallet: t.championWallet ? getAddress(t.championWallet) : null,
    config: {
      stakeAsset: t.stakeAsset,
      minEntriesToActivate: t.minEntries,
      maxEntrants: t.maxEntrants,
      chipsPerStage: t.chipsPerStage,
      groupSize: t.groupSize,
      advancePerGroup: t.advancePerGroup,
      fixturesPerStage: t.fixturesPerStage,
      leagueId: t.leagueId,
      feeBps: t.feeBps,
      payoutBps: t.payoutBps,
    },
    vault: { address: vault.address(t.stakeAsset), poolId: t.poolId },
  };
}

export function toPick(p: PickRow) {
  return {
    id: p.id,
    tournamentId: p.tournamentId,
    stageId: p.stageId,
    fixtureId: p.fixtureId,
    wallet: getAddress(p.wallet),
    outcome: p.outcome,
    stake: p.stake,
    odds: decimalOdds(p.odds),
    status: p.status,
    payout: p.payout,
    createdAt: iso(p.createdAt),
    settledAt: isoOrNull(p.settledAt),
  };
}

export function toEntry(e: EntryRow) {
  return {
    wallet: getAddress(e.wallet),
    seed: e.seed,
    isCreator: e.isCreator,
    enteredAt: iso(e.enteredAt),
    depositTxHash: e.depositTxHash,
  };
}
