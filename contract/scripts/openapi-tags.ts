/**
 * The OpenAPI tags (the `tag` of each route's `meta`), described for readers of the reference,
 * with the guide under docs/ that explains the area and the group the area is listed in.
 * The order here is the reading order of the documents: tags within a group, groups in
 * {@link TAG_GROUPS}.
 */
export interface TagDoc {
  readonly name: string;
  /** One or two sentences: what the area is for. */
  readonly summary: string;
  /** The guide, a file under docs/ in the repository (served at /docs/guides/<file>). */
  readonly guide: string;
  readonly group: TagGroup;
}

/** Areas in reading order: sign in, find markets, trade, share privately, move money, then the rest. */
export const TAG_GROUPS = [
  'Authentication',
  'Markets',
  'Trading',
  'Private markets',
  'Money',
  'Packs',
  'Statistics',
  'Tournaments',
  'Sports data',
  'Administration',
  'Operations',
] as const;
export type TagGroup = (typeof TAG_GROUPS)[number];

export const TAG_DOCS: readonly TagDoc[] = [
  {
    name: 'User auth',
    group: 'Authentication',
    guide: 'auth.md',
    summary:
      'Sign users in with Sign-In with Ethereum or an identity-provider token, create their accounts (each with a ' +
      'managed wallet), and manage their profile. Answers the user JWT that bearer routes take.',
  },
  {
    name: 'Wallet',
    group: 'Authentication',
    guide: 'auth.md',
    summary: 'Sign messages and EIP-712 typed data with the caller’s managed wallet, for flows that need a signature.',
  },
  {
    name: 'Bulk registration',
    group: 'Authentication',
    guide: 'auth.md',
    summary:
      'Builder-level account creation for wallets the builder already knows (one, or up to 200 at a time), ' +
      'without a user signature.',
  },
  {
    name: 'Tournaments auth',
    group: 'Authentication',
    guide: 'auth.md',
    summary:
      'How the tournaments host recognises a user: a markets-host JWT or a wallet credential in the x-wallet-* headers.',
  },
  {
    name: 'Duels',
    group: 'Markets',
    guide: 'markets.md',
    summary:
      'Create prediction markets ("duels") on chain and read them: lists, one market, participants and share-card ' +
      'metadata. The lifecycle of a market is in docs/duel-lifecycle.md.',
  },
  {
    name: 'Resolution',
    group: 'Markets',
    guide: 'duel-lifecycle.md',
    summary:
      'Creators resolve their ended markets, participants contest a resolution during the contest period, and the ' +
      'creator settles the market once it is over.',
  },
  {
    name: 'Bets',
    group: 'Trading',
    guide: 'markets.md',
    summary:
      'Quote and place bets and sales against a market’s on-chain pool (estimate first, then create or sell with the ' +
      'estimate), read holdings, limits and price history (docs/price-history.md).',
  },
  {
    name: 'Portfolio',
    group: 'Trading',
    guide: 'analytics.md',
    summary: 'A wallet’s positions, trades, created markets and profit and loss, as tables and charts.',
  },
  {
    name: 'Duel invitations',
    group: 'Private markets',
    guide: 'private-markets.md',
    summary:
      'Private markets trade for members only: creators issue invitation codes and manage members, users validate ' +
      'a code and join with it.',
  },
  {
    name: 'Parent markets',
    group: 'Private markets',
    guide: 'private-markets.md',
    summary:
      'A parent market groups sub-markets (one per outcome or fixture); a parent-level code grants membership in ' +
      'every private sub-market.',
  },
  {
    name: 'Referrals',
    group: 'Private markets',
    guide: 'money.md',
    summary: 'The people a user brought in through their invitations, and the volume they traded.',
  },
  {
    name: 'Outbound webhooks',
    group: 'Operations',
    guide: 'events.md',
    summary:
      'Signed outbound webhooks: register endpoints that receive the app’s events (market confirmed, bet ' +
      'confirmed, resolved, settled, …), follow every delivery attempt, rotate secrets and redeliver.',
  },
  {
    name: 'Event streams',
    group: 'Operations',
    guide: 'events.md',
    summary:
      'The same events as Server-Sent Events: the builder app’s stream, and a signed-in user’s stream of what that ' +
      'user may see (public markets, private markets they belong to, their own bets and money), resumable with ' +
      '`Last-Event-ID`.',
  },
  {
    name: 'Money',
    group: 'Money',
    guide: 'money.md',
    summary: 'Claim the payouts of settled markets you won and the trading fees of the markets you created.',
  },
  {
    name: 'Withdrawals',
    group: 'Money',
    guide: 'money.md',
    summary:
      'Send collateral from the managed wallet to an external address within the rolling 24 h limit, or ask an admin ' +
      'to approve a larger withdrawal.',
  },
  {
    name: 'Uploads',
    group: 'Money',
    guide: 'money.md',
    summary: 'Signed, expiring URLs to upload images (market artwork and the like) straight to object storage.',
  },
  {
    name: 'Webhooks',
    group: 'Money',
    guide: 'money.md',
    summary:
      'Called by the bridge provider, not by builders: a completed deposit credits the user exactly once. ' +
      'Authenticated by an HMAC signature instead of the builder key.',
  },
  {
    name: 'Packs',
    group: 'Packs',
    guide: 'packs.md',
    summary:
      'A pack bundles markets into one contest: users pay an entry fee into the pack’s pool, pick an outcome per ' +
      'market, score points, and the best share the prize pool. Creators build their own packs.',
  },
  {
    name: 'Protocol statistics',
    group: 'Statistics',
    guide: 'analytics.md',
    summary: 'Platform-wide figures: totals, 24-hour activity and breakdowns by collateral, category and status.',
  },
  {
    name: 'Leaderboards',
    group: 'Statistics',
    guide: 'analytics.md',
    summary: 'Creators and traders ranked by volume or profit and loss, platform totals, and activity charts.',
  },
  {
    name: 'Tournaments',
    group: 'Tournaments',
    guide: 'tournaments.md',
    summary:
      'Paid prediction tournaments on football: creators post a bond and open a tournament, players deposit a buy-in, ' +
      'stake chips on fixtures stage by stage, dispute results, and claim payouts or refunds from the prize vault.',
  },
  {
    name: 'Parlay',
    group: 'Tournaments',
    guide: 'parlays.md',
    summary:
      'Parlays on football: a catalogue of games and conditions, leg checks, and EIP-712 signed quotes bound to the ' +
      'bettor, a nonce and an expiry, held against the liquidity pool’s risk limits.',
  },
  {
    name: 'Liquidity pool',
    group: 'Tournaments',
    guide: 'liquidity-pool.md',
    summary:
      'The pool behind every parlay ticket: cash, NAV and share price, the exposure live quotes and tickets hold, ' +
      'LP positions, and quotes for adding and removing liquidity.',
  },
  {
    name: 'Racing tournaments',
    group: 'Tournaments',
    guide: 'racing.md',
    summary:
      'F1 grid predictor tournaments over a motorsport season: predict the top of every session, lock early for a bonus, ' +
      'bet on weekend props, climb season, weekend and Elo leaderboards, and claim prizes from the prize vault.',
  },
  {
    name: 'Sports',
    group: 'Sports data',
    guide: 'sports-proxy.md',
    summary:
      'Football, cricket and motorsport data from the sports provider without holding its token: a proxy and cached ' +
      'aggregates.',
  },
  {
    name: 'Admin auth',
    group: 'Administration',
    guide: 'auth.md',
    summary:
      'Admin sign-in, optionally with two-factor authentication (TOTP and backup codes). Admin tokens are never ' +
      'accepted on user routes.',
  },
  {
    name: 'Admin markets',
    group: 'Administration',
    guide: 'admin-markets.md',
    summary:
      'Operate markets: cancel expired or faulty ones, settle contested ones, queue payouts and refunds, change ' +
      'market timings, and watch the markets awaiting resolution.',
  },
  {
    name: 'Admin withdrawals',
    group: 'Administration',
    guide: 'money.md',
    summary: 'Review the withdrawal requests above the daily limit: approve (executed as a durable job) or reject.',
  },
  {
    name: 'Admin referrals',
    group: 'Administration',
    guide: 'money.md',
    summary: 'Referral figures across the platform: every referrer, their referees, invitations and invite volume.',
  },
  {
    name: 'Packs admin',
    group: 'Administration',
    guide: 'packs.md',
    summary:
      'Run packs end to end: create and publish admin packs, lock, settle and cancel them, publish payout and refund ' +
      'roots on the prize vault and push the claims.',
  },
  {
    name: 'Parlay tournaments admin',
    group: 'Administration',
    guide: 'tournaments.md',
    summary:
      'Tournament administration from the markets host: cancel requests, discards and cancellations, forwarded to ' +
      'the tournaments host.',
  },
  {
    name: 'Tournaments admin',
    group: 'Administration',
    guide: 'tournaments.md',
    summary:
      'Settle stages, handle disputes, build and publish payout and refund roots, cancel tournaments and run the ' +
      'automation by hand.',
  },
  {
    name: 'Admin invites',
    group: 'Administration',
    guide: 'operations.md',
    summary:
      'Platform invite codes: issue them one at a time or in batches, revoke one or every code of a user, and see ' +
      'who signed up with each. Codes gate sign-up when the deployment is invite-only.',
  },
  {
    name: 'Admin reports',
    group: 'Administration',
    guide: 'operations.md',
    summary:
      'Every record of the platform as keyset-paginated pages, or as CSV of any size streamed from a database cursor.',
  },
  {
    name: 'Requests',
    group: 'Administration',
    guide: 'operations.md',
    summary:
      'Creator, league and token requests of users and the admin decision on them (a documented extension that ' +
      'writes what three reports list).',
  },
  {
    name: 'Operations admin',
    group: 'Operations',
    guide: 'operations.md',
    summary:
      'Run the deployment without a database console: push diagnostics and tests, the pre-match reminder cycle, ' +
      'match commentary, and export and import of the tournaments state as tracked jobs.',
  },
  {
    name: 'Notifications',
    group: 'Operations',
    guide: 'operations.md',
    summary: 'Register a user’s devices for push notifications (Expo or Web Push): a documented extension.',
  },
  {
    name: 'External markets',
    group: 'Markets',
    guide: 'external-markets.md',
    summary:
      'Trade on the external prediction market (Polymarket CLOB V2) through the service: credentials it holds, ' +
      'trading wallets deployed through the relayer, pUSD in and out, orders, trades, positions and discovery.',
  },
  {
    name: 'Health',
    group: 'Operations',
    guide: 'deployment.md',
    summary: 'Liveness and readiness of the tournaments and parlay services, for monitoring and orchestrators.',
  },
];

/** The tag's description in the documents: its summary and where its guide is. */
export function tagDescription(tag: TagDoc): string {
  return `${tag.summary}\n\nGuide: \`docs/${tag.guide}\` in the repository, also served at \`/docs/guides/${tag.guide}\`.`;
}
