/**
 * The simulator's balances in 6-decimal base units: ERC-20 balances and allowances per address
 * (pUSD, USDC.e, native USDC by contract address) and ERC-1155 outcome shares with operator
 * approvals (by token id). Addresses are compared lower-cased.
 */
export class Ledger {
  private readonly balances = new Map<string, bigint>();
  private readonly allowances = new Map<string, bigint>();
  private readonly operators = new Set<string>();

  private static k(...parts: string[]): string {
    return parts.map((p) => p.toLowerCase()).join('|');
  }

  balance(owner: string, asset: string): bigint {
    return this.balances.get(Ledger.k(owner, asset)) ?? 0n;
  }

  credit(owner: string, asset: string, amount: bigint): void {
    this.balances.set(Ledger.k(owner, asset), this.balance(owner, asset) + amount);
  }

  /** Moves `amount`; false (and no change) when the sender holds less. */
  transfer(from: string, to: string, asset: string, amount: bigint): boolean {
    if (amount < 0n || this.balance(from, asset) < amount) return false;
    this.credit(from, asset, -amount);
    this.credit(to, asset, amount);
    return true;
  }

  burn(owner: string, asset: string, amount: bigint): boolean {
    if (this.balance(owner, asset) < amount) return false;
    this.credit(owner, asset, -amount);
    return true;
  }

  allowance(owner: string, token: string, spender: string): bigint {
    return this.allowances.get(Ledger.k(owner, token, spender)) ?? 0n;
  }

  approve(owner: string, token: string, spender: string, amount: bigint): void {
    this.allowances.set(Ledger.k(owner, token, spender), amount);
  }

  isApprovedForAll(owner: string, operator: string): boolean {
    return this.operators.has(Ledger.k(owner, operator));
  }

  setApprovalForAll(owner: string, operator: string, approved: boolean): void {
    if (approved) this.operators.add(Ledger.k(owner, operator));
    else this.operators.delete(Ledger.k(owner, operator));
  }

  /** Every asset an owner holds a non-zero balance of. */
  holdings(owner: string): { asset: string; amount: bigint }[] {
    const prefix = `${owner.toLowerCase()}|`;
    return [...this.balances.entries()]
      .filter(([k, v]) => k.startsWith(prefix) && v !== 0n)
      .map(([k, amount]) => ({ asset: k.slice(prefix.length), amount }));
  }
}
