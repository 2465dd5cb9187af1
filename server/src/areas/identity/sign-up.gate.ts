import type { SqlExec } from '../../platform/db/sql.js';

/**
 * What sign-up asks of the platform invite codes (docs/operations.md, "Invites"): whether a code
 * lets this sign-up in, and taking one of its uses in the sign-up's transaction.
 */
export interface SignUpGate {
  /** The usable code to redeem, undefined when none is to be redeemed; throws the refusal. */
  admit(code: string | undefined, now: Date): Promise<{ readonly id: string; readonly code: string } | undefined>;
  /** Takes a use inside `sql`'s transaction; throws (rolling the sign-up back) when none is left. */
  redeem(
    sql: SqlExec,
    invite: { readonly id: string; readonly code: string },
    userId: string,
    now: Date,
  ): Promise<void>;
}
