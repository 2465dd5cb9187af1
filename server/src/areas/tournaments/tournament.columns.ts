/** Select lists shared by the tournament repositories. */

/** The select list of a TournamentRow over `tournaments t`. */
export const TOURNAMENT = `t."id", t."builder_app_id" as "builderAppId", t."name", t."description", t."sport", t."league", t."category",
  t."game_type" as "gameType", t."format", t."type", t."status", t."stake_asset" as "stakeAsset", t."owner_wallet" as "ownerWallet",
  t."owner_user_id" as "ownerUserId", t."total_stages" as "totalStages", t."min_entries" as "minEntries",
  t."max_entrants" as "maxEntrants", t."chips_per_stage" as "chipsPerStage", t."group_size" as "groupSize",
  t."advance_per_group" as "advancePerGroup", t."fixtures_per_stage" as "fixturesPerStage", t."league_id" as "leagueId",
  t."fee_bps" as "feeBps", t."payout_bps" as "payoutBps", t."creator_deposit_tx_hash" as "creatorDepositTxHash",
  t."pool_id" as "poolId", t."starts_at" as "startsAt", t."ends_at" as "endsAt", t."activated_at" as "activatedAt",
  t."completed_at" as "completedAt", t."champion_wallet" as "championWallet", t."created_at" as "createdAt",
  t."cancelled_at" as "cancelledAt", t."cancel_reason" as "cancelReason", t."cancelled_by" as "cancelledBy",
  t."discarded_at" as "discardedAt",
  (select count(*)::int from "tournament_entries" e where e."tournament_id" = t."id") as "entryCount",
  (select coalesce(sum(d."amount"), 0)::text from "tournament_deposits" d
     where d."tournament_id" = t."id" and d."refunded_at" is null) as "prizePool",
  (select min(s."stage_index") from "tournament_stages" s
     where s."tournament_id" = t."id" and s."completed_at" is null) as "firstOpenStage"`;
