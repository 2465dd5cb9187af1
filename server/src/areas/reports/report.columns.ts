import { REPORT_ROWS, type ReportName } from '@duelkit/contract';

/** How a column's SQL value becomes its wire value. */
export type ColumnType = 'text' | 'int' | 'bool' | 'time' | 'address';

/**
 * One report as SQL (docs/operations.md, "Reports"): the rows it reads, its time column (the
 * range filter and the first sort key), a unique text key (the tie-break of the keyset), the
 * builder-app and status expressions its filters use, and an expression per column of the row
 * (the contract's row schema fixes the columns and their order).
 */
export interface ReportDefinition {
  readonly from: string;
  readonly where?: string;
  readonly time: string;
  readonly key: string;
  readonly builder: string;
  readonly status?: string;
  readonly columns: Readonly<Record<string, readonly [sql: string, type: ColumnType]>>;
}

const text = (sql: string) => [sql, 'text'] as const;
const int = (sql: string) => [sql, 'int'] as const;
const time = (sql: string) => [sql, 'time'] as const;
const address = (sql: string) => [sql, 'address'] as const;
const amount = (sql: string) => [`(${sql})::text`, 'text'] as const;

const request = (kind: 'creator' | 'league' | 'token'): ReportDefinition => ({
  from: 'platform_requests r join users u on u.id = r.user_id',
  where: `r.kind = '${kind}'`,
  time: 'r.created_at',
  key: 'r.id::text',
  builder: 'r.builder_app_id',
  status: 'r.status',
  columns: {
    id: text('r.id::text'),
    kind: text('r.kind'),
    userId: text('r.user_id::text'),
    username: text('u.username'),
    address: address('u.managed_address'),
    status: text('r.status'),
    message: text('r.message'),
    leagueId: text('r.league_id'),
    tokenName: text('r.token_name'),
    tokenSymbol: text('r.token_symbol'),
    decidedBy: text('r.decided_by'),
    decidedAt: time('r.decided_at'),
    decisionReason: text('r.decision_reason'),
    builderAppId: text('r.builder_app_id::text'),
    createdAt: time('r.created_at'),
  },
});

const INVITATION_USES = `(
  select 'platform'::text as kind, pu.invite_id as invitation_id, pi.code, pi.owner_user_id, null::text as duel_id,
         pu.user_id, us.managed_address as user_address, us.builder_app_id, pu.used_at, 'p:' || pu.id::text as k
    from platform_invite_uses pu
    join platform_invites pi on pi.id = pu.invite_id
    join users us on us.id = pu.user_id
  union all
  select 'duel'::text, m.invitation_id, coalesce(i.code, i.code_hash), null::uuid, m.duel_id::text,
         m.user_id, m.member_address, d.builder_app_id, m.joined_at, 'd:' || m.duel_id || ':' || m.member_address
    from duel_memberships m
    join duel_invitations i on i.id = m.invitation_id
    join duels d on d.duel_id = m.duel_id
   where m.via = 'invite'
) x`;

