import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  decodeFunctionData,
  getAddress,
  isAddress,
  keccak256,
  recoverTypedDataAddress,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import type { Clock } from '../../../platform/clock.js';
import {
  text,
  EXT_CALL_ABI,
  EXT_CONTRACTS,
  POLYGON_CHAIN_ID,
  depositWalletAddressOf,
  safeAddressOf,
} from '../extmarket.protocol.js';
import type { Ledger } from './ledger.js';
import type { SimMarket } from './local-catalog.js';
import { bad, ok, type SimRequest, type SimResponse } from './local-exchange.types.js';

/** The typed data a trading-wallet batch is signed with (deposit wallet and Safe alike). */
export const BATCH_TYPES = {
  Call: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
  Batch: [
    { name: 'wallet', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'calls', type: 'Call[]' },
  ],
} as const;

export const CREATE_PROXY_TYPES = {
  CreateProxy: [
    { name: 'paymentToken', type: 'address' },
    { name: 'payment', type: 'uint256' },
    { name: 'paymentReceiver', type: 'address' },
  ],
} as const;

/** EIP-712 domain of a wallet batch: "DepositWallet" v1 for deposit wallets, the Safe's own for Safes. */
export function batchDomain(kind: 'WALLET' | 'SAFE', wallet: Address) {
  return kind === 'WALLET'
    ? { name: 'DepositWallet', version: '1', chainId: POLYGON_CHAIN_ID, verifyingContract: wallet }
    : { chainId: POLYGON_CHAIN_ID, verifyingContract: wallet };
}

export const SAFE_FACTORY_DOMAIN = {
  name: 'Polymarket Contract Proxy Factory',
  chainId: POLYGON_CHAIN_ID,
  verifyingContract: EXT_CONTRACTS.safeFactory,
} as const;

export interface RelayerCall {
  readonly target: Address;
  readonly value: string;
  readonly data: Hex;
}

type TxState = 'STATE_NEW' | 'STATE_EXECUTED' | 'STATE_MINED' | 'STATE_CONFIRMED' | 'STATE_FAILED' | 'STATE_INVALID';

interface RelayerTx {
  readonly transactionID: string;
  readonly transactionHash: string;
  readonly from: string;
  readonly to: string;
  readonly proxyAddress: string;
  readonly type: string;
  readonly nonce: string;
  readonly signature: string;
  readonly metadata: string;
  readonly calls: readonly RelayerCall[];
  readonly createdMs: number;
  /** Set once the effects ran: whether they applied. */
  outcome?: 'applied' | 'failed';
  forcedFailure: boolean;
}

export interface RelayerTimings {
  readonly executeMs: number;
  readonly mineMs: number;
  readonly confirmMs: number;
}

/**
 * The local relayer: builder-HMAC authentication, wallet creation (Safe and deposit wallet),
 * signed call batches decoded and applied to the ledger, and each transaction's state moving
 * NEW → EXECUTED → MINED → CONFIRMED (or FAILED) on the injected clock.
 */
