import { describe, expect, it } from 'vitest';
import { keccak256, recoverTransactionAddress, toHex, type TransactionSerializable } from 'viem';
import { generatePrivateKey, privateKeyToAccount, sign, signTransaction } from 'viem/accounts';
import { signer, signHash, signTransactionHash } from './secp256k1.js';

describe('secp256k1 signing', () => {
  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'signs with libsecp256k1 where a prebuilt binary fits',
    () => {
      expect(signer).toBe('native');
    },
  );

  it('makes exactly the signatures viem makes, for 300 keys and hashes', async () => {
    for (let i = 0; i < 300; i++) {
      const privateKey = generatePrivateKey();
      const hash = keccak256(toHex(`duelkit ${i}`));
      expect(await signHash(hash, privateKey)).toEqual(await sign({ hash, privateKey }));
    }
  });

  it('signs transactions of every fee type as viem does, recoverable to the signer', async () => {
    const privateKey = generatePrivateKey();
    const base = {
      to: '0x000000000000000000000000000000000000dEaD',
      value: 5n,
      data: '0xabcdef',
      gas: 90_000n,
    } as const;
    const transactions: TransactionSerializable[] = [
      { ...base, type: 'eip1559', chainId: 31337, nonce: 3, maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 2n },
      { ...base, type: 'legacy', chainId: 8453, nonce: 0, gasPrice: 1_000_000_000n },
      { ...base, type: 'legacy', nonce: 9, gasPrice: 1n },
      { ...base, type: 'eip2930', chainId: 1, nonce: 1, gasPrice: 7n, accessList: [] },
    ];
    for (const transaction of transactions) {
      const raw = await signTransactionHash(privateKey, transaction);
      expect(raw).toBe(await signTransaction({ privateKey, transaction }));
      expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).toBe(
        privateKeyToAccount(privateKey).address,
      );
    }
  });
});
