import { CreatorFeeClaimEntity } from './creator-fee.entity.js';
import { BridgeDepositEntity, NotificationOutboxEntity } from './deposit.entities.js';
import { WithdrawalDecisionEntity, WithdrawalEntity, WithdrawalRequestEntity } from './withdrawal.entities.js';

/** The money area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const moneyEntities = [
  CreatorFeeClaimEntity,
  WithdrawalEntity,
  WithdrawalRequestEntity,
  WithdrawalDecisionEntity,
  BridgeDepositEntity,
  NotificationOutboxEntity,
] as const;
