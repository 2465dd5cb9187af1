import { DomainError } from '../../errors.js';
import type { Duel, DuelStatus } from './duel.entity.js';

/** Who asks for a transition. `system` is a scheduled job of the platform. */
export type Actor = 'creator' | 'participant' | 'admin' | 'system';

/** Everything that can happen to a market after its creation. */
export type Transition = 'close' | 'resolve' | 'contest' | 'finalize' | 'cancel' | 'payout' | 'refund';

/** `open` is split by time: bootstrapping before the start, live until the end. */
export type OpenPhase = 'bootstrapping' | 'live';

interface Rule {
  readonly from: readonly DuelStatus[];
  /** The state the chain (or the job) moves the market to; `from` for effects that keep it. */
  readonly to: DuelStatus | 'same';
  readonly by: readonly Actor[];
  /** What must hold besides the state, checked against the clock; a message when it does not. */
  readonly guard?: (duel: DuelView, now: number) => string | undefined;
  /** How the verb reads in an error message: "cannot be <verb>". */
  readonly verb: string;
}

/** The fields of a duel the state machine reads. */
export type DuelView = Pick<
  Duel,
  'duelId' | 'status' | 'chainState' | 'startTime' | 'endTime' | 'contestEndsAt' | 'winningOptionIndex'
>;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
/** Milliseconds of a time column; raw queries return timestamptz as text, the ORM as Date. */
const ms = (d: Date | string) => new Date(d).getTime();

/**
 * The lifecycle of a market (docs/duel-lifecycle.md). The chain holds the truth for resolve,
 * finalize and cancel: these rules only decide whether a request is worth sending, and the
 * indexer moves the status once the chain confirms. `close` is ours alone (the chain has no
 * "ended" state; it checks the end time on every call).
 */
export const TRANSITIONS: Readonly<Record<Transition, Rule>> = {
  close: {
    from: ['open'],
    to: 'pending',
    by: ['system'],
    verb: 'closed',
    guard: (d, now) => (now < ms(d.endTime) ? `it trades until ${iso(d.endTime)}` : undefined),
  },
  resolve: {
    from: ['pending'],
    to: 'pending_contest',
    // Admins resolve the markets of packs (docs/packs.md).
    by: ['creator', 'admin'],
    verb: 'resolved',
    guard: (d, now) => (now < ms(d.endTime) ? `it has not ended; it ends at ${iso(d.endTime)}` : undefined),
  },
  contest: {
    from: ['pending_contest'],
    to: 'same',
    by: ['participant'],
    verb: 'contested',
    guard: (d, now) =>
      d.contestEndsAt && now >= ms(d.contestEndsAt) ? `its contest period ended at ${iso(d.contestEndsAt)}` : undefined,
  },
  finalize: {
    from: ['pending_contest'],
    to: 'settled',
    by: ['creator', 'admin', 'system'],
    verb: 'finalized',
    guard: (d, now) =>
      !d.contestEndsAt || now < ms(d.contestEndsAt)
        ? `its contest period runs until ${iso(d.contestEndsAt)}`
        : undefined,
  },
  cancel: {
    from: ['open', 'pending', 'pending_contest'],
    to: 'cancelled',
    by: ['admin', 'system'],
    verb: 'cancelled',
  },
  // A participant pulls their own payout (claim-winnings); admins and the sweep push everyone's.
  payout: { from: ['settled'], to: 'same', by: ['admin', 'system', 'participant'], verb: 'paid out' },
  refund: { from: ['cancelled'], to: 'same', by: ['admin', 'system'], verb: 'refunded' },
};

/**
 * The status the rules see: a market past its end that the close job has not reached yet is
 * already `pending` (nothing may trade, it may be resolved).
 */
export function effectiveStatus(duel: Pick<Duel, 'status' | 'endTime'>, now: number): DuelStatus {
  return duel.status === 'open' && now >= ms(duel.endTime) ? 'pending' : duel.status;
}

/** Bootstrapping before the start, live after it; undefined when the market is not open. */
export function openPhase(duel: Pick<Duel, 'status' | 'startTime' | 'endTime'>, now: number): OpenPhase | undefined {
  if (effectiveStatus(duel, now) !== 'open') return undefined;
  return now < ms(duel.startTime) ? 'bootstrapping' : 'live';
}

/** Human description of the state, e.g. "open (bootstrapping)". */
export function describeState(duel: DuelView, now: number): string {
  const status = effectiveStatus(duel, now);
  const phase = openPhase(duel, now);
  return phase ? `${status} (${phase})` : status;
}

/**
 * Checks that `actor` may apply `transition` to `duel` now and returns the target status. Every
 * refusal is a 4xx: FORBIDDEN when the actor may never do it, INVALID_STATE (409) with
 * `details.status` when the market's state or clock does not allow it.
 */
export function assertTransition(duel: DuelView, transition: Transition, actor: Actor, now: number): DuelStatus {
  const rule = TRANSITIONS[transition];
  if (!rule.by.includes(actor)) {
    throw new DomainError('FORBIDDEN', `A ${actor} may not ${transition} a market; allowed: ${rule.by.join(', ')}`, {
      details: { duelId: duel.duelId, transition, allowed: rule.by },
    });
  }
  const status = effectiveStatus(duel, now);
  const details = {
    duelId: duel.duelId,
    status,
    ...(openPhase(duel, now) ? { phase: openPhase(duel, now) } : {}),
    chainState: duel.chainState,
    endTime: iso(duel.endTime),
    contestEndsAt: iso(duel.contestEndsAt),
    allowedFrom: rule.from,
  };
  if (duel.chainState !== 'confirmed') {
    throw new DomainError(
      'INVALID_STATE',
      `Duel ${duel.duelId} cannot be ${rule.verb}: its creation is ${duel.chainState} on chain`,
      { details },
    );
  }
  if (!rule.from.includes(status)) {
    throw new DomainError(
      'INVALID_STATE',
      `Duel ${duel.duelId} cannot be ${rule.verb}. Current status: ${describeState(duel, now)}; allowed from: ${rule.from.join(', ')}`,
      { details },
    );
  }
  const blocked = rule.guard?.(duel, now);
  if (blocked) {
    throw new DomainError('INVALID_STATE', `Duel ${duel.duelId} cannot be ${rule.verb} yet: ${blocked}`, { details });
  }
  return rule.to === 'same' ? status : rule.to;
}

/** Whether the transition is allowed now, without throwing. */
export function canTransition(duel: DuelView, transition: Transition, actor: Actor, now: number): boolean {
  try {
    assertTransition(duel, transition, actor, now);
    return true;
  } catch {
    return false;
  }
}
