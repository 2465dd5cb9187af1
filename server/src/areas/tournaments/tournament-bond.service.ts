import { randomUUID } from 'node:crypto';
import { getAddress, type Address, type Hash, type LocalAccount } from 'viem';
import type { CollateralKind } from '../../adapters/chain/chain.port.js';
import type { PrizeVaultPort } from '../../adapters/chain/prize-vault.port.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { Region } from '../../platform/geo/region.js';
import type { OperationContext, WriteKey } from '../../platform/operation.context.js';
import type { Logger } from '../../logger.js';
import { verifyDeposit } from './deposit-verifier.js';
import type { TournamentDb, TournamentRepos } from './tournament.repository.js';
import { MINIMUM_BUYIN, type Actor, type TournamentSettings } from './tournament.types.js';
import { bondPoolId } from './vault-pools.js';

/** The signing account of a user's managed wallet. */
export interface SignerLookup {
  forUser(userId: string): Promise<LocalAccount>;
}

/** Collateral tokens and balances on chain. */
export interface CollateralReader {
  readonly addresses: { readonly credits: Address; readonly usdc: Address };
  collateralBalance(stack: CollateralKind, owner: Address): Promise<bigint>;
}

export interface Reason {
  readonly code: string;
  readonly message: string;
}

/**
 * Creators' bonds: held in the vault pool `keccak256("duelkit:bond:" + wallet)` of the bond asset.
 * A creator needs the configured bond to create; it cannot be withdrawn while they have a LIVE
 * tournament (the row lock on the bond keeps a creation and a withdrawal from crossing).
 */
export class BondService {
  constructor(
    private readonly db: TournamentDb,
    private readonly vault: PrizeVaultPort,
    private readonly chain: CollateralReader,
    private readonly signers: SignerLookup,
    private readonly settings: TournamentSettings,
    private readonly logger: Logger,
  ) {}

  get asset(): CollateralKind {
    return this.settings.bondAsset;
  }

  async requirement(wallet: string | null) {
    return {
      amount: this.settings.bondAmount.toString(),
      asset: this.settings.bondAsset,
      decimals: 18 as const,
      vault: this.vault.address(this.settings.bondAsset),
      bond: wallet ? await this.status(wallet) : null,
    };
  }

  async status(wallet: string, repos: TournamentRepos = this.db.read) {
    const address = getAddress(wallet);
    const [deposited, live] = await Promise.all([
      repos.bonds.balance(address, this.settings.bondAsset),
      repos.tournaments.liveCountOf(address),
    ]);
    return {
      wallet: address,
      asset: this.settings.bondAsset,
      required: this.settings.bondAmount.toString(),
      deposited: deposited.toString(),
      sufficient: deposited >= this.settings.bondAmount,
      locked: live > 0,
      liveTournaments: live,
      vault: this.vault.address(this.settings.bondAsset),
      poolId: bondPoolId(address),
    };
  }

  /** Refuses when the creator's bond is short; inside a creation's transaction, `lock` holds it until commit. */
  async assertSufficient(repos: TournamentRepos, wallet: Address, lock = true): Promise<void> {
    const deposited = await repos.bonds.balance(wallet, this.settings.bondAsset, lock);
    if (deposited < this.settings.bondAmount) {
      throw new DomainError(
        'BOND_REQUIRED',
        'Creating a tournament needs the creator bond: POST creator/deposit-bond',
        {
          details: {
            required: this.settings.bondAmount.toString(),
            deposited: deposited.toString(),
            asset: this.settings.bondAsset,
          },
        },
      );
    }
  }

