import {
  generatePrivateKey,
  privateKeyToAccount,
  signMessage,
  signTypedData,
  toAccount,
  type LocalAccount,
  type PrivateKeyAccount,
} from 'viem/accounts';
import { getAddress, serializeSignature, type Hex } from 'viem';
import { signHash, signTransactionHash } from '../../platform/signing/secp256k1.js';
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

/**
 * The signing account of a managed wallet whose address is already known (it was derived from
 * the key when the wallet was created): the key is opened for the signature only, the public key
 * is not derived again (an elliptic-curve multiplication per write that `managedAccount` pays),
 * and hashes and transactions are signed by libsecp256k1 where it is available.
 */
export function managedSigner(box: SecretBox, ciphertext: string, address: string): LocalAccount {
  const key = (): Hex => box.open(ciphertext) as Hex;
  return toAccount({
    address: getAddress(address),
    sign: async ({ hash }) => serializeSignature(await signHash(hash, key())),
    signMessage: async ({ message }) => signMessage({ message, privateKey: key() }),
    signTransaction: async (transaction, options) =>
      signTransactionHash(key(), transaction, options?.serializer as never),
    signTypedData: async (typedData) => signTypedData({ ...typedData, privateKey: key() } as never),
  });
}
