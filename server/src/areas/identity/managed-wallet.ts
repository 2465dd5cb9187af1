import {
  generatePrivateKey,
  privateKeyToAccount,
  sign,
  signMessage,
  signTransaction,
  signTypedData,
  toAccount,
  type LocalAccount,
  type PrivateKeyAccount,
} from 'viem/accounts';
import { getAddress, type Hex } from 'viem';
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
 * the key when the wallet was created): the key is opened for the signature only, and the public
 * key is not derived again — an elliptic-curve multiplication per write that `managedAccount` pays.
 */
export function managedSigner(box: SecretBox, ciphertext: string, address: string): LocalAccount {
  const key = (): Hex => box.open(ciphertext) as Hex;
  return toAccount({
    address: getAddress(address),
    sign: async ({ hash }) => sign({ hash, privateKey: key(), to: 'hex' }),
    signMessage: async ({ message }) => signMessage({ message, privateKey: key() }),
    signTransaction: async (transaction, options) =>
      signTransaction({
        privateKey: key(),
        transaction,
        ...(options?.serializer ? { serializer: options.serializer } : {}),
      }),
    signTypedData: async (typedData) => signTypedData({ ...typedData, privateKey: key() } as never),
  });
}