  async deposit(
    ctx: OperationContext,
    actor: Actor,
    body: { amount?: string | undefined; execute: boolean; txHash?: string | undefined },
  ) {
    const asset = this.settings.bondAsset;
    const poolId = bondPoolId(actor.wallet);
    const current = await this.status(actor.wallet);
    const missing = this.settings.bondAmount - BigInt(current.deposited);
    const amount = body.amount !== undefined ? BigInt(body.amount) : missing;
    const base = {
      wallet: actor.wallet,
      asset,
      vault: this.vault.address(asset),
      poolId,
      calls: this.vault.depositCalls(asset, poolId, 0, amount > 0n ? amount : 0n),
    };
    let txHash = body.txHash as Hash | undefined;
    if (!txHash && body.execute) {
      if (!actor.userId) {
        throw new DomainError('VALIDATION_FAILED', 'Only a managed wallet (bearer token) can deposit through the API', {
          fieldErrors: { 'body.execute': ['a wallet credential deposits itself: send the calls, then txHash'] },
        });
      }
      // A resumed request's deposit is recorded (that is what makes it resumed) and may already
      // count in the bond: it is found under its key whatever the amount says now.
      if (amount <= 0n && !ctx.resumed) {
        throw new DomainError('INVALID_STATE', 'The bond already meets the requirement; name an amount to add more', {
          details: { deposited: current.deposited, required: current.required },
        });
      }
      // Counting recorded deposits keeps the key of a deposit sent but not yet recorded: a retry
      // reuses it. A request with an Idempotency-Key is keyed by it instead: its own deposit, once
      // recorded, counts, so a takeover of the request would otherwise come back with a new key.
      const scoped = ctx.scopedKey('bond-deposit');
      const n = await this.db.read.bonds.movementCount(actor.wallet, 'deposit');
      const signer = await this.signers.forUser(actor.userId);
      txHash = await this.vault.deposit(signer, asset, poolId, 0, amount, {
        key: scoped
          ? `tournaments:bond-deposit:${actor.wallet.toLowerCase()}:${scoped}`
          : `tournaments:bond-deposit:${actor.wallet.toLowerCase()}:${n}:${amount}`,
        write: ctx.writeKey('bond-deposit'),
      });
    }
    if (!txHash)
      return { ...base, amount: (amount > 0n ? amount : 0n).toString(), txHash: null, recorded: false, bond: current };
    const recorded = await this.record(actor, txHash).catch((err: unknown) => {
      // Sent for the caller but not mined yet: they record it later with { txHash }.
      if (body.execute && isDomainError(err) && err.code === 'DEPOSIT_PENDING') return null;
      throw err;
    });
    return {
      ...base,
      amount: (recorded ?? amount).toString(),
      txHash,
      recorded: recorded !== null,
      bond: await this.status(actor.wallet),
    };
  }

  /** Verifies a bond deposit and counts it once; the same transaction again is a no-op. */
  private async record(actor: Actor, txHash: Hash): Promise<bigint> {
    const known = await this.db.read.bonds.movementByTx(txHash);
    if (known) {
      if (known.wallet.toLowerCase() === actor.wallet.toLowerCase() && known.kind === 'deposit')
        return BigInt(known.amount);
      throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit was already counted', { details: { txHash } });
    }
    if (await this.db.read.deposits.deposit(txHash)) {
      throw new DomainError('DEPOSIT_ALREADY_USED', 'This deposit already paid for a tournament', {
        details: { txHash, usedFor: 'tournament' },
      });
    }
    const deposit = await verifyDeposit(this.vault, txHash, {
      collateral: this.settings.bondAsset,
      poolId: bondPoolId(actor.wallet),
      stage: 0,
      minAmount: 1n,
      senders: actor.senders,
    });
    return this.db.transaction(async (r) => {
      const inserted = await r.bonds.insertMovement({
        id: randomUUID(),
        wallet: actor.wallet,
        asset: this.settings.bondAsset,
        kind: 'deposit',
        amount: deposit.amount.toString(),
        txHash,
        status: 'sent',
      });
      if (inserted) await r.bonds.add(actor.wallet, this.settings.bondAsset, deposit.amount);
      return deposit.amount;
    });
  }

  /**
   * Withdraws from the bond: the movement is decided under the bond's lock, then released on
   * chain keyed by the movement. Its id comes from the request's Idempotency-Key when it has one,
   * so a retry that takes over a dead execution finds that movement (and sends it only if it was
   * never sent) instead of deciding a second withdrawal.
   */
  async withdraw(ctx: OperationContext, actor: Actor, body: { amount?: string | undefined }) {
    const asset = this.settings.bondAsset;
    const scopedId = ctx.scopedId('bond-withdrawal');
    const earlier = scopedId ? await this.db.read.bonds.movementById(scopedId) : null;
    if (earlier) {
      const txHash =
        (earlier.txHash as Hash | null) ??
        (await this.send(earlier, ctx.writeKey('bond-withdrawal')).catch(() => null));
      return { wallet: actor.wallet, asset, amount: earlier.amount, txHash, bond: await this.status(actor.wallet) };
    }
    const movement = await this.db.transaction(async (r) => {
      const deposited = await r.bonds.balance(actor.wallet, asset, true);
      const live = await r.tournaments.liveCountOf(actor.wallet);
      if (live > 0) {
        throw new DomainError('BOND_LOCKED', 'The bond is locked while you have a LIVE tournament', {
          details: { liveTournaments: live },
        });
      }
      const amount = body.amount !== undefined ? BigInt(body.amount) : deposited;
      if (amount <= 0n || amount > deposited) {
        throw new DomainError('INSUFFICIENT_BOND', 'The bond does not hold that much', {
          details: { deposited: deposited.toString(), requested: amount.toString() },
        });
      }
      const m = {
        id: scopedId ?? randomUUID(),
        wallet: actor.wallet,
        asset,
        kind: 'withdrawal' as const,
        amount: amount.toString(),
        txHash: null,
        status: 'pending' as const,
      };
      await r.bonds.insertMovement(m);
      await r.bonds.add(actor.wallet, asset, -amount);
      return m;
    });
    const txHash = await this.send(movement, ctx.writeKey('bond-withdrawal')).catch((err: unknown) => {
      this.logger.warn({ err, movementId: movement.id }, 'bond withdrawal not sent yet; the sweep retries it');
      return null;
    });
    return { wallet: actor.wallet, asset, amount: movement.amount, txHash, bond: await this.status(actor.wallet) };
  }

