import {
  TransactionReceiptNotFoundError,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type Hash,
  type LocalAccount,
  type PublicClient,
} from 'viem';
import type { Logger } from '../../logger.js';
import type { ChainTxPipeline } from '../../platform/chain-tx/chain-tx.pipeline.js';
import { CollateralTokenAbi } from './artifacts/CollateralToken.js';
import { DuelMarketsAbi } from './artifacts/DuelMarkets.js';
import type {
  Bytes32,
  ChainAddresses,
  ChainInvite,
  ChainMarketStatus,
  ChainPort,
  CollateralKind,
  CreateMarketInput,
  MarketEvent,
  Signer,
  WriteOptions,
} from './chain.port.js';
import type { ParlayBookPort } from './parlay-book.port.js';
import { ViemParlayBookAdapter } from './viem-parlay-book.adapter.js';
import type { ChainGateState } from './chain.gate.js';
import { connectChain, type ChainConfig, type ChainConnection, type ChainStores } from './chain-connection.js';
import type { ChainWriter, WriteIntent } from './chain-writer.js';
import { MarketEventReader } from './market-event-reader.js';
import type { PrizeVaultPort } from './prize-vault.port.js';
import { ViemPrizeVaultAdapter } from './viem-prize-vault.adapter.js';

export type { ChainConfig, ChainStores } from './chain-connection.js';

type MarketRead = ContractFunctionName<typeof DuelMarketsAbi, 'view' | 'pure'>;
type MarketWrite = ContractFunctionName<typeof DuelMarketsAbi, 'nonpayable'>;

const STATUSES: readonly ChainMarketStatus[] = ['none', 'open', 'resolved', 'settled', 'cancelled'];

/**
 * The chain through viem, one code path: only the transport differs — `http()` to a node, or
 * `custom()` over the EIP-1193 provider of the in-process EVM. Every write goes through the chain
 * transaction pipeline (ChainWriter → ChainTxPipeline): simulated (reverts become 4xx
 * DomainErrors, revert-errors.ts), recorded with its signed bytes, then broadcast.
 */
export class ViemChainAdapter implements ChainPort {
  readonly chainId: number;
  readonly addresses: ChainAddresses;
  /** The pipeline every write goes through: areas register outcome handlers on it. */
  readonly pipeline: ChainTxPipeline;
  /** JSON-RPC URL of the embedded EVM when it is served on loopback. */
  readonly embeddedRpcUrl: string | undefined;
  /** The embedded chain's time control; undefined on a real chain. */
  readonly time: ChainConnection['time'];
  private readonly account: LocalAccount;
  private readonly publicClient: PublicClient;
  private readonly writer: ChainWriter;

  private constructor(
    private readonly connection: ChainConnection,
    private readonly events: MarketEventReader,
  ) {
    this.chainId = connection.chainId;
    this.addresses = connection.addresses;
    this.pipeline = connection.pipeline;
    this.embeddedRpcUrl = connection.embeddedRpcUrl;
    this.time = connection.time;
    this.account = connection.account;
    this.publicClient = connection.publicClient;
    this.writer = connection.writer;
  }

  get operator(): Address {
    return this.account.address;
  }

  /** The prize vaults on this chain, written through the same pipeline and signer as the markets. */
  prizeVault(): PrizeVaultPort {
    const { credits, usdc, creditsVault, usdcVault } = this.addresses;
    return new ViemPrizeVaultAdapter(
      this.publicClient,
      this.writer,
      this.account,
      { credits: creditsVault, usdc: usdcVault },
      { credits, usdc },
    );
  }

  /** ParlayBook at `address` (the embedded chain's own, or PARLAY_BOOK_ADDRESS), through the same pipeline and operator. */
  parlayBook(address: Address): ParlayBookPort {
    return new ViemParlayBookAdapter(this.publicClient, this.writer, this.account, address);
  }

