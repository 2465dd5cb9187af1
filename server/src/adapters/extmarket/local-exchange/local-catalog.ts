import { hexToBigInt, keccak256, toHex } from 'viem';

/** One outcome token of a simulated market. */
export interface SimToken {
  readonly tokenId: string;
  readonly outcome: string;
}

/** A binary market of the simulated catalogue. Minimum size is in 6-decimal share units. */
export interface SimMarket {
  readonly conditionId: string;
  readonly question: string;
  readonly slug: string;
  readonly tokens: readonly [SimToken, SimToken];
  readonly tickSize: string;
  readonly minOrderSize: bigint;
  readonly negRisk: boolean;
  readonly endDate: string;
  /** Index of the winning outcome once resolved. */
  winner?: 0 | 1;
}

export interface SimEvent {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly tagIds: readonly string[];
  readonly seriesId: string;
  readonly startDate: string;
  live: boolean;
  volume24hr: number;
  readonly markets: SimMarket[];
}

export interface SimTag {
  readonly id: string;
  readonly label: string;
  readonly slug: string;
}

export interface SimSport {
  readonly sport: string;
  readonly image: string;
  readonly resolution: string;
  readonly ordering: string;
  readonly tags: string;
  readonly series: string;
}

/** A token id as the upstream writes them: a uint256 in decimal, here derived from a label. */
export function simTokenId(label: string): string {
  return hexToBigInt(keccak256(toHex(`token:${label}`))).toString();
}

export function simConditionId(label: string): string {
  return keccak256(toHex(`condition:${label}`));
}

/** A binary market with outcomes Yes/No (or the two names given). */
export function simMarket(
  label: string,
  opts: {
    question?: string;
    tickSize?: string;
    minOrderSize?: bigint;
    negRisk?: boolean;
    outcomes?: [string, string];
  } = {},
): SimMarket {
  const [a, b] = opts.outcomes ?? ['Yes', 'No'];
  return {
    conditionId: simConditionId(label),
    question: opts.question ?? label,
    slug: label,
    tokens: [
      { tokenId: simTokenId(`${label}:0`), outcome: a },
      { tokenId: simTokenId(`${label}:1`), outcome: b },
    ],
    tickSize: opts.tickSize ?? '0.01',
    minOrderSize: opts.minOrderSize ?? 5_000_000n,
    negRisk: opts.negRisk ?? false,
    endDate: '2027-01-01T00:00:00Z',
  };
}

/** The seeded catalogue every local exchange starts with: two sports and a politics event. */
export function seedCatalog(): { events: SimEvent[]; tags: SimTag[]; sports: SimSport[] } {
  const tags: SimTag[] = [
    { id: '1', label: 'Sports', slug: 'sports' },
    { id: '100', label: 'Soccer', slug: 'soccer' },
    { id: '200', label: 'Basketball', slug: 'basketball' },
    { id: '2', label: 'Politics', slug: 'politics' },
  ];
  const sports: SimSport[] = [
    {
      sport: 'epl',
      image: 'https://example.org/epl.png',
      resolution: 'https://www.premierleague.com',
      ordering: 'home',
      tags: '1,100',
      series: '10',
    },
    {
      sport: 'nba',
      image: 'https://example.org/nba.png',
      resolution: 'https://www.nba.com',
      ordering: 'away',
      tags: '1,200',
      series: '20',
    },
  ];
  const events: SimEvent[] = [
    {
      id: '9001',
      slug: 'ars-che-2026-11-28',
      title: 'Arsenal vs. Chelsea',
      tagIds: ['1', '100'],
      seriesId: '10',
      startDate: '2026-11-28T15:00:00Z',
      live: false,
      volume24hr: 125000,
      markets: [simMarket('ars-che-ars', { question: 'Will Arsenal win?', outcomes: ['Yes', 'No'] })],
    },
    {
      id: '9002',
      slug: 'lal-bos-2026-11-28',
      title: 'Lakers vs. Celtics',
      tagIds: ['1', '200'],
      seriesId: '20',
      startDate: '2026-11-28T01:00:00Z',
      live: true,
      volume24hr: 480000,
      markets: [
        simMarket('lal-bos', { question: 'Lakers vs. Celtics', outcomes: ['Lakers', 'Celtics'], negRisk: true }),
      ],
    },
    {
      id: '9003',
      slug: 'fed-december-2026',
      title: 'Fed decision in December',
      tagIds: ['2'],
      seriesId: '30',
      startDate: '2026-12-16T19:00:00Z',
      live: false,
      volume24hr: 910000,
      markets: [simMarket('fed-cut-dec', { question: 'Fed cuts rates in December?', tickSize: '0.001' })],
    },
  ];
  return { events, tags, sports };
}

/** A scripted `sport_result` message of the live-score feed. */
export interface SportResult {
  readonly gameId: number;
  readonly leagueAbbreviation: string;
  readonly slug: string;
  readonly homeTeam: string;
  readonly awayTeam: string;
  readonly status: string;
  readonly score: string;
  readonly period: string;
  readonly elapsed: string;
  readonly live: boolean;
  readonly ended: boolean;
}

export function seedScores(): SportResult[] {
  return [
    {
      gameId: 7001,
      leagueAbbreviation: 'nba',
      slug: 'lal-bos-2026-11-28',
      homeTeam: 'Lakers',
      awayTeam: 'Celtics',
      status: 'InProgress',
      score: '54-49',
      period: 'Q3',
      elapsed: '04:12',
      live: true,
      ended: false,
    },
    {
      gameId: 7002,
      leagueAbbreviation: 'epl',
      slug: 'ars-che-2026-11-28',
      homeTeam: 'Arsenal',
      awayTeam: 'Chelsea',
      status: 'Scheduled',
      score: '0-0',
      period: 'NS',
      elapsed: '',
      live: false,
      ended: false,
    },
  ];
}