  /** Sends withdrawals decided but not sent (one chain write per movement, whatever the retries). */
  async retryWithdrawals(): Promise<number> {
    let sent = 0;
    for (const m of await this.db.read.bonds.pendingWithdrawals(50)) {
      await this.send(m).then(
        () => sent++,
        (err: unknown) => this.logger.warn({ err, movementId: m.id }, 'bond withdrawal still not sent'),
      );
    }
    return sent;
  }

  private async send(
    m: { id: string; wallet: string; asset: CollateralKind; amount: string },
    write?: WriteKey,
  ): Promise<Hash> {
    const hash = await this.vault.release(
      m.asset,
      bondPoolId(m.wallet),
      getAddress(m.wallet),
      BigInt(m.amount),
      'bond-withdrawal',
      {
        key: `tournaments:bond-withdraw:${m.id}`,
        ...(write ? { write } : {}),
      },
    );
    await this.db.read.bonds.markSent(m.id, hash);
    return hash;
  }

  /** Every reason a paid create would fail now, before the creator spends anything. */
  async createFlowEligibility(
    q: { stakeAsset: CollateralKind; stage1BuyinRaw: string; minEntriesToActivate: number },
    wallet: string | null,
    region: Region,
  ) {
    const reasons: Reason[] = [];
    const buyin = BigInt(q.stage1BuyinRaw);
    if (buyin < MINIMUM_BUYIN) {
      reasons.push({ code: 'BUYIN_BELOW_MINIMUM', message: 'The stage-1 buy-in must be at least 5 units' });
    }
    if (q.minEntriesToActivate < 2 || q.minEntriesToActivate > 256) {
      reasons.push({ code: 'MIN_ENTRIES_INVALID', message: 'minEntriesToActivate must be between 2 and 256' });
    }
    if (q.stakeAsset === 'usdc' && !region.usdcAllowed) {
      reasons.push({ code: 'GEO_BLOCKED', message: 'usdc is not available in your region; credits are' });
    }
    let bond = null;
    if (!wallet) {
      reasons.push({ code: 'WALLET_REQUIRED', message: 'Name a wallet or send a bearer token' });
    } else {
      bond = await this.status(wallet);
      if (!bond.sufficient) {
        reasons.push({
          code: 'BOND_REQUIRED',
          message: `Deposit the creator bond (${bond.required} ${bond.asset}) first`,
        });
      }
      const balance = await this.chain.collateralBalance(q.stakeAsset, getAddress(wallet));
      if (balance < buyin) {
        reasons.push({
          code: 'INSUFFICIENT_BALANCE',
          message: `The wallet holds less ${q.stakeAsset} than the buy-in`,
        });
      }
    }
    return {
      canProceed: reasons.length === 0,
      wallet: wallet ? getAddress(wallet) : null,
      reasons,
      minimumBuyin: MINIMUM_BUYIN.toString(),
      stage1BuyinRaw: q.stage1BuyinRaw,
      bond,
    };
  }

  async creatorEligibility(wallet: string | null) {
    if (!wallet) {
      return {
        eligible: false,
        wallet: null,
        reasons: [{ code: 'WALLET_REQUIRED', message: 'Name a wallet or send a bearer token' }],
        bond: null,
      };
    }
    const bond = await this.status(wallet);
    const reasons = bond.sufficient
      ? []
      : [{ code: 'BOND_REQUIRED', message: `Deposit the creator bond (${bond.required} ${bond.asset}) first` }];
    return { eligible: reasons.length === 0, wallet: getAddress(wallet), reasons, bond };
  }
}
