import { encodeFunctionData, getAddress, type Address, type Hex } from 'viem';
import type { LocalAccount } from 'viem';
import type {
  ExtPreparedRelayerTx,
  ExtRelayerCall,
  ExtRelayerRequest,
  ExtRelayerTx,
} from '../../adapters/extmarket/external-exchange.port.js';
import {
  EXT_CALL_ABI,
  EXT_CONTRACTS,
  MAX_UINT256,
  TRADING_SPENDERS,
} from '../../adapters/extmarket/extmarket.protocol.js';
import { DomainError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { OperationContext } from '../../platform/operation.context.js';
import {
  ExtAccounts,
  kindOf,
  relayerKindOf,
  type ExtCaller,
  type ExtDeps,
  type WalletKind,
} from './extmarket-accounts.port.js';
import type { ExtOperationKind, ExtRelayerIntentRow } from './extmarket.repository.js';

/** What one relayer transaction of an operation is to do, planned only when no intent is recorded yet. */
interface RelayerPlan {
  readonly signer: LocalAccount;
  readonly request: ExtRelayerRequest;
  readonly details: Record<string, unknown>;
}

const call = (target: Address, data: Hex): ExtRelayerCall => ({ target, value: '0', data });
const ZERO32: Hex = `0x${'0'.repeat(64)}`;
const RELAYER_STATES = [
  'STATE_NEW',
  'STATE_EXECUTED',
  'STATE_MINED',
  'STATE_CONFIRMED',
  'STATE_FAILED',
  'STATE_INVALID',
] as const;
type RelayerState = (typeof RELAYER_STATES)[number];

export interface RelayerTxView {
  transactionId: string;
  transactionHash: string | null;
  state: RelayerState;
  type: string;
  operation: ExtOperationKind & Exclude<ExtOperationKind, 'deposit'>;
  createdAt: string;
  updatedAt: string;
}

/**
 * Credentials, trading wallets and money in and out of the external market. Every write goes
 * through the relayer and answers its transaction, which the client polls with relayer-tx.
 */
export class ExtMarketService {
  private readonly accounts: ExtAccounts;

  constructor(
    private readonly deps: ExtDeps,
    private readonly clock: Clock,
  ) {
    this.accounts = new ExtAccounts(deps);
  }

  private now(): Date {
    return new Date(this.clock.now());
  }

  // ---- credentials -------------------------------------------------------------------------

  async deriveCredentials(caller: ExtCaller, body: { walletKind?: WalletKind | undefined }) {
    const existing = await this.accounts.find(caller);
    if (existing && body.walletKind && body.walletKind !== kindOf(existing))
      throw new DomainError('EXTMARKET_WALLET_KIND_MISMATCH', `The caller trades from a ${kindOf(existing)}`, {
        details: { walletKind: kindOf(existing) },
      });
    const row = existing ?? (await this.accounts.ensure(caller, body.walletKind ?? 'deposit-wallet', this.now()));
    if (!row.credentialsCiphertext) {
      const creds = await this.deps.exchange.deriveCredentials(this.accounts.signer(row), row.credentialsNonce);
      await this.accounts.storeCredentials(row, creds, row.credentialsNonce, this.now());
    }
    return this.authStatus(caller);
  }

  async refreshCredentials(caller: ExtCaller) {
    const { row, session } = await this.accounts.session(caller);
    await this.deps.exchange.deleteCredentials(session);
    const nonce = row.credentialsNonce + 1;
    const creds = await this.deps.exchange.deriveCredentials(session.signer, nonce);
    await this.accounts.storeCredentials(row, creds, nonce, this.now());
    return this.authStatus(caller);
  }

  async authStatus(caller: ExtCaller) {
    const row = await this.accounts.find(caller);
    if (!row)
      return {
        signerAddress: null,
        walletKind: null,
        tradingWallet: null,
        hasCredentials: false,
        credentialsVersion: 0,
        apiKeyActive: null,
        closedOnly: null,
      };
    const creds = this.accounts.credentials(row);
    let apiKeyActive: boolean | null = null;
    let closedOnly: boolean | null = null;
    if (creds) {
      const { session } = await this.accounts.session(caller);
      const upstream = await this.deps.exchange.apiKeys(session);
      apiKeyActive = upstream.apiKeys.includes(creds.key);
      closedOnly = upstream.closedOnly;
    }
    return {
      signerAddress: getAddress(row.signerAddress),
      walletKind: kindOf(row),
      tradingWallet: getAddress(row.tradingWallet),
      hasCredentials: creds !== undefined,
      credentialsVersion: row.credentialsNonce,
      apiKeyActive,
      closedOnly,
    };
  }

  // ---- wallets -----------------------------------------------------------------------------

  async walletStatus(caller: ExtCaller, kind: WalletKind) {
    const row = await this.accounts.require(caller);
    const address = this.accounts.walletOf(row, kind);
    return {
      walletKind: kind,
      address,
      deployed: await this.deps.exchange.isDeployed(address, relayerKindOf(kind)),
      isTradingWallet: kindOf(row) === kind,
    };
  }

  async deploy(ctx: OperationContext, caller: ExtCaller, kind: WalletKind): Promise<RelayerTxView> {
    const op = kind === 'safe' ? 'deploy-safe' : 'deploy-wallet';
    const sent = await this.relayOnce(ctx, caller, op, op, async () => {
      const row = await this.accounts.require(caller);
      if (kindOf(row) !== kind)
        throw new DomainError('EXTMARKET_WALLET_KIND_MISMATCH', `The caller trades from a ${kindOf(row)}`, {
          details: { walletKind: kindOf(row) },
        });
      const address = this.accounts.walletOf(row, kind);
      if (await this.deps.exchange.isDeployed(address, relayerKindOf(kind)))
        throw new DomainError('EXTMARKET_WALLET_ALREADY_DEPLOYED', 'The trading wallet is deployed already', {
          details: { address },
        });
      return { signer: this.accounts.signer(row), request: { deploy: relayerKindOf(kind) }, details: { address } };
    });
    return sent!.view;
  }

  /** The caller's trading wallet, which must be deployed for anything to move through it. */
  private async deployedWallet(caller: ExtCaller) {
    const row = await this.accounts.require(caller);
    const kind = kindOf(row);
    const wallet = getAddress(row.tradingWallet);
    if (!(await this.deps.exchange.isDeployed(wallet, relayerKindOf(kind))))
      throw new DomainError('EXTMARKET_WALLET_NOT_DEPLOYED', `Deploy the ${kind} first`, {
        details: { walletKind: kind, address: wallet },
      });
    return { row, kind, wallet };
  }

  /** A batch in the caller's deployed trading wallet, sent once (see relayOnce). */
  private async execute(
    ctx: OperationContext,
    caller: ExtCaller,
    op: Exclude<ExtOperationKind, 'deposit'>,
    plan: (wallet: Address) => Promise<{ calls: ExtRelayerCall[]; details: Record<string, unknown> }>,
  ): Promise<{ view: RelayerTxView; details: Record<string, unknown> }> {
    const sent = await this.relayOnce(ctx, caller, op, op, async () => {
      const { row, kind, wallet } = await this.deployedWallet(caller);
      const { calls, details } = await plan(wallet);
      return {
        signer: this.accounts.signer(row),
        request: { kind: relayerKindOf(kind), wallet, calls, metadata: op },
        details,
      };
    });
    return sent!;
  }

  /**
   * One relayer transaction of an operation, sent at most once (docs/external-markets.md,
   * "Relayer moves happen once"). Under an Idempotency-Key the signed transaction is recorded as
   * an intent under the write key `name` before it is sent, and the request's effect is marked as
   * started. A later execution of the same request (a retry after the answer was lost, a resumed
   * request after a crash) finds the intent and asks the relayer for that transaction; only when
   * the relayer has none does it send the very same signed transaction again (its nonce lets the
   * relayer run it once at most). `plan` (the checks and the calls) runs only when there is no
   * intent yet, since after a send landed they no longer hold (the balance has moved). Without a
   * key the transaction is sent as it is. Undefined when `plan` finds nothing to send.
   */
  private async relayOnce(
    ctx: OperationContext,
    caller: ExtCaller,
    op: Exclude<ExtOperationKind, 'deposit'>,
    name: string,
    plan: () => Promise<RelayerPlan | undefined>,
  ): Promise<{ view: RelayerTxView; details: Record<string, unknown> } | undefined> {
    const write = ctx.writeKey(name);
    const exchange = this.deps.exchange;
    if (write.key === undefined) {
      const planned = await plan();
      if (!planned) return undefined;
      const tx = await exchange.submitRelayerTx(await exchange.prepareRelayerTx(planned.signer, planned.request));
      return { view: await this.record(caller, op, tx, planned.details), details: planned.details };
    }
    let intent = await this.deps.store.relayerIntent(write.key);
    let planned: RelayerPlan | undefined;
    if (!intent) {
      planned = await plan();
      if (!planned) return undefined;
      const request = await exchange.prepareRelayerTx(planned.signer, planned.request);
      intent = await this.deps.store.keepRelayerIntent(
        { writeKey: write.key, userId: caller.userId, operation: op, request, details: planned.details },
        write.run?.recordId,
        this.now(),
      );
      if (write.run) write.run.effectStarted = true;
    }
    const tx = await this.landOnce(caller, intent, planned);
    return { view: await this.record(caller, op, tx, intent.details), details: intent.details };
  }

  /** The relayer's transaction of an intent: the recorded one, the one found, or the intent sent now. */
  private async landOnce(
    caller: ExtCaller,
    intent: ExtRelayerIntentRow,
    planned: RelayerPlan | undefined,
  ): Promise<ExtRelayerTx> {
    const exchange = this.deps.exchange;
    if (intent.transactionId !== null) {
      const known = await exchange.relayerTransaction(intent.transactionId);
      if (known) return known;
    }
    const found = planned ? undefined : await exchange.findRelayerTx(intent.request);
    if (found) return this.keepTransaction(intent, found);
    let request: ExtPreparedRelayerTx = intent.request;
    try {
      return this.keepTransaction(intent, await exchange.submitRelayerTx(request));
    } catch (err) {
      // A refusal may mean an earlier send landed after all (its nonce is spent): ask again.
      if (!(err instanceof DomainError) || err.code !== 'UPSTREAM_ERROR') throw err;
      const landed = await exchange.findRelayerTx(request);
      if (landed) return this.keepTransaction(intent, landed);
      // The signed batch can never run now (its nonce went to another batch, or its deadline
      // passed): sign it again for the wallet's current nonce, keeping the recorded calls.
      if (request.type !== 'WALLET' && request.type !== 'SAFE') throw err;
      const row = await this.accounts.require(caller);
      request = await exchange.prepareRelayerTx(this.accounts.signer(row), {
        kind: request.type,
        wallet: request.wallet,
        calls: request.calls,
        metadata: request.metadata,
      });
      await this.deps.store.replaceRelayerRequest(intent.writeKey, request, this.now());
      return this.keepTransaction(intent, await exchange.submitRelayerTx(request));
    }
  }

  private async keepTransaction(intent: ExtRelayerIntentRow, tx: ExtRelayerTx): Promise<ExtRelayerTx> {
    await this.deps.store.setRelayerTransaction(intent.writeKey, tx.transactionId, this.now());
    return tx;
  }

  private async record(
    caller: ExtCaller,
    op: RelayerTxView['operation'],
    tx: ExtRelayerTx,
    details: Record<string, unknown>,
  ): Promise<RelayerTxView> {
    await this.deps.store.recordOperation({
      id: tx.transactionId,
      userId: caller.userId,
      kind: op,
      details,
      createdAt: this.now(),
    });
    return this.view(tx, op);
  }

  private view(tx: ExtRelayerTx, op: RelayerTxView['operation']): RelayerTxView {
    const state = (RELAYER_STATES as readonly string[]).includes(tx.state) ? (tx.state as RelayerState) : 'STATE_NEW';
    return {
      transactionId: tx.transactionId,
      transactionHash: /^0x[0-9a-fA-F]{64}$/.test(tx.transactionHash) ? tx.transactionHash : null,
      state,
      type: tx.type,
      operation: op,
      createdAt: new Date(tx.createdAt).toISOString(),
      updatedAt: new Date(tx.updatedAt).toISOString(),
    };
  }

  async approveTrading(ctx: OperationContext, caller: ExtCaller) {
    const calls = TRADING_SPENDERS.flatMap((spender) => [
      call(
        EXT_CONTRACTS.pUsd,
        encodeFunctionData({ abi: EXT_CALL_ABI, functionName: 'approve', args: [spender, MAX_UINT256] }),
      ),
      call(
        EXT_CONTRACTS.ctf,
        encodeFunctionData({ abi: EXT_CALL_ABI, functionName: 'setApprovalForAll', args: [spender, true] }),
      ),
    ]);
    const sent = await this.execute(ctx, caller, 'approve-trading', async () => ({
      calls,
      details: { spenders: TRADING_SPENDERS },
    }));
    return sent.view;
  }

  async approvalStatus(caller: ExtCaller) {
    const row = await this.accounts.require(caller);
    const wallet = getAddress(row.tradingWallet);
    const approvals = await this.deps.exchange.approvals(wallet, TRADING_SPENDERS);
    return {
      tradingWallet: wallet,
      ready: approvals.every((a) => a.allowance > 0n && a.approved),
      collateral: approvals.map((a) => ({ spender: a.spender, allowance: a.allowance.toString() })),
      conditional: approvals.map((a) => ({ spender: a.spender, approved: a.approved })),
    };
  }

  // ---- balances ----------------------------------------------------------------------------

  async balance(caller: ExtCaller) {
    const { row, session } = await this.accounts.session(caller);
    const c = await this.deps.exchange.collateral(session);
    return {
      tradingWallet: getAddress(row.tradingWallet),
      token: EXT_CONTRACTS.pUsd,
      balance: BigInt(c.balance).toString(),
    };
  }

  async polygonBalances(caller: ExtCaller) {
    const row = await this.accounts.require(caller);
    const addresses = [row.signerAddress, row.tradingWallet, caller.managedAddress].map((a) => getAddress(a));
    const b = await this.deps.exchange.polygonBalances(addresses);
    const one = (a: Address) => {
      const r = b[a] ?? {};
      return {
        address: a,
        pol: r['POL'] ?? '0',
        usdcE: r[EXT_CONTRACTS.usdcE] ?? '0',
        usdc: r[EXT_CONTRACTS.usdc] ?? '0',
        pUsd: r[EXT_CONTRACTS.pUsd] ?? '0',
      };
    };
    return { signer: one(addresses[0]!), tradingWallet: one(addresses[1]!), managedWallet: one(addresses[2]!) };
  }

  private async held(wallet: Address, token: Address): Promise<bigint> {
    const b = await this.deps.exchange.polygonBalances([wallet]);
    return BigInt(b[wallet]?.[token] ?? '0');
  }

  private async requireHeld(wallet: Address, token: Address, amount: bigint, what: string) {
    const held = await this.held(wallet, token);
    if (held < amount)
      throw new DomainError(
        'EXTMARKET_INSUFFICIENT_BALANCE',
        `The trading wallet holds ${held} base units of ${what}, less than ${amount}`,
        {
          details: { token, held: held.toString(), amount: amount.toString() },
        },
      );
  }

  // ---- money in and out --------------------------------------------------------------------

  async wrapLegacyCollateral(ctx: OperationContext, caller: ExtCaller, body: { amount: string }) {
    const amount = BigInt(body.amount);
    const sent = await this.execute(ctx, caller, 'wrap-legacy-collateral', async (wallet) => {
      await this.requireHeld(wallet, EXT_CONTRACTS.usdcE, amount, 'USDC.e');
      return {
        calls: [
          call(
            EXT_CONTRACTS.usdcE,
            encodeFunctionData({ abi: EXT_CALL_ABI, functionName: 'approve', args: [EXT_CONTRACTS.onramp, amount] }),
          ),
          call(
            EXT_CONTRACTS.onramp,
            encodeFunctionData({
              abi: EXT_CALL_ABI,
              functionName: 'wrap',
              args: [EXT_CONTRACTS.usdcE, wallet, amount],
            }),
          ),
        ],
        details: { amount: amount.toString() },
      };
    });
    return sent.view;
  }

  async deposit(caller: ExtCaller) {
    const row = await this.accounts.require(caller);
    const wallet = getAddress(row.tradingWallet);
    const addresses = await this.deps.exchange.bridgeDeposit(wallet);
    const depositId = getAddress(addresses.evm);
    await this.deps.store.recordOperation({
      id: depositId.toLowerCase(),
      userId: caller.userId,
      kind: 'deposit',
      details: { wallet },
      createdAt: this.now(),
    });
    return { depositId, tradingWallet: wallet, addresses: { evm: depositId, svm: addresses.svm, btc: addresses.btc } };
  }

  async depositStatus(caller: ExtCaller, depositId: string) {
    const op = await this.deps.store.operation(depositId.toLowerCase(), caller.userId);
    if (!op || op.kind !== 'deposit')
      throw new DomainError('EXTMARKET_DEPOSIT_NOT_FOUND', 'No deposit of the caller has this id', {
        details: { depositId },
      });
    const txs = await this.deps.exchange.bridgeStatus(depositId);
    const statuses = [
      'DEPOSIT_DETECTED',
      'PROCESSING',
      'ORIGIN_TX_CONFIRMED',
      'SUBMITTED',
      'COMPLETED',
      'FAILED',
    ] as const;
    const transactions = txs.map((t) => ({
      fromChainId: t.fromChainId,
      fromTokenAddress: t.fromTokenAddress,
      fromAmountBaseUnit: t.fromAmountBaseUnit,
      toChainId: t.toChainId,
      toTokenAddress: t.toTokenAddress,
      status: (statuses as readonly string[]).includes(t.status)
        ? (t.status as (typeof statuses)[number])
        : 'PROCESSING',
      txHash: t.txHash ?? null,
      createdAt: t.createdTimeMs === undefined ? null : new Date(t.createdTimeMs).toISOString(),
    }));
    return {
      depositId: getAddress(depositId),
      completed: transactions.length > 0 && transactions.every((t) => t.status === 'COMPLETED'),
      transactions,
    };
  }

  async withdraw(
    ctx: OperationContext,
    caller: ExtCaller,
    body: { amount: string; toChainId: string; toTokenAddress: string; recipientAddress: string },
  ) {
    const amount = BigInt(body.amount);
    const sent = await this.execute(ctx, caller, 'withdraw', async (wallet) => {
      await this.requireHeld(wallet, EXT_CONTRACTS.pUsd, amount, 'pUSD');
      const addresses = await this.deps.exchange.bridgeWithdraw(wallet, {
        chainId: body.toChainId,
        tokenAddress: body.toTokenAddress,
        recipient: body.recipientAddress,
      });
      const to = getAddress(addresses.evm);
      return {
        calls: [
          call(
            EXT_CONTRACTS.pUsd,
            encodeFunctionData({ abi: EXT_CALL_ABI, functionName: 'transfer', args: [to, amount] }),
          ),
        ],
        details: { amount: amount.toString(), to, toChainId: body.toChainId, recipient: body.recipientAddress },
      };
    });
    return { withdrawalAddress: getAddress(String(sent.details['to'])), transaction: sent.view };
  }

  async withdrawClob(ctx: OperationContext, caller: ExtCaller, body: { amount: string; unwrap: boolean }) {
    const amount = BigInt(body.amount);
    const managed = getAddress(caller.managedAddress);
    const sent = await this.execute(ctx, caller, 'withdraw-clob', async (wallet) => {
      await this.requireHeld(wallet, EXT_CONTRACTS.pUsd, amount, 'pUSD');
      const calls = body.unwrap
        ? [
            call(
              EXT_CONTRACTS.offramp,
              encodeFunctionData({
                abi: EXT_CALL_ABI,
                functionName: 'unwrap',
                args: [EXT_CONTRACTS.usdcE, managed, amount],
              }),
            ),
          ]
        : [
            call(
              EXT_CONTRACTS.pUsd,
              encodeFunctionData({ abi: EXT_CALL_ABI, functionName: 'transfer', args: [managed, amount] }),
            ),
          ];
      return { calls, details: { amount: amount.toString(), to: managed, unwrap: body.unwrap } };
    });
    return sent.view;
  }

  /** Sweeps collateral tokens out of every deployed wallet of the caller to the managed wallet. */
  async recoverFunds(ctx: OperationContext, caller: ExtCaller) {
    const row = await this.accounts.require(caller);
    const managed = getAddress(caller.managedAddress);
    const swept: { from: Address; token: Address; amount: string }[] = [];
    const transactions: RelayerTxView[] = [];
    for (const kind of ['deposit-wallet', 'safe'] as const) {
      const wallet = this.accounts.walletOf(row, kind);
      const sent = await this.relayOnce(ctx, caller, 'recover-funds', `recover-funds:${kind}`, async () => {
        if (!(await this.deps.exchange.isDeployed(wallet, relayerKindOf(kind)))) return undefined;
        const balances = (await this.deps.exchange.polygonBalances([wallet]))[wallet] ?? {};
        const calls: ExtRelayerCall[] = [];
        const items: { from: Address; token: Address; amount: string }[] = [];
        for (const token of [EXT_CONTRACTS.pUsd, EXT_CONTRACTS.usdcE, EXT_CONTRACTS.usdc]) {
          const amount = BigInt(balances[token] ?? '0');
          if (amount === 0n) continue;
          calls.push(
            call(token, encodeFunctionData({ abi: EXT_CALL_ABI, functionName: 'transfer', args: [managed, amount] })),
          );
          items.push({ from: wallet, token, amount: amount.toString() });
        }
        if (calls.length === 0) return undefined;
        return {
          signer: this.accounts.signer(row),
          request: { kind: relayerKindOf(kind), wallet, calls, metadata: 'recover-funds' },
          details: { wallet, to: managed, swept: items },
        };
      });
      if (!sent) continue;
      swept.push(...((sent.details['swept'] as typeof swept | undefined) ?? []));
      transactions.push(sent.view);
    }
    return { swept, transactions };
  }

  async redeem(ctx: OperationContext, caller: ExtCaller, body: { conditionId: string }) {
    const sent = await this.execute(ctx, caller, 'redeem', async (wallet) => {
      const positions = await this.deps.exchange.positions(wallet, { market: body.conditionId, redeemable: true });
      if (positions.length === 0)
        throw new DomainError(
          'EXTMARKET_NOTHING_TO_REDEEM',
          'The trading wallet holds no redeemable shares of this market',
          { details: { conditionId: body.conditionId } },
        );
      const adapter = positions.some((p) => p.negativeRisk)
        ? EXT_CONTRACTS.negRiskCtfCollateralAdapter
        : EXT_CONTRACTS.ctfCollateralAdapter;
      const data = encodeFunctionData({
        abi: EXT_CALL_ABI,
        functionName: 'redeemPositions',
        args: [EXT_CONTRACTS.pUsd, ZERO32, body.conditionId as Hex, [1n, 2n]],
      });
      return { calls: [call(adapter, data)], details: { conditionId: body.conditionId } };
    });
    return sent.view;
  }

  async relayerTx(caller: ExtCaller, txId: string): Promise<RelayerTxView> {
    const op = await this.deps.store.operation(txId, caller.userId);
    if (!op || op.kind === 'deposit')
      throw new DomainError('EXTMARKET_RELAYER_TX_NOT_FOUND', 'No relayer transaction of the caller has this id', {
        details: { txId },
      });
    const tx = await this.deps.exchange.relayerTransaction(txId);
    if (!tx)
      throw new DomainError('EXTMARKET_RELAYER_TX_NOT_FOUND', 'The relayer does not know this transaction', {
        details: { txId },
      });
    return this.view(tx, op.kind);
  }
}
