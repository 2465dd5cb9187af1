/**
 * How a route authenticates its caller, as in the `auth` column of the spec's endpoint list, and
 * `admin-challenge`, which the spec lists as `admin`: the `challengeToken` a login answers when
 * two-factor authentication is on, accepted only where the login is completed.
 * Every kind except `webhook` also requires the `x-builder-api-key` header.
 */
export type AuthKind =
  'public' | 'bearer' | 'optional-bearer' | 'admin' | 'admin-challenge' | 'jwt-or-wallet' | 'builder-only' | 'webhook';

/**
 * Where the usdc geo gate finds the collateral a request uses.
 *
 * - a dotted path into the request (`body.collateralStack`; `[]` walks an array, as in
 *   `body.markets[].collateralStack`): the gate refuses usdc from a blocked region before the
 *   handler runs;
 * - `market`: the collateral is the market's, known only to the service; the gate resolves the
 *   caller's region and the service judges it against the market.
 */
export interface GeoRule {
  readonly collateralFrom: 'market' | `body.${string}` | `query.${string}`;
}

/** Metadata carried by every contract route; the server and the OpenAPI generator read it. */
export interface RouteMeta {
  /** Who may call the route, as the spec's endpoint list says. */
  readonly auth: AuthKind;
  /**
   * What the server requires when it is stricter than `auth`: a route the spec lists as `public`
   * whose caller must still prove who it is (the withdrawal-requests routes take a bearer token).
   * The server's authentication and the OpenAPI `security` follow this; read it with
   * {@link enforcedAuth}.
   */
  readonly enforced?: AuthKind;
  /** Whether the route honours an `Idempotency-Key` header (stores its answer and replays it). */
  readonly idempotent: boolean;
  /**
   * A non-GET route that can be sent again without a second effect, with or without a key: a read
   * by POST (quotes, portfolio tables, proxies), setting a state that is already set, a revocation.
   * Clients may retry it after a timeout. A non-GET route that is neither `idempotent` nor
   * `repeatable` (a sign-in with a one-time signature) is retried only when the service says it
   * did not run (429).
   */
  readonly repeatable?: boolean;
  /** Section of the service interface that specifies the route, e.g. `4.17`. */
  readonly section: string;
  /** OpenAPI tag (the spec area). */
  readonly tag: string;
  /** Routes outside the spec (operational) do not require a builder key. */
  readonly operational?: boolean;
  /**
   * The answer depends only on the path and query (never on the caller) and may be served from a
   * short cache, a few seconds stale at most. Requests with an Authorization header bypass it.
   */
  readonly cacheable?: boolean;
  /**
   * A `public` route whose answer depends on who calls when a bearer token is sent (a member sees
   * their private market, an admin may list private duels). The token is optional; a token that is
   * sent is verified like on any other route, and a bad one is refused (docs/auth.md).
   */
  readonly personalised?: boolean;
  /** The route is subject to the usdc geo gate. */
  readonly geo?: GeoRule;
  /**
   * A documented extension: a route the spec's endpoint list does not have, added because a spec
   * route cannot work without it (a device registration for push, a request that a report lists).
   * Its `section` names the spec section it serves; `pnpm spec:coverage` counts it apart.
   */
  readonly extension?: boolean;
  /**
   * A GET list that also answers `text/csv`, streamed from a database cursor, when the request
   * sends `Accept: text/csv` or `format=csv` (docs/operations.md).
   */
  readonly csv?: boolean;
}

/** Builds a route's metadata; `idempotent` and `repeatable` default to false. */
export function meta(
  tag: string,
  section: string,
  auth: AuthKind,
  options: {
    idempotent?: boolean;
    repeatable?: boolean;
    operational?: boolean;
    cacheable?: boolean;
    personalised?: boolean;
    geo?: GeoRule;
    enforced?: AuthKind;
    extension?: boolean;
    csv?: boolean;
  } = {},
): RouteMeta {
  return {
    auth,
    ...(options.enforced && options.enforced !== auth ? { enforced: options.enforced } : {}),
    tag,
    section,
    idempotent: options.idempotent ?? false,
    ...(options.repeatable ? { repeatable: true } : {}),
    ...(options.operational ? { operational: true } : {}),
    ...(options.cacheable ? { cacheable: true } : {}),
    ...(options.personalised ? { personalised: true } : {}),
    ...(options.geo ? { geo: options.geo } : {}),
    ...(options.extension ? { extension: true } : {}),
    ...(options.csv ? { csv: true } : {}),
  };
}

/** Reads the metadata of a contract route, failing loudly when a route was declared without it. */
export function routeMeta(route: { metadata?: unknown; path: string }): RouteMeta {
  const m = route.metadata as Partial<RouteMeta> | undefined;
  if (!m || typeof m.auth !== 'string' || typeof m.section !== 'string') {
    throw new Error(`contract route ${route.path} has no metadata`);
  }
  return m as RouteMeta;
}

/** The authentication the server enforces on a route: its `enforced` kind, else its `auth`. */
export function enforcedAuth(meta: RouteMeta): AuthKind {
  return meta.enforced ?? meta.auth;
}
