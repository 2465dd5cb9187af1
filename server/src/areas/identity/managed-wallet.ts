import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { SecretBox } from './secret-box.js';

/** A new managed wallet: its address and its key sealed under the master key. */
export function createManagedWallet(box: SecretBox): { address: string; ciphertext: string } {
  const key = generatePrivateKey();
  return { address: privateKeyToAccount(key).address, ciphertext: box.seal(key) };
}

/** The signing account of a managed wallet; the key exists in memory only while it is used. */
export function managedAccount(box: SecretBox, ciphertext: string): PrivateKeyAccount {
  return privateKeyToAccount(box.open(ciphertext) as Hex);
}
