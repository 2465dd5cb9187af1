import { keccak256, pad, stringToBytes, type Hex } from 'viem';

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