  /**
   * Connects to the configured chain and checks it is the one the database was written against
   * (refusing to start otherwise, with a ChainIdentityError); the embedded chain is rebuilt from
   * its journal when the database has one.
   */
  static async connect(config: ChainConfig, logger: Logger, stores: ChainStores): Promise<ViemChainAdapter> {
    const c = await connectChain(config, logger, stores);
    return new ViemChainAdapter(c, new MarketEventReader(c.publicClient, c.addresses.markets));
  }

  /** Whether the node has been recognised as this database's chain (see `ChainGate`). */
  verification(): ChainGateState {
    return this.connection.gate();
  }

  blockNumber(): Promise<bigint> {
    return this.publicClient.getBlockNumber({ cacheTime: 0 });
  }

  collateralBalance(stack: 'usdc' | 'credits', owner: Address): Promise<bigint> {
    return this.publicClient.readContract({
      address: this.addresses[stack],
      abi: CollateralTokenAbi,
      functionName: 'balanceOf',
      args: [owner],
    });
  }

  mint(stack: CollateralKind, to: Address, amount: bigint, opts?: WriteOptions): Promise<Hash> {
    return this.writer.contract(
      this.account,
      { address: this.addresses[stack], abi: CollateralTokenAbi, functionName: 'mint', args: [to, amount] },
      { kind: 'collateral.mint', effect: { stack, to, amount: amount.toString() } },
      opts,
    );
  }

  async transfer(signer: LocalAccount, stack: CollateralKind, to: Address, amount: bigint, opts?: WriteOptions) {
    await this.writer.ensureGas(signer.address);
    return this.writer.contract(
      signer,
      { address: this.addresses[stack], abi: CollateralTokenAbi, functionName: 'transfer', args: [to, amount] },
      {
        kind: 'collateral.transfer',
        effect: { stack, from: signer.address, to, amount: amount.toString() },
        debit: { token: this.addresses[stack], amount, refusal: 'INSUFFICIENT_BALANCE' },
      },
      opts,
    );
  }

  fundGas(to: Address, amount: bigint): Promise<void> {
    return this.writer.fundGas(to, amount, { kind: 'chain.fund_gas', effect: { to, amount: amount.toString() } });
  }

  async poolBalances(duelId: `0x${string}`): Promise<bigint[]> {
    const balances = await this.publicClient.readContract({
      address: this.addresses.markets,
      abi: DuelMarketsAbi,
      functionName: 'poolBalances',
      args: [duelId],
    });
    return [...balances];
  }

  async safeHead(): Promise<bigint> {
    // On the embedded chain only journaled blocks count: a block that would not survive a restart
    // must not be indexed.
    const { finalHead, confirmations } = this.connection;
    const head = finalHead ? finalHead() : await this.publicClient.getBlockNumber({ cacheTime: 0 });
    const safe = head - BigInt(confirmations);
    return safe < 0n ? 0n : safe;
  }

  marketEvents(from: bigint, to: bigint): Promise<MarketEvent[]> {
    return this.events.between(from, to);
  }