/** Every report of §4.16, by name. */
export const REPORTS: Readonly<Record<ReportName, ReportDefinition>> = {
  bets: {
    from: 'trades t join duels d on d.duel_id = t.duel_id',
    time: 't.created_at',
    key: 't.id::text',
    builder: 'd.builder_app_id',
    status: 't.side',
    columns: {
      id: text('t.id::text'),
      duelId: text('t.duel_id'),
      trader: address('t.trader'),
      side: text('t.side'),
      optionIndex: int('t.option_index'),
      collateral: amount('t.collateral'),
      fee: amount('t.fee'),
      shares: amount('t.shares'),
      collateralStack: text('d.collateral_stack'),
      txHash: text('t.tx_hash'),
      logIndex: int('t.log_index'),
      blockNumber: amount('t.block_number'),
      builderAppId: text('d.builder_app_id::text'),
      createdAt: time('t.created_at'),
    },
  },
  contests: {
    from: 'duel_contests c join duels d on d.duel_id = c.duel_id',
    time: 'c.created_at',
    key: 'c.id::text',
    builder: 'd.builder_app_id',
    columns: {
      id: text('c.id::text'),
      duelId: text('c.duel_id'),
      userAddress: address('c.user_address'),
      userId: text('c.user_id::text'),
      reason: text('c.reason'),
      proposedOptionIndex: int('c.proposed_option_index'),
      builderAppId: text('d.builder_app_id::text'),
      createdAt: time('c.created_at'),
    },
  },
  'creator-requests': request('creator'),
  'duel-memberships': {
    from: 'duel_memberships m join duels d on d.duel_id = m.duel_id',
    time: 'm.joined_at',
    key: `m.duel_id || ':' || m.member_address`,
    builder: 'd.builder_app_id',
    status: `case when m.removed_at is not null then 'removed' else m.chain_state end`,
    columns: {
      duelId: text('m.duel_id'),
      memberAddress: address('m.member_address'),
      userId: text('m.user_id::text'),
      via: text('m.via'),
      invitationId: text('m.invitation_id::text'),
      chainState: text('m.chain_state'),
      joinedAt: time('m.joined_at'),
      removedAt: time('m.removed_at'),
      builderAppId: text('d.builder_app_id::text'),
    },
  },
  duels: {
    from: 'duels d',
    time: 'd.created_at',
    key: 'd.id::text',
    builder: 'd.builder_app_id',
    status: 'd.status',
    columns: {
      duelId: text('d.duel_id'),
      question: text('d.question'),
      category: text('d.category'),
      status: text('d.status'),
      chainState: text('d.chain_state'),
      collateralStack: text('d.collateral_stack'),
      isPrivate: ['d.is_private', 'bool'],
      creatorAddress: address('d.creator_address'),
      totalVolume: amount('d.total_volume'),
      uniqueParticipants: int('d.unique_participants'),
      startTime: time('d.start_time'),
      endTime: time('d.end_time'),
      builderAppId: text('d.builder_app_id::text'),
      createdAt: time('d.created_at'),
    },
  },
  'invitation-usage': {
    from: INVITATION_USES,
    time: 'x.used_at',
    key: 'x.k',
    builder: 'x.builder_app_id',
    status: 'x.kind',
    columns: {
      kind: text('x.kind'),
      invitationId: text('x.invitation_id::text'),
      code: text('x.code'),
      ownerUserId: text('x.owner_user_id::text'),
      duelId: text('x.duel_id'),
      userId: text('x.user_id::text'),
      userAddress: address('x.user_address'),
      builderAppId: text('x.builder_app_id::text'),
      usedAt: time('x.used_at'),
    },
  },
  'launched-tokens': {
    from: 'launched_tokens l join users u on u.id = l.user_id',
    time: 'l.launched_at',
    key: 'l.id::text',
    builder: 'u.builder_app_id',
    columns: {
      id: text('l.id::text'),
      requestId: text('l.request_id::text'),
      userId: text('l.user_id::text'),
      address: address('u.managed_address'),
      name: text('l.name'),
      symbol: text('l.symbol'),
      tokenAddress: address('l.token_address'),
      launchedBy: text('l.launched_by'),
      builderAppId: text('u.builder_app_id::text'),
      launchedAt: time('l.launched_at'),
    },
  },
  'league-memberships': {
    from: 'league_memberships lm join users u on u.id = lm.user_id',
    time: 'lm.joined_at',
    key: `lm.league_id || ':' || lm.user_id::text`,
    builder: 'u.builder_app_id',
    columns: {
      leagueId: text('lm.league_id'),
      userId: text('lm.user_id::text'),
      address: address('u.managed_address'),
      requestId: text('lm.request_id::text'),
      builderAppId: text('u.builder_app_id::text'),
      joinedAt: time('lm.joined_at'),
    },
  },
  'league-requests': request('league'),
  'pnl-snapshots': {
    from: 'pnl_snapshots p left join users u on lower(u.managed_address) = lower(p.holder)',
    time: 'p.snapshot_at',
    key: `p.holder || ':' || p.day::text`,
    builder: 'u.builder_app_id',
    columns: {
      holder: address('p.holder'),
      day: text('p.day::text'),
      invested: amount('p.invested'),
      returned: amount('p.returned'),
      openCostBasis: amount('p.open_cost_basis'),
      realizedPnl: amount('p.returned - (p.invested - p.open_cost_basis)'),
      trades: int('p.trades'),
      userId: text('u.id::text'),
      builderAppId: text('u.builder_app_id::text'),
      snapshotAt: time('p.snapshot_at'),
    },
  },
  'token-requests': request('token'),
  users: {
    from: 'users u',
    time: 'u.created_at',
    key: 'u.id::text',
    builder: 'u.builder_app_id',
    columns: {
      id: text('u.id::text'),
      username: text('u.username'),
      address: address('u.managed_address'),
      eoaAddress: address('u.eoa_address'),
      inviteCode: text('u.invite_code'),
      builderAppId: text('u.builder_app_id::text'),
      createdAt: time('u.created_at'),
    },
  },
  withdrawals: {
    from: 'withdrawals w join users u on u.id = w.user_id',
    time: 'w.created_at',
    key: 'w.id::text',
    builder: 'u.builder_app_id',
    status: 'w.status',
    columns: {
      id: text('w.id::text'),
      userId: text('w.user_id::text'),
      address: address('w.address'),
      collateralStack: text('w.collateral_stack'),
      toAddress: address('w.to_address'),
      amount: amount('w.amount'),
      status: text('w.status'),
      requestId: text('w.request_id::text'),
      txHash: text('w.tx_hash'),
      failureReason: text('w.failure_reason'),
      builderAppId: text('u.builder_app_id::text'),
      createdAt: time('w.created_at'),
      completedAt: time('w.completed_at'),
    },
  },
};

/** The CSV columns of a report: the keys of its row schema, in order. */
export function columnsOf(name: ReportName): string[] {
  return Object.keys(REPORT_ROWS[name].shape);
}
