import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recoverMessageAddress, recoverTransactionAddress } from 'viem';
import { createManagedWallet, managedAccount, managedSigner } from './managed-wallet.js';
import { SecretBox } from './secret-box.js';

describe('managed wallets', () => {
  const box = new SecretBox(randomBytes(32));
  const wallet = createManagedWallet(box);
  const tx = {
    type: 'eip1559' as const,
    chainId: 31337,
    nonce: 7,
    gas: 100_000n,
    to: '0x000000000000000000000000000000000000dEaD' as const,
    value: 1n,
    data: '0x1234' as const,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1n,
  };

  it('a signer built from the stored address signs exactly what the derived account signs', async () => {
    const signer = managedSigner(box, wallet.ciphertext, wallet.address.toLowerCase());
    const derived = managedAccount(box, wallet.ciphertext);
    expect(signer.address).toBe(derived.address);
    const raw = await signer.signTransaction(tx);
    expect(raw).toBe(await derived.signTransaction(tx));
    expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).toBe(wallet.address);
    const signature = await signer.signMessage({ message: 'duelkit' });
    expect(await recoverMessageAddress({ message: 'duelkit', signature })).toBe(wallet.address);
  });

  it('a key sealed under another master key cannot sign', async () => {
    const signer = managedSigner(new SecretBox(randomBytes(32)), wallet.ciphertext, wallet.address);
    await expect(signer.signTransaction(tx)).rejects.toThrow();
  });
});
