import type { marketsContract } from '@duelkit/contract';
import type { ServerInferRequest, ServerInferResponseBody } from '@ts-rest/core';

/** Response and request shapes of the analytics routes, inferred from the contract (one source of truth). */
type Stats = (typeof marketsContract)['protocolStats'];
type Board = (typeof marketsContract)['leaderboard'];
type Folio = (typeof marketsContract)['portfolio'];

export type CollateralStack = 'usdc' | 'credits';
export type TimeRange = '1D' | '1W' | '1M' | 'ALL';
export type SortOrder = 'asc' | 'desc';

export type ProtocolStats = ServerInferResponseBody<Stats['current'], 200>;
export type ProtocolRefresh = ServerInferResponseBody<Stats['refresh'], 201>;
export type ProtocolSummary = ServerInferResponseBody<Stats['summary'], 200>;
export type PlatformReport = ServerInferResponseBody<Stats['platform'], 200>;

export type CreatorsPage = ServerInferResponseBody<Board['creators'], 200>;
export type CreatorsPnlPage = ServerInferResponseBody<Board['creatorsPnl'], 200>;
export type CreatorCount = ServerInferResponseBody<Board['creatorsCount'], 200>;
export type TradersPage = ServerInferResponseBody<Board['traders'], 200>;
export type TradersPnlPage = ServerInferResponseBody<Board['tradersPnl'], 200>;
export type GlobalAggregate = ServerInferResponseBody<Board['globalAggregate'], 200>;
export type VolumeChart = ServerInferResponseBody<Board['volumeChart'], 200>;
export type ParticipantsChart = ServerInferResponseBody<Board['participantsChart'], 200>;

export type CreatorsQuery = ServerInferRequest<Board['creators']>['query'];
export type CreatorsPnlQuery = ServerInferRequest<Board['creatorsPnl']>['query'];
export type TradersQuery = ServerInferRequest<Board['traders']>['query'];
export type TradersPnlQuery = ServerInferRequest<Board['tradersPnl']>['query'];
export type ChartQuery = ServerInferRequest<Board['volumeChart']>['query'];

export type AccountDetails = ServerInferResponseBody<Folio['accountDetails'], 200>;
export type CreatedDuelsPage = ServerInferResponseBody<Folio['duels'], 200>;
export type TradedDuelsPage = ServerInferResponseBody<Folio['duelsTable'], 200>;
export type HistoryPage = ServerInferResponseBody<Folio['historyTable'], 200>;
export type PnlChart = ServerInferResponseBody<Folio['pnlChart'], 200>;
export type Positions = ServerInferResponseBody<Folio['positions'], 200>;
