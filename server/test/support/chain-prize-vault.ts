import {
  createPublicClient,
  createWalletClient,
  http,
  parseEventLogs,
  stringToHex,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CollateralTokenAbi } from '../../src/adapters/chain/artifacts/CollateralToken.js';
import { PrizeVaultAbi, PrizeVaultBytecode } from '../../src/adapters/chain/artifacts/PrizeVault.js';
import type { ChainPort, CollateralKind } from '../../src/adapters/chain/chain.port.js';
import type {
  PrizeVaultPort,
  VaultDistributionKind,
  VaultReceipt,
  VaultWriteKey,
} from '../../src/adapters/chain/prize-vault.port.js';
import { revertToAppError } from '../../src/adapters/chain/revert-errors.js';
import type { ViemChainAdapter } from '../../src/adapters/chain/viem-chain.adapter.js';

// A well-known development key, used on the embedded test chain only, as the vaults' operator:
// separate from the platform operator so the two never race for a nonce.
const VAULT_OPERATOR = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const KIND: Record<VaultDistributionKind, number> = { payout: 0, refund: 1 };

/**
 * The PrizeVault contract deployed on a test server's embedded chain (one per collateral) behind
 * the vault port, for tests that claim with real tokens. Operator writes are keyed as the port
 * requires (one transaction per key); reverts become the same 4xx codes as every chain write.
 */
