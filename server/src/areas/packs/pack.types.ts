import type { marketsContract } from '@duelkit/contract';
import type { ServerInferRequest, ServerInferResponseBody } from '@ts-rest/core';

type Routes = typeof marketsContract.packs;
type Admin = typeof marketsContract.packsAdmin;

/** Wire shapes of §4.13 and the packs part of §4.16, taken from the contract. */
export type CreatePackInput = ServerInferRequest<Admin['create']>['body'];
export type CreatorAddMarketInput = ServerInferRequest<Routes['addMarket']>['body'];
export type PackListQuery = ServerInferRequest<Routes['list']>['query'];
export type PickInput = ServerInferRequest<Routes['picks']>['body']['picks'][number];
export type PackDto = ServerInferResponseBody<Routes['get'], 200>;
export type PackSummaryDto = ServerInferResponseBody<Routes['list'], 200>['data'][number];
export type PackMarketDto = PackDto['markets'][number];
export type PackListDto = ServerInferResponseBody<Routes['list'], 200>;
export type AddPackMarketDto = ServerInferResponseBody<Routes['addMarket'], 201>;
export type PackEntryDto = ServerInferResponseBody<Routes['enter'], 201>;
export type PicksEstimateDto = ServerInferResponseBody<Routes['estimatePicks'], 200>;
export type PicksDto = ServerInferResponseBody<Routes['picks'], 201>;
export type PackPickDto = PicksDto['picks'][number];
export type MyPackDto = ServerInferResponseBody<Routes['me'], 200>;
export type LeaderboardDto = ServerInferResponseBody<Routes['leaderboard'], 200>;
export type StandingDto = LeaderboardDto['data'][number];
export type PackPriceHistoryDto = ServerInferResponseBody<Routes['priceHistory'], 200>;
export type DistributionSummaryDto = ServerInferResponseBody<Routes['payoutSummary'], 200>;
export type SettlementDto = ServerInferResponseBody<Admin['settle'], 200>;
export type ResolveMarketDto = ServerInferResponseBody<Admin['resolveMarket'], 200>;
export type VoidMarketDto = ServerInferResponseBody<Admin['voidMarket'], 200>;
export type SubmitRootDto = ServerInferResponseBody<Admin['submitPayoutRoot'], 200>;
export type ClaimRunDto = ServerInferResponseBody<Admin['autoClaimPayouts'], 200>;
export type ClaimStatusDto = ServerInferResponseBody<Admin['payoutClaimStatus'], 200>;
export type TickDto = ServerInferResponseBody<Admin['scheduleTick'], 200>;