export class LocalRelayer {
  private readonly txs = new Map<string, RelayerTx>();
  private readonly deployed = new Map<string, string>();
  private readonly nonces = new Map<string, bigint>();
  private failNext = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly markets: (conditionId: string) => SimMarket | undefined,
    private readonly builder: { key: string; secret: string; passphrase: string },
    private readonly timings: RelayerTimings,
  ) {}

  /** The owner EOA of a deployed trading wallet. */
  ownerOf(wallet: string): string | undefined {
    return this.deployed.get(wallet.toLowerCase());
  }

  /** Test hook: a trading wallet that already exists for `owner`, as if deployed long ago. */
  markDeployed(wallet: string, owner: string): void {
    this.deployed.set(wallet.toLowerCase(), owner);
  }

  /** Every transaction submitted so far, oldest first (test hook). */
  submitted(): readonly { transactionID: string; type: string; proxyAddress: string; nonce: string }[] {
    return [...this.txs.values()].map((t) => ({
      transactionID: t.transactionID,
      type: t.type,
      proxyAddress: t.proxyAddress,
      nonce: t.nonce,
    }));
  }

  /** Makes the next `n` submitted transactions fail when they execute. */
  failNextTransactions(n: number): void {
    this.failNext += n;
  }

  private authorised(req: SimRequest): boolean {
    const h = req.headers;
    if (h['poly_builder_api_key'] !== this.builder.key || h['poly_builder_passphrase'] !== this.builder.passphrase)
      return false;
    const ts = h['poly_builder_timestamp'];
    const sig = h['poly_builder_signature'];
    if (!ts || !sig || Math.abs(Number(ts) - this.clock.now() / 1000) > 300) return false;
    const expected = createHmac('sha256', Buffer.from(this.builder.secret, 'base64url'))
      .update(`${ts}${req.method}${req.path}${req.body}`)
      .digest();
    const given = Buffer.from(sig, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async handle(req: SimRequest): Promise<SimResponse> {
    this.advance();
    const route = `${req.method} ${req.path}`;
    const q = req.query;
    if (route === 'GET /deployed') {
      const address = q.get('address') ?? '';
      if (!isAddress(address)) return bad('invalid address');
      return ok({ deployed: this.deployed.has(address.toLowerCase()) });
    }
    if (route === 'GET /nonce') {
      const address = q.get('address') ?? '';
      if (!isAddress(address)) return bad('invalid address');
      return ok({ nonce: (this.nonces.get(address.toLowerCase()) ?? 0n).toString() });
    }
    if (route === 'GET /transaction') {
      const tx = this.txs.get(q.get('id') ?? '');
      return tx ? ok([this.json(tx)]) : bad('transaction not found', 404);
    }
    if (!this.authorised(req)) return bad('invalid authorization', 401);
    if (route === 'GET /transactions') return ok([...this.txs.values()].map((t) => this.json(t)));
    if (route === 'POST /submit') return this.submit(req.body);
    return bad('not found', 404);
  }

  private async submit(raw: string): Promise<SimResponse> {
    let b: {
      type?: unknown;
      from?: unknown;
      to?: unknown;
      proxyWallet?: unknown;
      nonce?: unknown;
      signature?: unknown;
      metadata?: unknown;
      deadline?: unknown;
      calls?: unknown;
    };
    try {
      b = JSON.parse(raw) as typeof b;
    } catch {
      return bad('invalid body');
    }
    const from = typeof b.from === 'string' && isAddress(b.from) ? getAddress(b.from) : undefined;
    if (!from) return bad('invalid from');
    const type = String(b.type);
    const signature = text(b.signature, '') as Hex;
    const metadata = typeof b.metadata === 'string' ? b.metadata : '';
    if (type === 'WALLET-CREATE' || type === 'SAFE-CREATE') {
      const wallet = type === 'WALLET-CREATE' ? depositWalletAddressOf(from) : safeAddressOf(from);
      if (this.deployed.has(wallet.toLowerCase())) return bad('wallet already deployed');
      if (type === 'SAFE-CREATE') {
        const zero = '0x0000000000000000000000000000000000000000';
        const who = await recoverTypedDataAddress({
          domain: SAFE_FACTORY_DOMAIN,
          types: CREATE_PROXY_TYPES,
          primaryType: 'CreateProxy',
          message: { paymentToken: zero, payment: 0n, paymentReceiver: zero },
          signature,
        }).catch(() => undefined);
        if (who?.toLowerCase() !== from.toLowerCase()) return bad('invalid signature');
      }
      return ok(
        this.record(
          type,
          from,
          type === 'WALLET-CREATE' ? EXT_CONTRACTS.depositWalletFactory : EXT_CONTRACTS.safeFactory,
          wallet,
          [],
          metadata,
          '0',
          signature,
        ),
      );
    }
    if (type !== 'WALLET' && type !== 'SAFE') return bad(`unsupported transaction type ${type}`);
    const wallet =
      typeof b.proxyWallet === 'string' && isAddress(b.proxyWallet) ? getAddress(b.proxyWallet) : undefined;
    if (!wallet || this.ownerOf(wallet)?.toLowerCase() !== from.toLowerCase())
      return bad('wallet not deployed or not owned by from');
    const calls = Array.isArray(b.calls) ? (b.calls as RelayerCall[]) : [];
    if (
      calls.length === 0 ||
      calls.some((c) => !isAddress(String(c.target)) || !/^0x[0-9a-fA-F]*$/.test(String(c.data)))
    )
      return bad('invalid calls');
    const nonce = BigInt(text(b.nonce, '-1'));
    if (nonce !== (this.nonces.get(wallet.toLowerCase()) ?? 0n)) return bad('invalid nonce');
    const deadline = BigInt(text(b.deadline, '0'));
    if (type === 'WALLET' && deadline < BigInt(Math.floor(this.clock.now() / 1000))) return bad('deadline passed');
    const who = await recoverTypedDataAddress({
      domain: batchDomain(type, wallet),
      types: BATCH_TYPES,
      primaryType: 'Batch',
      message: {
        wallet,
        nonce,
        deadline,
        calls: calls.map((c) => ({ target: getAddress(c.target), value: BigInt(c.value), data: c.data })),
      },
      signature,
    }).catch(() => undefined);
    if (who?.toLowerCase() !== from.toLowerCase()) return bad('invalid signature');
    this.nonces.set(wallet.toLowerCase(), nonce + 1n);
    return ok(this.record(type, from, wallet, wallet, calls, metadata, nonce.toString(), signature));
  }

  private record(
    type: string,
    from: string,
    to: string,
    proxy: string,
    calls: readonly RelayerCall[],
    metadata: string,
    nonce: string,
    signature: string,
  ) {
    const id = keccak256(toHex(`relayer|${this.txs.size}|${from}|${type}`)).slice(2, 34);
    const tx: RelayerTx = {
      transactionID: `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`,
      transactionHash: keccak256(toHex(`relayer-tx|${id}`)),
      from,
      to,
      proxyAddress: proxy,
      type,
      nonce,
      signature,
      metadata,
      calls,
      createdMs: this.clock.now(),
      forcedFailure: this.failNext > 0,
    };
    if (this.failNext > 0) this.failNext--;
    this.txs.set(tx.transactionID, tx);
    return { transactionID: tx.transactionID, transactionHash: tx.transactionHash, state: 'STATE_NEW' };
  }

  /** Runs the effects of every transaction whose execution time has come. */
  advance(): void {
    for (const tx of this.txs.values()) {
      if (tx.outcome || this.clock.now() - tx.createdMs < this.timings.executeMs) continue;
      tx.outcome = !tx.forcedFailure && this.apply(tx) ? 'applied' : 'failed';
    }
  }

  private state(tx: RelayerTx): TxState {
    const age = this.clock.now() - tx.createdMs;
    if (!tx.outcome) return 'STATE_NEW';
    if (tx.outcome === 'failed') return 'STATE_FAILED';
    if (age < this.timings.executeMs + this.timings.mineMs) return 'STATE_EXECUTED';
    if (age < this.timings.executeMs + this.timings.mineMs + this.timings.confirmMs) return 'STATE_MINED';
    return 'STATE_CONFIRMED';
  }

  private json(tx: RelayerTx) {
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      transactionID: tx.transactionID,
      transactionHash: tx.transactionHash,
      from: tx.from,
      to: tx.to,
      proxyAddress: tx.proxyAddress,
      data: '0x',
      nonce: tx.nonce,
      signature: tx.signature,
      value: '0',
      state: this.state(tx),
      type: tx.type,
      metadata: tx.metadata,
      createdAt: iso(tx.createdMs),
      updatedAt: iso(tx.createdMs + (tx.outcome ? this.timings.executeMs : 0)),
    };
  }

  /** Applies a transaction's calls all or nothing (a revert undoes the batch). */
  private apply(tx: RelayerTx): boolean {
    if (tx.type === 'WALLET-CREATE' || tx.type === 'SAFE-CREATE') {
      this.deployed.set(tx.proxyAddress.toLowerCase(), tx.from);
      return true;
    }
    const undo: (() => void)[] = [];
    for (const call of tx.calls) {
      if (!this.call(tx.proxyAddress, call, undo)) {
        for (const u of undo.reverse()) u();
        return false;
      }
    }
    return true;
  }

  private call(wallet: string, call: RelayerCall, undo: (() => void)[]): boolean {
    const L = this.ledger;
    const target = call.target.toLowerCase();
    let decoded;
    try {
      decoded = decodeFunctionData({ abi: EXT_CALL_ABI, data: call.data });
    } catch {
      return false;
    }
    const move = (from: string, to: string, asset: string, amount: bigint) => {
      if (!L.transfer(from, to, asset, amount)) return false;
      undo.push(() => L.transfer(to, from, asset, amount));
      return true;
    };
    const erc20 = [EXT_CONTRACTS.pUsd, EXT_CONTRACTS.usdcE, EXT_CONTRACTS.usdc].map((a) => a.toLowerCase());
    if (erc20.includes(target) && decoded.functionName === 'approve') {
      const [spender, amount] = decoded.args;
      const before = L.allowance(wallet, target, spender);
      L.approve(wallet, target, spender, amount);
      undo.push(() => L.approve(wallet, target, spender, before));
      return true;
    }
    if (erc20.includes(target) && decoded.functionName === 'transfer') {
      const [to, amount] = decoded.args;
      return move(wallet, to, target, amount);
    }
    if (target === EXT_CONTRACTS.ctf.toLowerCase() && decoded.functionName === 'setApprovalForAll') {
      const [operator, approved] = decoded.args;
      const before = L.isApprovedForAll(wallet, operator);
      L.setApprovalForAll(wallet, operator, approved);
      undo.push(() => L.setApprovalForAll(wallet, operator, before));
      return true;
    }
    if (target === EXT_CONTRACTS.onramp.toLowerCase() && decoded.functionName === 'wrap') {
      const [asset, to, amount] = decoded.args;
      const allowance = L.allowance(wallet, asset, EXT_CONTRACTS.onramp);
      if (
        ![EXT_CONTRACTS.usdcE, EXT_CONTRACTS.usdc].some((a) => a.toLowerCase() === asset.toLowerCase()) ||
        allowance < amount
      )
        return false;
      if (!move(wallet, EXT_CONTRACTS.onramp, asset, amount)) return false;
      L.approve(wallet, asset, EXT_CONTRACTS.onramp, allowance - amount);
      L.credit(to, EXT_CONTRACTS.pUsd, amount);
      undo.push(() => {
        L.credit(to, EXT_CONTRACTS.pUsd, -amount);
        L.approve(wallet, asset, EXT_CONTRACTS.onramp, allowance);
      });
      return true;
    }
    if (target === EXT_CONTRACTS.offramp.toLowerCase() && decoded.functionName === 'unwrap') {
      const [asset, to, amount] = decoded.args;
      if (!move(wallet, EXT_CONTRACTS.offramp, EXT_CONTRACTS.pUsd, amount)) return false;
      L.credit(to, asset, amount);
      undo.push(() => L.credit(to, asset, -amount));
      return true;
    }
    const adapters = [EXT_CONTRACTS.ctfCollateralAdapter, EXT_CONTRACTS.negRiskCtfCollateralAdapter].map((a) =>
      a.toLowerCase(),
    );
    if (adapters.includes(target) && decoded.functionName === 'redeemPositions') {
      const [, , conditionId] = decoded.args;
      const market = this.markets(conditionId);
      if (!market || market.winner === undefined) return false;
      let payout = 0n;
      for (const [i, t] of market.tokens.entries()) {
        const held = L.balance(wallet, t.tokenId);
        if (held === 0n) continue;
        L.burn(wallet, t.tokenId, held);
        undo.push(() => L.credit(wallet, t.tokenId, held));
        if (i === market.winner) payout += held;
      }
      L.credit(wallet, EXT_CONTRACTS.pUsd, payout);
      undo.push(() => L.credit(wallet, EXT_CONTRACTS.pUsd, -payout));
      return true;
    }
    return false;
  }
}
