/** A signed-in user of a builder app, from a user bearer token. */
export interface UserPrincipal {
  readonly kind: 'user';
  readonly userId: string;
  /** Managed wallet address (holds funds and positions). */
  readonly address: string;
  /** The EOA that signed in. */
  readonly eoaAddress: string;
  readonly builderAppId: string;
  readonly tokenId: string;
  /** Token expiry, seconds since the epoch. */
  readonly expiresAt: number;
}

/** An operator with a complete admin session (password and, when enabled, the second factor). */
export interface AdminPrincipal {
  readonly kind: 'admin';
  readonly adminId: string;
  readonly email: string;
  readonly tokenId: string;
  readonly expiresAt: number;
}

/** An admin half-way through a two-factor login: only `2fa/verify` accepts it. */
export interface AdminChallengePrincipal {
  readonly kind: 'admin-challenge';
  readonly adminId: string;
  readonly email: string;
  readonly tokenId: string;
  readonly expiresAt: number;
}

/** A wallet that signed the tournaments-host credential message. */
export interface WalletPrincipal {
  readonly kind: 'wallet';
  readonly address: string;
  readonly expiresAt: number;
}

/** Who is calling, beyond the builder app. */
export type Principal = UserPrincipal | AdminPrincipal | AdminChallengePrincipal | WalletPrincipal;

/** A stable identity for per-caller scoping (idempotency keys, limits). */
export function callerId(principal: Principal | undefined): string {
  if (!principal) return 'builder';
  switch (principal.kind) {
    case 'user':
      return `user:${principal.userId}`;
    case 'admin':
    case 'admin-challenge':
      return `admin:${principal.adminId}`;
    case 'wallet':
      return `wallet:${principal.address.toLowerCase()}`;
  }
}
