/** A rejected estimate: the request was well formed, the market cannot honour it. */
export type Rejection = { success: false; code: RejectionCode; message: string; details?: Record<string, string> };
export type RejectionCode =
  'BET_BELOW_MINIMUM' | 'MARKET_NOT_TRADABLE' | 'BET_LIMIT_EXCEEDED' | 'INSUFFICIENT_SHARES' | 'POOL_TOO_SMALL';

/** Thrown inside estimates; turned into a `{ success: false }` answer (or a 4xx when trading). */
export class Rejected extends Error {
  constructor(readonly rejection: Rejection) {
    super(rejection.message);
  }
}

export function reject(code: RejectionCode, message: string, details?: Record<string, string>): never {
  throw new Rejected({ success: false, code, message, ...(details ? { details } : {}) });
}
