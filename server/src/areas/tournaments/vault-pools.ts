import { encodeFunctionData, erc20Abi, keccak256, pad, stringToBytes, type Address, type Hex } from 'viem';
import { PrizeVaultAbi } from '../../adapters/chain/artifacts/PrizeVault.js';

/**
 * The vault pool of a tournament: its 12-byte id left-padded to 32 bytes, so a client that
 * generated the id can deposit before the tournament exists without asking the server.
 */
export function tournamentPoolId(tournamentId: string): Hex {
  return pad(`0x${tournamentId.toLowerCase()}`, { size: 32 });
}

/** The vault pool of a creator's bond: keccak256("duelkit:bond:" + lowercase address). */
export function bondPoolId(wallet: string): Hex {
  return keccak256(stringToBytes(`duelkit:bond:${wallet.toLowerCase()}`));
}

/** The two transactions a self-custody wallet sends to deposit: approve the vault, then deposit. */
export function depositCalls(token: Address, vault: Address, poolId: Hex, stage: number, amount: bigint) {
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
