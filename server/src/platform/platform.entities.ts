import {
  ChainAccountEntity,
  ChainIdentityEntity,
  ChainJournalEntity,
  ChainTxEntity,
} from './chain-tx/chain-tx.entities.js';
import { FundReservationEntity, FundWalletEntity } from './chain-tx/funds.entities.js';
import { EventEntity, EventRelayEntity } from './events/event.entities.js';
import { IdempotencyRecordEntity } from './idempotency/idempotency.entity.js';
import { LeaseEntity } from './jobs/lease.entity.js';
import { MerkleDistributionEntity, MerkleLeafEntity } from './merkle/distribution.entity.js';

/** The shared machinery's tables (idempotency, leases, chain writes, funds, Merkle books). */
export const platformEntities = [
  IdempotencyRecordEntity,
  LeaseEntity,
  MerkleDistributionEntity,
  MerkleLeafEntity,
  ChainTxEntity,
  ChainAccountEntity,
  ChainIdentityEntity,
  ChainJournalEntity,
  FundWalletEntity,
  FundReservationEntity,
  EventEntity,
  EventRelayEntity,
] as const;