  async transactionStatus(hash: Hash): Promise<'pending' | 'success' | 'reverted'> {
    try {
      const receipt = await this.publicClient.getTransactionReceipt({ hash });
      return receipt.status;
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError) return 'pending';
      throw err;
    }
  }

  transactionEvents(hash: Hash): Promise<MarketEvent[]> {
    return this.events.ofTransaction(hash);
  }

  // ---- writes ----

  async createMarket(signer: LocalAccount, input: CreateMarketInput, opts?: WriteOptions): Promise<Hash> {
    await this.writer.ensureGas(signer.address);
    await this.writer.ensureAllowance(signer, this.addresses[input.collateral], this.addresses.markets, input.funding);
    return this.market(
      signer,
      'createMarket',
      [
        input.duelId,
        this.addresses[input.collateral],
        input.options,
        BigInt(input.startTime),
        BigInt(input.endTime),
        input.feeBps,
        input.isPrivate,
        input.funding,
        BigInt(input.minLeadSeconds),
        BigInt(input.contestPeriodSeconds),
      ],
      {
        kind: 'markets.create',
        key: `markets.create:${input.duelId}`,
        effect: { duelId: input.duelId },
        debit: { token: this.addresses[input.collateral], amount: input.funding, refusal: 'INSUFFICIENT_CREDITS' },
      },
      opts,
    );
  }

  async buy(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    investment: bigint,
    minSharesOut: bigint,
    opts?: WriteOptions,
  ): Promise<Hash> {
    const [, collateral] = await this.marketInfo(duelId);
    const stack = this.stackOf(collateral);
    await this.writer.ensureGas(signer.address);
    if (stack) await this.writer.ensureAllowance(signer, this.addresses[stack], this.addresses.markets, investment);
    return this.market(
      signer,
      'buy',
      [duelId, option, investment, minSharesOut],
      {
        kind: 'markets.buy',
        effect: { duelId, option, investment: investment.toString() },
        ...(stack
          ? { debit: { token: this.addresses[stack], amount: investment, refusal: 'INSUFFICIENT_CREDITS' } }
          : {}),
      },
      opts,
    );
  }

  async sellForReturn(
    signer: LocalAccount,
    duelId: Bytes32,
    option: number,
    returnAmount: bigint,
    maxSharesIn: bigint,
    opts?: WriteOptions,
  ): Promise<Hash> {
    await this.writer.ensureGas(signer.address);
    return this.market(
      signer,
      'sellForReturn',
      [duelId, option, returnAmount, maxSharesIn],
      { kind: 'markets.sell', effect: { duelId, option, returnAmount: returnAmount.toString() } },
      opts,
    );
  }

  resolve(signer: Signer, duelId: Bytes32, outcome: number, opts?: WriteOptions) {
    return this.write(
      signer,
      'resolve',
      [duelId, outcome],
      { kind: 'markets.resolve', key: `markets.resolve:${duelId}`, effect: { duelId, outcome } },
      opts,
    );
  }

  finalize(signer: Signer, duelId: Bytes32, outcome: number, opts?: WriteOptions) {
    return this.write(
      signer,
      'finalize',
      [duelId, outcome],
      { kind: 'markets.finalize', key: `markets.finalize:${duelId}`, effect: { duelId, outcome } },
      opts,
    );
  }

  cancel(duelId: Bytes32, opts?: WriteOptions) {
    return this.write(
      'platform',
      'cancel',
      [duelId],
      { kind: 'markets.cancel', key: `markets.cancel:${duelId}`, effect: { duelId } },
      opts,
    );
  }

  payout(duelId: Bytes32, holder: Address, opts?: WriteOptions) {
    return this.write(
      'platform',
      'payout',
      [duelId, holder],
      {
        kind: 'markets.payout',
        key: `markets.payout:${duelId}:${holder.toLowerCase()}`,
        effect: { duelId, holder },
      },
      opts,
    );
  }

  claimFees(duelId: Bytes32, opts?: WriteOptions) {
    return this.write(
      'platform',
      'claimFees',
      [duelId],
      { kind: 'markets.claim_fees', key: `markets.claim_fees:${duelId}`, effect: { duelId } },
      opts,
    );
  }

  createInvite(
    signer: Signer,
    duelId: Bytes32,
    codeHash: Bytes32,
    maxUses: number,
    expiresAt: number,
    opts?: WriteOptions,
  ) {
    return this.write(
      signer,
      'createInvite',
      [duelId, codeHash, maxUses, BigInt(expiresAt)],
      {
        kind: 'markets.create_invite',
        key: `markets.create_invite:${duelId}:${codeHash}`,
        effect: { duelId, codeHash },
      },
      opts,
    );
  }

  revokeInvite(signer: Signer, duelId: Bytes32, codeHash: Bytes32, opts?: WriteOptions) {
    return this.write(
      signer,
      'revokeInvite',
      [duelId, codeHash],
      { kind: 'markets.revoke_invite', effect: { duelId, codeHash } },
      opts,
    );
  }

  join(signer: LocalAccount, duelId: Bytes32, codeHash: Bytes32, opts?: WriteOptions) {
    return this.write(signer, 'join', [duelId, codeHash], { kind: 'markets.join', effect: { duelId, codeHash } }, opts);
  }

  joinFor(duelId: Bytes32, codeHash: Bytes32, member: Address, opts?: WriteOptions) {
    return this.write(
      'platform',
      'joinFor',
      [duelId, codeHash, member],
      { kind: 'markets.join', effect: { duelId, codeHash, member } },
      opts,
    );
  }

  addMember(signer: Signer, duelId: Bytes32, member: Address, opts?: WriteOptions) {
    return this.write(
      signer,
      'addMember',
      [duelId, member],
      { kind: 'markets.add_member', effect: { duelId, member } },
      opts,
    );
  }

  removeMember(signer: Signer, duelId: Bytes32, member: Address, opts?: WriteOptions) {
    return this.write(
      signer,
      'removeMember',
      [duelId, member],
      { kind: 'markets.remove_member', effect: { duelId, member } },
      opts,
    );
  }

  // ---- reads ----

  async marketStatus(duelId: Bytes32): Promise<ChainMarketStatus> {
    const info = await this.marketInfo(duelId);
    return STATUSES[info[6]] ?? 'none';
  }

  isMember(duelId: Bytes32, member: Address): Promise<boolean> {
    return this.read('members', [duelId, member]);
  }

  async invite(duelId: Bytes32, codeHash: Bytes32): Promise<ChainInvite> {
    const [maxUses, uses, expiresAt, revoked, exists] = await this.read('invites', [duelId, codeHash]);
    return { maxUses, uses, expiresAt: Number(expiresAt), revoked, exists };
  }

  async owed(duelId: Bytes32, holder: Address) {
    const [[amount, refund], paid] = await Promise.all([
      this.read('owed', [duelId, holder]),
      this.read('paid', [duelId, holder]),
    ]);
    return { amount, refund, paid };
  }

  async feesOwed(duelId: Bytes32) {
    const [amount, claimed] = await this.read('feesOwed', [duelId]);
    return { amount, claimed };
  }

  sharesOf(duelId: Bytes32, holder: Address, option: number): Promise<bigint> {
    return this.read('shares', [duelId, holder, BigInt(option)]);
  }

  private marketInfo(duelId: Bytes32) {
    return this.read('marketInfo', [duelId]);
  }

  private stackOf(collateral: Address): CollateralKind | undefined {
    const c = collateral.toLowerCase();
    if (c === this.addresses.credits.toLowerCase()) return 'credits';
    if (c === this.addresses.usdc.toLowerCase()) return 'usdc';
    return undefined;
  }

  private read<F extends MarketRead>(
    functionName: F,
    args: ContractFunctionArgs<typeof DuelMarketsAbi, 'view' | 'pure', F>,
  ): Promise<ContractFunctionReturnType<typeof DuelMarketsAbi, 'view' | 'pure', F>> {
    return this.publicClient.readContract({
      address: this.addresses.markets,
      abi: DuelMarketsAbi,
      functionName,
      args,
    } as never) as never;
  }

  /** A write to the market contract by `signer` (a managed account pays its own gas). */
  private async write<F extends MarketWrite>(
    signer: Signer,
    functionName: F,
    args: ContractFunctionArgs<typeof DuelMarketsAbi, 'nonpayable', F>,
    intent: WriteIntent,
    opts: WriteOptions | undefined,
  ): Promise<Hash> {
    const account = signer === 'platform' ? this.account : signer;
    await this.writer.ensureGas(account.address);
    return this.market(account, functionName, args, intent, opts);
  }

  private market<F extends MarketWrite>(
    account: LocalAccount,
    functionName: F,
    args: ContractFunctionArgs<typeof DuelMarketsAbi, 'nonpayable', F>,
    intent: WriteIntent,
    opts: WriteOptions | undefined,
  ): Promise<Hash> {
    return this.writer.contract(
      account,
      { address: this.addresses.markets, abi: DuelMarketsAbi, functionName, args: args as readonly unknown[] },
      intent,
      opts,
    );
  }

  async close(): Promise<void> {
    // The in-process EVM itself lives as long as the process; its RPC server stops, its journal is written.
    await this.connection.close();
  }
}
