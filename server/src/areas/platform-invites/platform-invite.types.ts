/** A platform invite code as stored (docs/operations.md, "Invites"). */
export interface InviteRecord {
  readonly id: string;
  readonly code: string;
  readonly ownerUserId: string | null;
  readonly maxUses: number;
  readonly uses: number;
  readonly expiresAt: Date | null;
  readonly note: string | null;
  readonly batchId: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly deactivatedAt: Date | null;
  readonly deactivationReason: string | null;
}

export interface InviteUseRecord {
  readonly userId: string;
  readonly username: string | null;
  readonly address: string;
  readonly usedAt: Date;
}

export type InviteState = 'active' | 'deactivated' | 'expired' | 'exhausted';

export interface InviteFilter {
  readonly ownerUserId?: string | undefined;
  readonly codePrefix?: string | undefined;
  /** Filter by state at `now`. */
  readonly state?: InviteState | undefined;
  readonly now: Date;
}

/** Why a code admits nobody, or null when it admits a sign-up at `now`. */
export function refusalOf(invite: InviteRecord, now: Date): Exclude<InviteState, 'active'> | null {
  if (invite.deactivatedAt) return 'deactivated';
  if (invite.expiresAt && invite.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (invite.maxUses > 0 && invite.uses >= invite.maxUses) return 'exhausted';
  return null;
}

export function stateOf(invite: InviteRecord, now: Date): InviteState {
  return refusalOf(invite, now) ?? 'active';
}

/** What the invites service needs of storage; PlatformInviteRepository is the PostgreSQL one. */
export interface InviteStore {
  userExists(userId: string): Promise<boolean>;
  /** Inserts every invite in one transaction; `{ taken: code }` (and nothing inserted) when a code exists. */
  insertAll(invites: readonly InviteRecord[]): Promise<{ taken: string } | { ok: true }>;
  byId(id: string): Promise<InviteRecord | undefined>;
  byCode(code: string): Promise<InviteRecord | undefined>;
  uses(inviteId: string): Promise<InviteUseRecord[]>;
  /** Sets the deactivation of the given codes that are still active; the number changed. */
  deactivate(ids: readonly string[], by: string, reason: string | null, at: Date): Promise<number>;
  ownedBy(userId: string): Promise<InviteRecord[]>;
  page(filter: InviteFilter, limit: number, offset: number): Promise<{ rows: InviteRecord[]; total: number }>;
}
