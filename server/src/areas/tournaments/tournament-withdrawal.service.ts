import { getAddress } from 'viem';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { TournamentDb } from './tournament.repository.js';
import type { StandingsService } from './tournament-standings.service.js';
import type { Actor, TournamentRow } from './tournament.types.js';
import { tournamentPoolId } from './vault-pools.js';

const iso = (d: Date) => new Date(d).toISOString();

/**
 * Leaving a tournament before its first lock: the entry goes in one transaction, then its stage-1
 * buy-in is released back by the operator, one chain write per deposit (the key is the deposit's
 * hash); a release that did not go out is re-sent by a periodic task.
 */
export class WithdrawalService {
  constructor(
    private readonly db: TournamentDb,
    private readonly vault: PrizeVaultPort,
    private readonly standings: StandingsService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  private async tournament(id: string): Promise<TournamentRow> {
    const t = await this.db.read.tournaments.byId(id.toLowerCase());
    if (!t) throw new DomainError('NOT_FOUND', `No tournament ${id}`, { details: { tournamentId: id } });
    return t;
  }

  /** Leaves before the first lock: the entry goes and its stage-1 buy-in is released back. */
  async withdraw(actor: Actor, id: string) {
    const t = await this.tournament(id);
    const refund = await this.db.transaction(async (r) => {
      await r.tournaments.lock(t.id);
      // Judged on the row as it is under the lock: a cancellation may have committed since the read above.
      const locked = (await r.tournaments.byId(t.id)) ?? t;
      const entry = await r.tournaments.entryOf(t.id, actor.wallet);
      if (!entry) throw new DomainError('NOT_ENTERED', 'You have no entry in this tournament');
      if (entry.isCreator) throw new DomainError('ENTRY_LOCKED', 'The creator’s entry cannot be withdrawn');
      if (locked.status !== 'LIVE' || this.now() >= new Date(locked.startsAt)) {
        throw new DomainError('ENTRY_LOCKED', 'Entries cannot be withdrawn after the first lock', {
          details: { startTime: iso(locked.startsAt) },
        });
      }
      const deposit = await r.deposits.deposit(entry.depositTxHash);
      await r.tournaments.deleteEntry(entry.id);
      if (deposit) await r.deposits.markRefunding(deposit.txHash, this.now());
      return deposit;
    });
    await this.standings.recompute(t.id);
    const txHash = refund
      ? await this.sendRefund({ ...refund, stakeAsset: t.stakeAsset }).catch((err: unknown) => {
          this.logger.warn({ err, txHash: refund.txHash }, 'withdrawal refund not sent yet; the sweep retries it');
          return null;
        })
      : null;
    return {
      tournamentId: t.id,
      wallet: actor.wallet,
      refunded: refund?.amount ?? '0',
      txHash,
      hasEntry: false as const,
    };
  }

  private async sendRefund(d: {
    txHash: string;
    tournamentId: string;
    wallet: string;
    amount: string;
    stakeAsset: CollateralKind;
  }) {
    const hash = await this.vault.release(
      d.stakeAsset,
      tournamentPoolId(d.tournamentId),
      getAddress(d.wallet),
      BigInt(d.amount),
      'entry-withdrawal',
      { key: `tournaments:refund:${d.txHash}` },
    );
    await this.db.read.deposits.setRefundTx(d.txHash, hash);
    return hash;
  }

  /** Sends withdrawal refunds decided but not sent (one chain write per deposit, whatever the retries). */
  async retryRefunds(): Promise<number> {
    let sent = 0;
    for (const d of await this.db.read.deposits.pendingRefunds(50)) {
      await this.sendRefund(d).then(
        () => sent++,
        (err: unknown) => this.logger.warn({ err, txHash: d.txHash }, 'withdrawal refund still not sent'),
      );
    }
    return sent;
  }
}
