import { ProtocolStatsEntity } from '../../areas/analytics/protocol-stats.entity.js';
import { BuilderAppEntity, BuilderKeyEntity } from '../../areas/builders/builder-key.entity.js';
import { IdempotencyRecordEntity } from '../idempotency/idempotency.entity.js';
import {
  ChainAccountEntity,
  ChainIdentityEntity,
  ChainJournalEntity,
  ChainTxEntity,
} from '../chain-tx/chain-tx.entities.js';
import { FundReservationEntity, FundWalletEntity } from '../chain-tx/funds.entities.js';
import {
  LpMovementEntity,
  ParlayPoolEntity,
  ParlayQuoteEntity,
  ParlayQuoteLegEntity,
} from '../../areas/parlay/parlay.entities.js';
import { DuelInvitationEntity, DuelMembershipEntity } from '../../areas/invitations/invitation.entity.js';
import { LeaseEntity } from '../jobs/lease.entity.js';
import { MerkleDistributionEntity, MerkleLeafEntity } from '../merkle/distribution.entity.js';
import { DuelEntity } from '../../areas/markets/duel.entity.js';
import { CreatorFeeClaimEntity } from '../../areas/money/creator-fee.entity.js';
import { BridgeDepositEntity, NotificationOutboxEntity } from '../../areas/money/deposit.entities.js';
import {
  WithdrawalDecisionEntity,
  WithdrawalEntity,
  WithdrawalRequestEntity,
} from '../../areas/money/withdrawal.entities.js';
import {
  PackClaimRunEntity,
  PackEntity,
  PackEntryEntity,
  PackMarketEntity,
  PackPickEntity,
} from '../../areas/packs/pack.entities.js';
import { tournamentEntities } from '../../areas/tournaments/tournament.entities.js';
import {
  PlatformInviteEntity,
  PlatformInviteUseEntity,
} from '../../areas/platform-invites/platform-invite.entities.js';
import {
  LaunchedTokenEntity,
  LeagueMembershipEntity,
  PlatformRequestEntity,
  PnlSnapshotEntity,
} from '../../areas/reports/requests.entities.js';
import {
  PrematchRunEntity,
  PushDeliveryEntity,
  PushDeviceEntity,
} from '../../areas/notifications/notification.entities.js';
import { MigrationJobEntity } from '../../areas/stream-migration/migration-job.entity.js';
import { tournamentCloseEntities } from '../../areas/tournaments/tournament-close.entities.js';
import { PriceSnapshotEntity } from '../../areas/markets/price-snapshot.entity.js';
import {
  ParentMarketEntity,
  ParentMarketInvitationEntity,
  ParentMarketMemberEntity,
} from '../../areas/parent-markets/parent-market.entity.js';
import { ChainCursorEntity, PositionEntity, TradeEntity } from '../../areas/markets/trade.entities.js';
import {
  DuelCancellationEntity,
  DuelContestEntity,
  DuelDistributionEntity,
  MarketSettingsEntity,
  SettlementBatchEntity,
} from '../../areas/settlement/settlement.entities.js';
import {
  AdminEntity,
  AdminSessionEntity,
  AuthNonceEntity,
  UsedWalletCredentialEntity,
  UserEntity,
  UserIdentityEntity,
} from '../../areas/identity/identity.entities.js';

/** Every entity the ORM knows. Areas add theirs here. */
export const entities = [
  BuilderAppEntity,
  BuilderKeyEntity,
  IdempotencyRecordEntity,
  LeaseEntity,
  DuelEntity,
  UserEntity,
  UserIdentityEntity,
  AuthNonceEntity,
  AdminEntity,
  AdminSessionEntity,
  UsedWalletCredentialEntity,
  TradeEntity,
  PositionEntity,
  ChainCursorEntity,
  ProtocolStatsEntity,
  PriceSnapshotEntity,
  DuelInvitationEntity,
  DuelMembershipEntity,
  ParentMarketEntity,
  ParentMarketInvitationEntity,
  ParentMarketMemberEntity,
  DuelContestEntity,
  DuelDistributionEntity,
  DuelCancellationEntity,
  SettlementBatchEntity,
  MarketSettingsEntity,
  MerkleDistributionEntity,
  MerkleLeafEntity,
  PackEntity,
  PackMarketEntity,
  PackEntryEntity,
  PackPickEntity,
  PackClaimRunEntity,
  ...tournamentEntities,
  ...tournamentCloseEntities,
  ChainTxEntity,
  ChainAccountEntity,
  ChainIdentityEntity,
  ChainJournalEntity,
  FundWalletEntity,
  FundReservationEntity,
  ParlayPoolEntity,
  ParlayQuoteEntity,
  ParlayQuoteLegEntity,
  LpMovementEntity,
  CreatorFeeClaimEntity,
  WithdrawalEntity,
  WithdrawalRequestEntity,
  WithdrawalDecisionEntity,
  BridgeDepositEntity,
  NotificationOutboxEntity,
  PlatformInviteEntity,
  PlatformInviteUseEntity,
  PlatformRequestEntity,
  LeagueMembershipEntity,
  LaunchedTokenEntity,
  PnlSnapshotEntity,
  PushDeviceEntity,
  PushDeliveryEntity,
  PrematchRunEntity,
  MigrationJobEntity,
];
