import {
  encodeFunctionData,
  erc20Abi,
  parseEventLogs,
  toHex,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
} from 'viem';
import { CollateralTokenAbi } from './artifacts/CollateralToken.js';
import { PrizeVaultAbi } from './artifacts/PrizeVault.js';
import type { CollateralKind } from './chain.port.js';
import type { ChainWriter } from './chain-writer.js';
import type {
  DescribedCall,
  PrizeVaultPort,
  UnsignedCall,
  VaultClaim,
  VaultDeposit,
  VaultDepositKey,
  VaultDistributionKind,
  VaultReceipt,
  VaultWriteKey,
} from './prize-vault.port.js';

/** The vault contract of each collateral. */
export interface VaultAddresses {
  readonly credits: Address;
  readonly usdc: Address;
}

/** The vault's ABI with the token's errors, so a revert inside the token (balance, allowance) decodes to its code. */
const VaultCallAbi = [...PrizeVaultAbi, ...CollateralTokenAbi.filter((item) => item.type === 'error')];

const KIND_NUMBER: Record<VaultDistributionKind, number> = { payout: 0, refund: 1 };
const KIND_NAME: readonly VaultDistributionKind[] = ['payout', 'refund'];

/**
 * The `PrizeVault.claim` call of a leaf on the vault at `vault`. A pure function beside the adapter
 * so the in-memory fake answers the very calldata the adapter does.
 */
export function claimCallOf(vault: Address, claim: VaultClaim): UnsignedCall {
  return {
    to: vault,
    data: encodeFunctionData({
      abi: PrizeVaultAbi,
      functionName: 'claim',
      args: [claim.poolId, KIND_NUMBER[claim.kind], claim.account, claim.amount, [...claim.proof]],
    }),
  };
}

/**
 * The approve and deposit calls of a deposit of the token at `token` into the vault at `vault`;
 * pure for the same reason as claimCallOf.
 */
export function depositCallsOf(
  token: Address,
  vault: Address,
  poolId: Hex,
  stage: number,
  amount: bigint,
): DescribedCall[] {
  return [
    {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [vault, amount] }),
      description: `approve(${vault}, ${amount}) on the collateral token`,
    },
    {
      to: vault,
      data: encodeFunctionData({ abi: PrizeVaultAbi, functionName: 'deposit', args: [poolId, stage, amount] }),
      description: `deposit(${poolId}, ${stage}, ${amount}) on the prize vault`,
    },
  ];
}

/**
 * PrizeVault through viem. Every write goes through the chain transaction pipeline (ChainWriter):
 * simulated first (a revert is a 4xx), recorded under its key before it is signed and broadcast,
 * so a key is sent at most once whatever retries, jobs or restarts ask for it again.
 */
export class ViemPrizeVaultAdapter implements PrizeVaultPort {
  constructor(
    private readonly client: PublicClient,
    private readonly writer: ChainWriter,
    private readonly operator: LocalAccount,
    private readonly vaults: VaultAddresses,
    private readonly tokens: VaultAddresses,
  ) {}

  address(collateral: CollateralKind): Address {
    return this.vaults[collateral];
  }

  async deposit(
    signer: LocalAccount,
    collateral: CollateralKind,
    poolId: Hex,
    stage: number,
    amount: bigint,
    write: VaultDepositKey = {},
  ): Promise<Hash> {
    await this.writer.ensureGas(signer.address);
    await this.writer.ensureAllowance(signer, this.tokens[collateral], this.vaults[collateral], amount);
    return this.writer.contract(
      signer,
      { address: this.vaults[collateral], abi: VaultCallAbi, functionName: 'deposit', args: [poolId, stage, amount] },
      {
        kind: 'vault.deposit',
        key: write.key,
        effect: { collateral, poolId, stage, from: signer.address, amount: amount.toString() },
        debit: { token: this.tokens[collateral], amount, refusal: write.refusal ?? 'INSUFFICIENT_BALANCE' },
      },
      write.write ? { write: write.write } : {},
    );
  }

  release(
    collateral: CollateralKind,
    poolId: Hex,
    to: Address,
    amount: bigint,
    reason: string,
    write: VaultWriteKey,
  ): Promise<Hash> {
    return this.operatorWrite(
      collateral,
      'release',
      [poolId, to, amount, toHex(reason.slice(0, 32), { size: 32 })],
      {
        kind: 'vault.release',
        key: write.key,
        effect: { collateral, poolId, to, amount: amount.toString(), reason },
      },
      write,
    );
  }