export class ChainPrizeVault implements PrizeVaultPort {
  private readonly writes = new Map<string, Promise<Hash>>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly chain: ChainPort,
    private readonly rpcUrl: string,
    private readonly vaults: Record<CollateralKind, Address>,
  ) {}

  /** Deploys one vault per collateral on the server's embedded chain. */
  static async deploy(chain: ChainPort): Promise<ChainPrizeVault> {
    const rpcUrl = (chain as ViemChainAdapter).embeddedRpcUrl;
    if (!rpcUrl) throw new Error('the chain prize vault needs the embedded chain');
    await chain.fundGas(VAULT_OPERATOR.address, 10n ** 21n);
    const pub = createPublicClient({ transport: http(rpcUrl) });
    const wallet = createWalletClient({ transport: http(rpcUrl), account: VAULT_OPERATOR });
    const deploy = async (token: Address) => {
      const hash = await wallet.deployContract({
        abi: PrizeVaultAbi,
        bytecode: PrizeVaultBytecode,
        args: [token, VAULT_OPERATOR.address],
        chain: null,
      });
      return (await pub.waitForTransactionReceipt({ hash })).contractAddress as Address;
    };
    const credits = await deploy(chain.addresses.credits);
    const usdc = await deploy(chain.addresses.usdc);
    return new ChainPrizeVault(chain, rpcUrl, { credits, usdc });
  }

  address(collateral: CollateralKind): Address {
    return this.vaults[collateral];
  }

  async deposit(
    signer: LocalAccount,
    collateral: CollateralKind,
    poolId: Hex,
    stage: number,
    amount: bigint,
    write?: Partial<VaultWriteKey>,
  ): Promise<Hash> {
    return this.once(write?.key, async () => {
      await this.chain.fundGas(signer.address, 10n ** 18n);
      const token = this.chain.addresses[collateral];
      const vault = this.vaults[collateral];
      const allowance = await this.pub().readContract({
        address: token,
        abi: CollateralTokenAbi,
        functionName: 'allowance',
        args: [signer.address, vault],
      });
      if (allowance < amount) {
        await this.pub().waitForTransactionReceipt({
          hash: await this.send(signer, token, CollateralTokenAbi, 'approve', [vault, 2n ** 255n]),
        });
      }
      return this.send(signer, vault, PrizeVaultAbi, 'deposit', [poolId, stage, amount]);
    });
  }

  release(collateral: CollateralKind, poolId: Hex, to: Address, amount: bigint, reason: string, write: VaultWriteKey) {
    return this.operator(write.key, collateral, 'release', [poolId, to, amount, stringToHex(reason, { size: 32 })]);
  }

  setRoot(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    root: Hex,
    total: bigint,
    write: VaultWriteKey,
  ) {
    return this.operator(write.key, collateral, 'setRoot', [poolId, KIND[kind], root, total]);
  }

  claim(
    collateral: CollateralKind,
    poolId: Hex,
    kind: VaultDistributionKind,
    account: Address,
    amount: bigint,
    proof: readonly Hex[],
    write: VaultWriteKey,
  ) {
    return this.operator(write.key, collateral, 'claim', [poolId, KIND[kind], account, amount, proof]);
  }

  async poolBalance(collateral: CollateralKind, poolId: Hex): Promise<bigint> {
    return this.pub().readContract({
      address: this.vaults[collateral],
      abi: PrizeVaultAbi,
      functionName: 'poolBalance',
      args: [poolId],
    });
  }

  async distribution(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind) {
    const [root, total, claimed] = await this.pub().readContract({
      address: this.vaults[collateral],
      abi: PrizeVaultAbi,
      functionName: 'distributions',
      args: [poolId, KIND[kind]],
    });
    return { root: /^0x0+$/.test(root) ? null : root, total, claimed };
  }

  async isClaimed(collateral: CollateralKind, poolId: Hex, kind: VaultDistributionKind, account: Address) {
    return this.pub().readContract({
      address: this.vaults[collateral],
      abi: PrizeVaultAbi,
      functionName: 'claimed',
      args: [poolId, KIND[kind], account],
    });
  }

  async receipt(txHash: Hash): Promise<VaultReceipt> {
    const receipt = await this.pub()
      .getTransactionReceipt({ hash: txHash })
      .catch(() => null);
    if (!receipt) return { status: 'pending', sender: null, deposits: [], claims: [] };
    const collateralOf = (address: Address): CollateralKind | undefined =>
      (Object.keys(this.vaults) as CollateralKind[]).find(
        (k) => this.vaults[k].toLowerCase() === address.toLowerCase(),
      );
    const logs = parseEventLogs({ abi: PrizeVaultAbi, logs: receipt.logs });
    const deposits: VaultReceipt['deposits'][number][] = [];
    const claims: VaultReceipt['claims'][number][] = [];
    for (const log of logs) {
      const collateral = collateralOf(log.address);
      if (!collateral) continue;
      const args = log.args as Record<string, unknown>;
      if (log.eventName === 'Deposited') {
        deposits.push({
          collateral,
          poolId: args['poolId'] as Hex,
          stage: Number(args['stage']),
          from: args['from'] as Address,
          amount: args['amount'] as bigint,
          txHash,
          logIndex: log.logIndex,
          blockNumber: receipt.blockNumber,
        });
      }
      if (log.eventName === 'Claimed') {
        claims.push({
          collateral,
          poolId: args['poolId'] as Hex,
          kind: Number(args['kind']) === 0 ? 'payout' : 'refund',
          account: args['account'] as Address,
          amount: args['amount'] as bigint,
        });
      }
    }
    return { status: receipt.status === 'success' ? 'success' : 'reverted', sender: receipt.from, deposits, claims };
  }

  private operator(key: string, collateral: CollateralKind, functionName: string, args: readonly unknown[]) {
    // One operator account: its writes go out one at a time so their nonces never collide.
    return this.once(key, () => {
      const next = this.queue.then(() =>
        this.send(VAULT_OPERATOR, this.vaults[collateral], PrizeVaultAbi, functionName, args),
      );
      this.queue = next.catch(() => undefined);
      return next;
    });
  }

  private once(key: string | undefined, write: () => Promise<Hash>): Promise<Hash> {
    if (!key) return write();
    const known = this.writes.get(key);
    if (known) return known;
    const pending = write();
    this.writes.set(key, pending);
    pending.catch(() => this.writes.delete(key));
    return pending;
  }

  private async send(
    account: LocalAccount,
    address: Address,
    abi: readonly unknown[],
    functionName: string,
    args: readonly unknown[],
  ): Promise<Hash> {
    try {
      const { request } = await this.pub().simulateContract({ address, abi, functionName, args, account } as never);
      const wallet = createWalletClient({ transport: http(this.rpcUrl), account });
      const hash = await wallet.writeContract({ ...(request as object), account, chain: null } as never);
      await this.pub().waitForTransactionReceipt({ hash });
      return hash;
    } catch (err) {
      throw revertToAppError(err);
    }
  }

  private pub() {
    return createPublicClient({ transport: http(this.rpcUrl) });
  }
}
