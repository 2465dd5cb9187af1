import { pad, toHex, type Hex } from 'viem';
import type {
  FixtureMarketsPort,
  FixtureOdds,
  GoalsLine,
  PlayerProp,
  ProviderFixture,
} from '../../adapters/sports-provider/fixtures.port.js';

/** What a condition asks about one game. */
export type ConditionKind = 'FULL_TIME_RESULT' | 'GOALS_OVER_UNDER' | 'ANYTIME_GOALSCORER';

const KIND_CODE: Record<ConditionKind, number> = { FULL_TIME_RESULT: 1, GOALS_OVER_UNDER: 2, ANYTIME_GOALSCORER: 3 };
const KIND_OF_CODE = new Map(Object.entries(KIND_CODE).map(([k, v]) => [v, k as ConditionKind]));

export interface ConditionKey {
  readonly fixtureId: number;
  readonly kind: ConditionKind;
  /** The player of a player prop; 0 otherwise. */
  readonly playerId: number;
}

export interface ConditionOutcome {
  readonly outcomeId: number;
  readonly label: string;
  /** Decimal odds × 100, as the provider priced them. */
  readonly oddsX100: number;
}

export interface Condition extends ConditionKey {
  readonly conditionId: Hex;
  readonly label: string;
  readonly outcomes: readonly ConditionOutcome[];
}

/**
 * A condition's bytes32 id: the fixture id (64 bits), the kind (8 bits) and the player id (64
 * bits) packed into the low bytes and left-padded to 32 bytes, so an id is readable without a
 * lookup and the same on every run.
 */
export function conditionIdOf(key: ConditionKey): Hex {
  const packed = (BigInt(key.fixtureId) << 72n) | (BigInt(KIND_CODE[key.kind]) << 64n) | BigInt(key.playerId);
  return pad(toHex(packed), { size: 32 });
}

/** The key of a well-formed condition id (any hex up to 32 bytes, left-padded), or null. */
export function parseConditionId(id: string): ConditionKey | null {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(id)) return null;
  const n = BigInt(id);
  const kind = KIND_OF_CODE.get(Number((n >> 64n) & 0xffn));
  const fixtureId = n >> 72n;
  if (!kind || fixtureId === 0n || fixtureId > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const playerId = Number(n & 0xffff_ffff_ffff_ffffn);
  if ((kind === 'ANYTIME_GOALSCORER') !== playerId > 0) return null;
  return { fixtureId: Number(fixtureId), kind, playerId };
}

/** Every condition of a fixture the provider prices: the 1X2 result, the 2.5 goals line, goalscorers. */
export function conditionsOf(
  fixture: ProviderFixture,
  odds: FixtureOdds | null,
  goals: GoalsLine | null,
  props: readonly PlayerProp[],
): Condition[] {
  const out: Condition[] = [];
  const make = (kind: ConditionKind, playerId: number, label: string, outcomes: ConditionOutcome[]): Condition => {
    const key = { fixtureId: fixture.id, kind, playerId };
    return { ...key, conditionId: conditionIdOf(key), label, outcomes };
  };
  if (odds) {
    out.push(
      make('FULL_TIME_RESULT', 0, 'Full-time result', [
        { outcomeId: 0, label: fixture.homeTeam, oddsX100: odds.home },
        { outcomeId: 1, label: 'Draw', oddsX100: odds.draw },
        { outcomeId: 2, label: fixture.awayTeam, oddsX100: odds.away },
      ]),
    );
  }
  if (goals) {
    const line = `${Math.floor(goals.lineX10 / 10)}.${goals.lineX10 % 10}`;
    out.push(
      make('GOALS_OVER_UNDER', 0, `Total goals ${line}`, [
        { outcomeId: 0, label: `Over ${line}`, oddsX100: goals.over },
        { outcomeId: 1, label: `Under ${line}`, oddsX100: goals.under },
      ]),
    );
  }
  for (const p of props) {
    out.push(
      make('ANYTIME_GOALSCORER', p.playerId, `${p.playerName} to score`, [
        { outcomeId: 0, label: 'Yes', oddsX100: p.odds },
      ]),
    );
  }
  return out;
}

/** A fixture with its conditions, read from the provider. */
export async function loadGame(
  port: FixtureMarketsPort & { odds(fixtureId: number): Promise<FixtureOdds | null> },
  fixture: ProviderFixture,
): Promise<Condition[]> {
  const [odds, goals, props] = await Promise.all([
    port.odds(fixture.id),
    port.goalsLine(fixture.id),
    port.playerProps(fixture.id),
  ]);
  return conditionsOf(fixture, odds, goals, props);
}