  setRoot(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    root: Hex,
    total: bigint,
    write: VaultWriteKey,
  ): Promise<Hash> {
    return this.operatorWrite(
      collateral,
      'setRoot',
      [poolId, KIND_NUMBER[kind], root, total],
      {
        kind: 'vault.set_root',
        key: write.key,
        effect: { collateral, poolId, kind, root, total: total.toString() },
      },
      write,
    );
  }

  claim(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    account: Address,
    amount: bigint,
    proof: readonly Hex[],
    write: VaultWriteKey,
  ): Promise<Hash> {
    return this.operatorWrite(
      collateral,
      'claim',
      [poolId, KIND_NUMBER[kind], account, amount, [...proof]],
      {
        kind: 'vault.claim',
        key: write.key,
        effect: { collateral, poolId, kind, account, amount: amount.toString() },
      },
      write,
    );
  }

  claimCall(collateral: CollateralKind, claim: VaultClaim): UnsignedCall {
    return claimCallOf(this.vaults[collateral], claim);
  }

  depositCalls(collateral: CollateralKind, poolId: Hex, stage: number, amount: bigint): DescribedCall[] {
    return depositCallsOf(this.tokens[collateral], this.vaults[collateral], poolId, stage, amount);
  }

  poolBalance(collateral: CollateralKind, poolId: Hex): Promise<bigint> {
    return this.client.readContract({
      address: this.vaults[collateral],
      abi: PrizeVaultAbi,
      functionName: 'poolBalance',
      args: [poolId],
    });
  }

  async distribution(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind) {
    const [root, total, claimed] = await this.client.readContract({
      address: this.vaults[collateral],
      abi: PrizeVaultAbi,
      functionName: 'distributions',
      args: [poolId, KIND_NUMBER[kind]],
    });
    return { root: /^0x0+$/.test(root) ? null : root, total, claimed };
  }

  isClaimed(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind, account: Address): Promise<boolean> {
    return this.client.readContract({
      address: this.vaults[collateral],
      abi: PrizeVaultAbi,
      functionName: 'claimed',
      args: [poolId, KIND_NUMBER[kind], account],
    });
  }

  async receipt(txHash: Hash): Promise<VaultReceipt> {
    let receipt;
    try {
      receipt = await this.client.getTransactionReceipt({ hash: txHash });
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError || err instanceof TransactionNotFoundError) {
        return { status: 'pending', sender: null, deposits: [], claims: [] };
      }
      throw err;
    }
    const byVault = new Map<string, CollateralKind>([
      [this.vaults.credits.toLowerCase(), 'credits'],
      [this.vaults.usdc.toLowerCase(), 'usdc'],
    ]);
    const ours = receipt.logs.filter((l) => byVault.has(l.address.toLowerCase()));
    const deposits: VaultDeposit[] = [];
    const claims: VaultReceipt['claims'][number][] = [];
    if (receipt.status === 'success') {
      for (const log of parseEventLogs({ abi: PrizeVaultAbi, logs: ours })) {
        const collateral = byVault.get(log.address.toLowerCase()) as CollateralKind;
        if (log.eventName === 'Deposited') {
          deposits.push({
            collateral,
            poolId: log.args.poolId,
            stage: log.args.stage,
            from: log.args.from,
            amount: log.args.amount,
            txHash,
            logIndex: log.logIndex,
            blockNumber: log.blockNumber,
          });
        } else if (log.eventName === 'Claimed') {
          const kind = KIND_NAME[log.args.kind];
          if (kind)
            claims.push({
              collateral,
              poolId: log.args.poolId,
              kind,
              account: log.args.account,
              amount: log.args.amount,
            });
        }
      }
    }
    return { status: receipt.status, sender: receipt.from, deposits, claims };
  }

  private async operatorWrite(
    collateral: CollateralKind,
    functionName: 'release' | 'setRoot' | 'claim',
    args: readonly unknown[],
    intent: { kind: string; key: string; effect: Record<string, unknown> },
    write: VaultWriteKey,
  ): Promise<Hash> {
    return this.writer.contract(
      this.operator,
      { address: this.vaults[collateral], abi: VaultCallAbi, functionName, args },
      intent,
      write.write ? { write: write.write } : {},
    );
  }
}
