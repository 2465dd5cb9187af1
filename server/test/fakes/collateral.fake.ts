import { getAddress, type Address, type Hash, type LocalAccount } from 'viem';
import type { CollateralKind, WriteOptions } from '../../src/adapters/chain/chain.types.js';
import type { CollateralPort } from '../../src/adapters/chain/collateral.port.js';
import type { InMemoryChain } from './in-memory-chain.js';

/** `CollateralPort` over an in-memory chain: balances move, a transfer beyond the balance is refused. */
export class FakeCollateral implements CollateralPort {
  constructor(private readonly chain: InMemoryChain) {}

  collateralBalance(stack: CollateralKind, owner: Address): Promise<bigint> {
    return Promise.resolve(this.chain.balanceOf(stack, getAddress(owner)));
  }

  mint(stack: CollateralKind, to: Address, amount: bigint, opts?: WriteOptions): Promise<Hash> {
    return this.chain.write(
      {
        from: this.chain.operator,
        apply: () => {
          this.chain.move(stack, null, getAddress(to), amount);
          return [];
        },
      },
      opts,
    );
  }

  transfer(signer: LocalAccount, stack: CollateralKind, to: Address, amount: bigint, opts?: WriteOptions) {
    const from = this.chain.accountOf(signer);
    return this.chain.write(
      {
        from,
        debit: { stack, amount, refusal: 'INSUFFICIENT_BALANCE' },
        apply: () => {
          this.chain.move(stack, from, getAddress(to), amount);
          return [];
        },
      },
      opts,
    );
  }

  fundGas(to: Address, amount: bigint): Promise<void> {
    this.chain.addGas(to, amount);
    return Promise.resolve();
  }
}
