import {
  decodeFunctionData,
  encodeFunctionResult,
  getAddress,
  isAddress,
  keccak256,
  numberToHex,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import type { Clock } from '../../../platform/clock.js';
import { text, EXT_CALL_ABI, EXT_CONTRACTS, EXT_UNIT, fromMicro } from '../extmarket.protocol.js';
import { Ledger } from './ledger.js';
import {
  seedCatalog,
  seedScores,
  type SimEvent,
  type SimMarket,
  type SimSport,
  type SimTag,
  type SportResult,
} from './local-catalog.js';
import { LocalClob } from './local-clob.js';
import { bad, ok, type SimFault, type SimHost, type SimRequest, type SimResponse } from './local-exchange.types.js';
import { LocalRelayer } from './local-relayer.js';

export interface LocalExchangeOptions {
  readonly clock: Clock;
  /** Builder credentials the relayer accepts (the service is configured with the same). */
  readonly builder: { key: string; secret: string; passphrase: string };
  /** Seeds API keys and ids so that runs are reproducible. */
  readonly seed?: string;
  /** Delays of the state machines, in ms of the injected clock. */
  readonly timings?: Partial<{
    tradeMineMs: number;
    tradeConfirmMs: number;
    relayerExecuteMs: number;
    relayerMineMs: number;
    relayerConfirmMs: number;
    bridgeStepMs: number;
  }>;
}

const BRIDGE_STATES = ['DEPOSIT_DETECTED', 'PROCESSING', 'ORIGIN_TX_CONFIRMED', 'SUBMITTED', 'COMPLETED'] as const;

interface BridgeTx {
  readonly fromChainId: string;
  readonly fromTokenAddress: string;
  readonly fromAmountBaseUnit: string;
  readonly toChainId: string;
  readonly toTokenAddress: string;
  readonly createdMs: number;
  credited: boolean;
}

interface BridgeAddress {
  readonly kind: 'deposit' | 'withdraw';
  /** The trading wallet credited (deposit) or the outside recipient (withdraw). */
  readonly target: string;
  readonly toChainId: string;
  readonly toTokenAddress: string;
  readonly txs: BridgeTx[];
}

/**
 * A faithful stand-in for the external exchange: its CLOB, relayer, Gamma, Data and Bridge APIs
 * and a minimal Polygon JSON-RPC, over one ledger and the injected clock, with fault injection
 * per host and test hooks (fund an address, resolve a market, fail relayer transactions).
 * `local-exchange.server.ts` serves it on loopback.
 */
export class LocalExchange {
  readonly ledger = new Ledger();
  readonly clob: LocalClob;
  readonly relayer: LocalRelayer;
  private catalog: { events: SimEvent[]; tags: SimTag[]; sports: SimSport[] } = seedCatalog();
  private scores: SportResult[] = seedScores();
  private readonly bridge = new Map<string, BridgeAddress>();
  private readonly faults = new Map<SimHost, SimFault>();
  private readonly bridgeStepMs: number;
  /** Called when a score changes, so the live-score socket can push it. */
  onScore?: (result: SportResult) => void;

  constructor(private readonly opts: LocalExchangeOptions) {
    const t = opts.timings ?? {};
    this.bridgeStepMs = t.bridgeStepMs ?? 2_000;
    this.relayer = new LocalRelayer(opts.clock, this.ledger, (cid) => this.clob.marketByCondition(cid), opts.builder, {
      executeMs: t.relayerExecuteMs ?? 1_000,
      mineMs: t.relayerMineMs ?? 2_000,
      confirmMs: t.relayerConfirmMs ?? 4_000,
    });
    this.clob = new LocalClob(opts.clock, this.ledger, () => this.catalog.events, this.relayer, opts.seed ?? 'local', {
      mineMs: t.tradeMineMs ?? 2_000,
      confirmMs: t.tradeConfirmMs ?? 4_000,
    });
  }

  // ---- test hooks --------------------------------------------------------------------------

  /** Credits an address: `asset` is a token address, an outcome token id, or 'POL' (18 decimals). */
  fund(address: string, asset: string, amount: bigint): void {
    this.ledger.credit(address, asset, amount);
  }

  resolve(conditionId: string, winner: 0 | 1): void {
    const m = this.clob.marketByCondition(conditionId);
    if (!m) throw new Error(`unknown market ${conditionId}`);
    m.winner = winner;
  }

  setFault(host: SimHost, fault: SimFault | undefined): void {
    if (fault) this.faults.set(host, { ...fault });
    else this.faults.delete(host);
  }

  /** The fault to apply to this request (of `path`), counting it down. */
  takeFault(host: SimHost, path?: string): SimFault | undefined {
    const f = this.faults.get(host);
    if (!f || (f.path !== undefined && f.path !== path)) return undefined;
    if (f.remaining !== undefined && --f.remaining <= 0) this.faults.delete(host);
    return f;
  }

  setScore(result: SportResult): void {
    this.scores = [...this.scores.filter((s) => s.gameId !== result.gameId), result];
    this.onScore?.(result);
  }

  currentScores(): readonly SportResult[] {
    return this.scores;
  }

  addEvent(event: SimEvent): void {
    this.catalog.events.push(event);
  }

  events(): readonly SimEvent[] {
    return this.catalog.events;
  }

  /** Moves an event's market data as trading upstream would: its 24 h volume and whether it is in play. */
  setMarketData(eventId: string, data: { volume24hr?: number; live?: boolean }): void {
    const event = this.catalog.events.find((e) => e.id === eventId);
    if (!event) throw new Error(`no event ${eventId} in the local catalogue`);
    if (data.volume24hr !== undefined) event.volume24hr = data.volume24hr;
    if (data.live !== undefined) event.live = data.live;
  }

  // ---- dispatch ----------------------------------------------------------------------------

  async handle(host: SimHost, req: SimRequest): Promise<SimResponse> {
    this.advance();
    if (req.path.startsWith('/_sim/')) return this.admin(req);
    switch (host) {
      case 'clob':
        return this.clob.handle(req);
      case 'relayer':
        return this.relayer.handle(req);
      case 'gamma':
        return this.gamma(req);
      case 'data':
        return this.data(req);
      case 'bridge':
        return this.bridgeApi(req);
      case 'rpc':
        return this.rpc(req);
    }
  }

  /** Runs whatever the clock made due: relayer executions and bridge completions. */
  advance(): void {
    this.relayer.advance();
    const now = this.opts.clock.now();
    for (const [addr, a] of this.bridge) {
      if (a.kind === 'withdraw') {
        const held = this.ledger.balance(addr, EXT_CONTRACTS.pUsd);
        if (held > 0n) {
          this.ledger.burn(addr, EXT_CONTRACTS.pUsd, held);
          a.txs.push({
            fromChainId: '137',
            fromTokenAddress: EXT_CONTRACTS.pUsd,
            fromAmountBaseUnit: held.toString(),
            toChainId: a.toChainId,
            toTokenAddress: a.toTokenAddress,
            createdMs: now,
            credited: true,
          });
        }
      }
      for (const tx of a.txs) {
        if (
          a.kind === 'deposit' &&
          !tx.credited &&
          now - tx.createdMs >= this.bridgeStepMs * (BRIDGE_STATES.length - 1)
        ) {
          this.ledger.credit(a.target, EXT_CONTRACTS.pUsd, BigInt(tx.fromAmountBaseUnit));
          tx.credited = true;
        }
      }
    }
  }

  private admin(req: SimRequest): SimResponse {
    const body = JSON.parse(req.body || '{}') as Record<string, unknown>;
    const str = (k: string) => text(body[k], '');
    if (req.path === '/_sim/fund') {
      this.fund(str('address'), str('asset'), BigInt(str('amount')));
      return ok({ ok: true });
    }
    if (req.path === '/_sim/resolve') {
      this.resolve(str('conditionId'), Number(body['winner']) === 1 ? 1 : 0);
      return ok({ ok: true });
    }
    if (req.path === '/_sim/bridge-deposit')
      return this.detectDeposit(str('depositAddress'), BigInt(str('amount')), str('fromChainId') || '1');
    return bad('not found', 404);
  }

  /** A payment seen at a bridge deposit address (the test hook of the Bridge). */
  detectDeposit(depositAddress: string, amount: bigint, fromChainId = '1'): SimResponse {
    const a = this.bridge.get(depositAddress.toLowerCase());
    if (!a || a.kind !== 'deposit') return bad('unknown deposit address', 404);
    a.txs.push({
      fromChainId,
      fromTokenAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      fromAmountBaseUnit: amount.toString(),
      toChainId: '137',
      toTokenAddress: EXT_CONTRACTS.pUsd,
      createdMs: this.opts.clock.now(),
      credited: false,
    });
    return ok({ ok: true });
  }

  // ---- Bridge ------------------------------------------------------------------------------

  private bridgeAddress(kind: 'deposit' | 'withdraw', target: string, extra: string): Address {
    return getAddress(`0x${keccak256(toHex(`bridge|${kind}|${target.toLowerCase()}|${extra}`)).slice(26)}`);
  }

  private bridgeApi(req: SimRequest): SimResponse {
    const route = `${req.method} ${req.path}`;
    if (route === 'POST /deposit' || route === 'POST /withdraw') {
      let b: Record<string, unknown>;
      try {
        b = JSON.parse(req.body || '{}') as Record<string, unknown>;
      } catch {
        return bad('invalid body');
      }
      const address = text(b['address'], '');
      if (!isAddress(address)) return bad('invalid address');
      const deposit = route === 'POST /deposit';
      const recipient = text(b['recipientAddr'], '');
      if (!deposit && !isAddress(recipient)) return bad('invalid recipientAddr');
      const toChainId = deposit ? '137' : text(b['toChainId'], '');
      const toToken = deposit ? EXT_CONTRACTS.pUsd : text(b['toTokenAddress'], '');
      const evm = this.bridgeAddress(
        deposit ? 'deposit' : 'withdraw',
        deposit ? address : recipient,
        `${toChainId}|${toToken}`,
      );
      if (!this.bridge.has(evm.toLowerCase()))
        this.bridge.set(evm.toLowerCase(), {
          kind: deposit ? 'deposit' : 'withdraw',
          target: deposit ? address : recipient,
          toChainId,
          toTokenAddress: toToken,
          txs: [],
        });
      const tail = keccak256(toHex(evm)).slice(2);
      return ok({
        address: { evm, svm: tail.slice(0, 44), btc: `bc1q${tail.slice(0, 38)}` },
        note: deposit
          ? 'Send funds to these addresses; they arrive as pUSD on Polygon.'
          : 'Send pUSD on Polygon to the evm address.',
      });
    }
    if (req.method === 'GET' && req.path.startsWith('/status/')) {
      const a = this.bridge.get(req.path.slice('/status/'.length).toLowerCase());
      if (!a) return ok({ transactions: [] });
      const now = this.opts.clock.now();
      return ok({
        transactions: a.txs.map((t) => {
          const step = Math.min(BRIDGE_STATES.length - 1, Math.floor((now - t.createdMs) / this.bridgeStepMs));
          return {
            fromChainId: t.fromChainId,
            fromTokenAddress: t.fromTokenAddress,
            fromAmountBaseUnit: t.fromAmountBaseUnit,
            toChainId: t.toChainId,
            toTokenAddress: t.toTokenAddress,
            createdTimeMs: t.createdMs,
            status: BRIDGE_STATES[step],
            ...(step >= 2 ? { txHash: keccak256(toHex(`bridge-tx|${t.createdMs}|${t.fromAmountBaseUnit}`)) } : {}),
          };
        }),
      });
    }
    return bad('not found', 404);
  }

  // ---- Gamma -------------------------------------------------------------------------------

  private marketJson(m: SimMarket, e: SimEvent) {
    const prices = m.tokens.map((t) => fromMicro(this.clob.midpoint(t.tokenId) ?? EXT_UNIT / 2n));
    return {
      id: m.conditionId.slice(2, 10),
      question: m.question,
      conditionId: m.conditionId,
      slug: m.slug,
      clobTokenIds: JSON.stringify(m.tokens.map((t) => t.tokenId)),
      outcomes: JSON.stringify(m.tokens.map((t) => t.outcome)),
      outcomePrices: JSON.stringify(prices),
      enableOrderBook: true,
      negRisk: m.negRisk,
      orderPriceMinTickSize: Number(m.tickSize),
      orderMinSize: Number(fromMicro(m.minOrderSize)),
      active: m.winner === undefined,
      closed: m.winner !== undefined,
      endDate: m.endDate,
      volume24hr: e.volume24hr,
    };
  }

  private eventJson(e: SimEvent) {
    return {
      id: e.id,
      slug: e.slug,
      title: e.title,
      startDate: e.startDate,
      active: e.markets.some((m) => m.winner === undefined),
      closed: e.markets.every((m) => m.winner !== undefined),
      live: e.live,
      volume24hr: e.volume24hr,
      seriesId: e.seriesId,
      tags: this.catalog.tags.filter((t) => e.tagIds.includes(t.id)),
      markets: e.markets.map((m) => this.marketJson(m, e)),
    };
  }

  private gamma(req: SimRequest): SimResponse {
    const q = req.query;
    const route = `${req.method} ${req.path}`;
    if (route === 'GET /sports') return ok(this.catalog.sports);
    if (route === 'GET /tags') return ok(this.catalog.tags);
    if (route === 'GET /events') {
      const tagIds = q.getAll('tag_id');
      const slug = q.get('tag_slug');
      const bySlug = slug ? this.catalog.tags.find((t) => t.slug === slug)?.id : undefined;
      let list = this.catalog.events.filter((e) => {
        if (tagIds.length > 0 && !tagIds.some((t) => e.tagIds.includes(t))) return false;
        if (slug && (!bySlug || !e.tagIds.includes(bySlug))) return false;
        if (q.get('series_id') && e.seriesId !== q.get('series_id')) return false;
        const j = this.eventJson(e);
        if (q.get('active') === 'true' && !j.active) return false;
        if (q.get('closed') === 'false' && j.closed) return false;
        return true;
      });
      if (q.get('order') === 'volume24hr')
        list = [...list].sort((a, b) =>
          q.get('ascending') === 'true' ? a.volume24hr - b.volume24hr : b.volume24hr - a.volume24hr,
        );
      const offset = Number(q.get('offset') ?? '0');
      const limit = Number(q.get('limit') ?? '100');
      return ok(list.slice(offset, offset + limit).map((e) => this.eventJson(e)));
    }
    const byId = /^GET \/events\/([0-9]+)$/.exec(route);
    if (byId) {
      const event = this.catalog.events.find((e) => e.id === byId[1]);
      return event ? ok(this.eventJson(event)) : bad('event not found', 404);
    }
    if (route === 'GET /public-search') {
      const needle = (q.get('q') ?? '').toLowerCase();
      if (!needle) return bad('q is required', 422);
      const per = Number(q.get('limit_per_type') ?? '5');
      const events = this.catalog.events.filter(
        (e) =>
          e.title.toLowerCase().includes(needle) ||
          e.slug.includes(needle) ||
          e.markets.some((m) => m.question.toLowerCase().includes(needle)),
      );
      const tags = this.catalog.tags.filter((t) => t.label.toLowerCase().includes(needle));
      return ok({
        events: events.slice(0, per).map((e) => this.eventJson(e)),
        tags: tags.slice(0, per),
        profiles: [],
        pagination: { hasMore: events.length > per, totalResults: events.length },
      });
    }
    return bad('not found', 404);
  }

  // ---- Data --------------------------------------------------------------------------------

  private data(req: SimRequest): SimResponse {
    if (`${req.method} ${req.path}` !== 'GET /positions') return bad('not found', 404);
    const q = req.query;
    const user = q.get('user') ?? '';
    if (!isAddress(user)) return bad('invalid user', 400);
    const threshold = BigInt(Math.round(Number(q.get('sizeThreshold') ?? '0') * 1e6));
    const out = [];
    for (const e of this.catalog.events)
      for (const m of e.markets) {
        if (q.get('market') && q.get('market')!.toLowerCase() !== m.conditionId.toLowerCase()) continue;
        for (const [i, t] of m.tokens.entries()) {
          const size = this.ledger.balance(user, t.tokenId);
          if (size === 0n || size < threshold) continue;
          const redeemable = m.winner !== undefined;
          if (q.get('redeemable') === 'true' && !redeemable) continue;
          const b = this.clob.basis(user, t.tokenId);
          const avg = b.bought === 0n ? 0n : (b.cost * EXT_UNIT) / b.bought;
          const cur = redeemable ? (m.winner === i ? EXT_UNIT : 0n) : (this.clob.midpoint(t.tokenId) ?? avg);
          const initial = (size * avg) / EXT_UNIT;
          const current = (size * cur) / EXT_UNIT;
          const other = m.tokens[1 - i]!;
          out.push({
            proxyWallet: getAddress(user),
            asset: t.tokenId,
            conditionId: m.conditionId,
            size: fromMicro(size),
            avgPrice: fromMicro(avg),
            initialValue: fromMicro(initial),
            currentValue: fromMicro(current),
            cashPnl: fromMicro(current - initial),
            percentPnl: initial === 0n ? '0' : fromMicro(((current - initial) * 100n * EXT_UNIT) / initial),
            totalBought: fromMicro(b.bought),
            realizedPnl: fromMicro(b.realized),
            curPrice: fromMicro(cur),
            redeemable,
            mergeable: this.ledger.balance(user, other.tokenId) > 0n,
            title: m.question,
            slug: m.slug,
            icon: '',
            eventSlug: e.slug,
            outcome: t.outcome,
            outcomeIndex: i,
            oppositeOutcome: other.outcome,
            oppositeAsset: other.tokenId,
            endDate: m.endDate,
            negativeRisk: m.negRisk,
          });
        }
      }
    const offset = Number(q.get('offset') ?? '0');
    return ok(out.slice(offset, offset + Number(q.get('limit') ?? '100')));
  }

  // ---- Polygon JSON-RPC --------------------------------------------------------------------

  private rpc(req: SimRequest): SimResponse {
    let payload: unknown;
    try {
      payload = JSON.parse(req.body);
    } catch {
      return ok({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    }
    const one = (r: { id?: unknown; method?: unknown; params?: unknown[] }) => {
      const result = this.rpcCall(String(r.method), r.params ?? []);
      return result === undefined
        ? { jsonrpc: '2.0', id: r.id ?? null, error: { code: -32601, message: 'method not supported' } }
        : { jsonrpc: '2.0', id: r.id ?? null, result };
    };
    return ok(Array.isArray(payload) ? payload.map((p) => one(p as never)) : one(payload as never));
  }

  private rpcCall(method: string, params: unknown[]): string | undefined {
    if (method === 'eth_chainId') return '0x89';
    if (method === 'eth_blockNumber') return numberToHex(Math.floor(this.opts.clock.now() / 2000));
    if (method === 'eth_getBalance') return numberToHex(this.ledger.balance(String(params[0]), 'POL'));
    if (method === 'eth_getCode') return this.relayer.ownerOf(String(params[0])) ? '0x01' : '0x';
    if (method !== 'eth_call') return undefined;
    const call = params[0] as { to?: string; data?: Hex };
    const to = (call.to ?? '').toLowerCase();
    try {
      const d = decodeFunctionData({ abi: EXT_CALL_ABI, data: call.data ?? '0x' });
      if (d.functionName === 'balanceOf' && d.args.length === 1)
        return encodeFunctionResult({
          abi: EXT_CALL_ABI,
          functionName: 'balanceOf',
          result: this.ledger.balance(d.args[0], to),
        });
      if (d.functionName === 'balanceOf' && d.args.length === 2)
        return encodeFunctionResult({
          abi: EXT_CALL_ABI,
          functionName: 'balanceOf',
          result: this.ledger.balance(d.args[0], d.args[1].toString()),
        });
      if (d.functionName === 'allowance')
        return encodeFunctionResult({
          abi: EXT_CALL_ABI,
          functionName: 'allowance',
          result: this.ledger.allowance(d.args[0], to, d.args[1]),
        });
      if (d.functionName === 'isApprovedForAll')
        return encodeFunctionResult({
          abi: EXT_CALL_ABI,
          functionName: 'isApprovedForAll',
          result: this.ledger.isApprovedForAll(d.args[0], d.args[1]),
        });
    } catch {
      return '0x';
    }
    return '0x';
  }
}
