import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import type { ChainPort } from '../../adapters/chain/chain.port.js';
import { DomainError, isDomainError } from '../../errors.js';
import type { OperationContext } from '../../platform/operation-context.js';
import type { ManagedSigners } from '../identity/managed-signers.js';
import { assertCreator } from '../markets/market-creator.js';
import type { Duel } from '../markets/duel.entity.js';
import type { DuelInvitationRow } from './invitation.entity.js';
import { toInvitationDto } from './invitation.mapper.js';
import type { InvitationRepository } from './invitation.repository.js';
import type {
  Caller,
  CreateInvitationInput,
  DuelInvitationsDto,
  InvitationDto,
  OnChainInvitationDto,
  RevokeDto,
  RevokeInput,
  ValidateInviteDto,
} from './invitation.types.js';
import {
  codeHashOf,
  expiryOf,
  generateInviteCode,
  invitationState,
  isUniqueViolation,
  remainingUses,
} from './invite-code.js';
import type { Clock } from '../../platform/clock.js';

/** The duel reads invitations need. */
export interface DuelLookup {
  require(duelId: string): Promise<Duel>;
}

export const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * Invitations to private duels: created on chain by the creator's managed wallet and recorded
 * with their code, revoked on both, validated and read.
 */
export class InvitationService {
  constructor(
    private readonly repo: InvitationRepository,
    private readonly duels: DuelLookup,
    private readonly chain: ChainPort,
    private readonly signers: ManagedSigners,
    private readonly clock: Clock,
  ) {}

  async create(ctx: OperationContext, caller: Caller, input: CreateInvitationInput): Promise<InvitationDto> {
    const duel = await this.duels.require(input.duelId);
    assertCreator(duel, caller, 'invite to it');
    if (!duel.isPrivate) {
      throw new DomainError('INVALID_STATE', 'Invitations are for private markets; this one is public', {
        details: { duelId: duel.duelId },
      });
    }
    if (duel.chainState === 'failed') {
      throw new DomainError('INVALID_STATE', 'The market failed on chain', {
        details: { chainState: duel.chainState },
      });
    }
    const expiresAt = expiryOf(input.expiresAt, this.clock.now());
    const signer = await this.signers.forUser(caller.userId);
    const row = await this.insert(duel, caller, input.inviteCode, input.maxUses, expiresAt);
    const answer = (txHash: `0x${string}`) => toInvitationDto({ ...row, txHash }, this.clock.now());
    let txHash: `0x${string}`;
    try {
      txHash = await this.chain.createInvite(
        signer,
        duel.duelId as `0x${string}`,
        row.codeHash as `0x${string}`,
        row.maxUses,
        expiresAt ? Math.ceil(expiresAt.getTime() / 1000) : 0,
        {
          write: ctx.writeKey('create-invite'),
          record: (sql, hash) => this.repo.setInvitationTx(sql, row.id, hash),
          result: answer,
        },
      );
    } catch (err) {
      // Refused before anything was recorded (a revert in simulation): the invitation never existed.
      if (isDomainError(err)) await this.repo.deletePendingInvitation(row.id);
      throw err;
    }
    return answer(txHash);
  }

  /** The invitation a code names, or INVITE_NOT_FOUND (also when it belongs to another duel than `duelId`). */
  async find(inviteCode: string, duelId?: string): Promise<DuelInvitationRow> {
    const row = await this.repo.invitationByHash(codeHashOf(inviteCode));
    if (!row || (duelId && row.duelId !== duelId.toLowerCase())) {
      throw new DomainError('INVITE_NOT_FOUND', 'No invitation with this code', duelId ? { details: { duelId } } : {});
    }
    return row;
  }

  async validate(input: { inviteCode: string; duelId?: string | undefined }): Promise<ValidateInviteDto> {
    const row = await this.repo.invitationByHash(codeHashOf(input.inviteCode));
    if (!row || (input.duelId && row.duelId !== input.duelId.toLowerCase())) return { valid: false, reason: 'unknown' };
    const state = invitationState(row, this.clock.now());
    if (state !== 'active') return { valid: false, reason: state };
    return {
      valid: true,
      duelId: row.duelId,
      maxUses: row.maxUses,
      uses: row.uses,
      remainingUses: remainingUses(row),
      expiresAt: row.expiresAt ? new Date(row.expiresAt).toISOString() : null,
    };
  }

  /** Revokes in the database first (joins stop at once), then on chain; a chain refusal undoes it. */
  async revoke(ctx: OperationContext, caller: Caller, input: RevokeInput): Promise<RevokeDto> {
    const row = await this.find(input.inviteCode, input.duelId);
    const duel = await this.duels.require(row.duelId);
    assertCreator(duel, caller, 'revoke its invitations');
    const revokedAt = await this.repo.revoke(row.id);
    if (!revokedAt) {
      return {
        inviteCode: input.inviteCode,
        duelId: row.duelId,
        revokedAt: new Date(row.revokedAt ?? this.clock.now()).toISOString(),
        txHash: null,
      };
    }
    let txHash: `0x${string}` | null;
    try {
      const signer = await this.signers.forUser(caller.userId);
      txHash = await this.chain.revokeInvite(signer, duel.duelId as `0x${string}`, row.codeHash as `0x${string}`, {
        write: ctx.writeKey('revoke-invite'),
      });
    } catch (err) {
      // Never created on chain (its transaction failed): revoked here is all there is to do.
      if (isDomainError(err) && err.code === 'INVITE_NOT_FOUND') {
        txHash = null;
      } else {
        await this.repo.unrevoke(row.id);
        throw err;
      }
    }
    return {
      inviteCode: input.inviteCode,
      duelId: row.duelId,
      revokedAt: new Date(revokedAt).toISOString(),
      txHash,
    };
  }

  /** Active invitations: the codes for the creator, only their number for anyone else. */
  async forDuel(duelId: string, callerAddress: string | undefined): Promise<DuelInvitationsDto> {
    const duel = await this.duels.require(duelId);
    const rows = await this.repo.activeInvitations(duel.duelId);
    const isCreator = callerAddress !== undefined && sameAddress(callerAddress, duel.creatorAddress);
    return {
      duelId: duel.duelId,
      activeCount: rows.length,
      codesVisible: isCreator,
      invitations: isCreator ? rows.map((r) => toInvitationDto(r, this.clock.now())) : [],
    };
  }

  /** What the contract stores for the code (the database names the duel). */
  async onChain(inviteCode: string): Promise<OnChainInvitationDto> {
    const row = await this.find(inviteCode);
    const chain = await this.chain.invite(row.duelId as `0x${string}`, row.codeHash as `0x${string}`);
    const view = chain.exists
      ? {
          maxUses: chain.maxUses,
          uses: chain.uses,
          expiresAt: chain.expiresAt === 0 ? null : new Date(chain.expiresAt * 1000),
          revokedAt: chain.revoked ? new Date(0) : null,
        }
      : { maxUses: row.maxUses, uses: 0, expiresAt: row.expiresAt, revokedAt: row.revokedAt };
    return {
      inviteCode,
      codeHash: row.codeHash,
      duelId: row.duelId,
      exists: chain.exists,
      maxUses: view.maxUses,
      uses: view.uses,
      remainingUses: remainingUses(view),
      expiresAt: view.expiresAt ? new Date(view.expiresAt).toISOString() : null,
      revoked: view.revokedAt !== null,
      status: invitationState(view, this.clock.now()),
    };
  }

  private async insert(
    duel: Duel,
    caller: Caller,
    chosen: string | undefined,
    maxUses: number,
    expiresAt: Date | null,
  ): Promise<DuelInvitationRow> {
    for (let attempt = 0; ; attempt++) {
      const code = chosen ?? generateInviteCode();
      try {
        return await this.repo.insertInvitation({
          id: randomUUID(),
          duelId: duel.duelId,
          code,
          codeHash: codeHashOf(code),
          maxUses,
          expiresAt,
          createdByUserId: caller.userId,
          createdByAddress: getAddress(caller.address),
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // 80 random bits do not collide in practice; a chosen code may well be taken.
        if (chosen || attempt >= 2) {
          throw new DomainError('INVITE_CODE_TAKEN', 'This invite code is already in use: choose another', {
            fieldErrors: { 'body.inviteCode': ['is already in use'] },
          });
        }
      }
    }
  }
}
