/** Decimals of every collateral (credits and USDC alike) on the wire: 1 unit = 10^18 base units. */
export const DECIMALS = 18;
const SCALE = 10n ** BigInt(DECIMALS);

/**
 * Whole units as a decimal string to base units: `toBaseUnits('12.5')` is `12500000000000000000n`.
 * Throws `RangeError` for anything but a non-negative decimal with at most 18 fraction digits
 * (never rounds: money is exact).
 */
export function toBaseUnits(units: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(units.trim());
  if (!match) {
    throw new RangeError(`Not an amount in whole units: ${JSON.stringify(units)} (e.g. '12.5', at most 18 decimals)`);
  }
  return BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(DECIMALS, '0'));
}

/** Base units (a bigint or the wire's decimal string) to whole units: `fromBaseUnits('12500000000000000000')` is `'12.5'`. */
export function fromBaseUnits(baseUnits: bigint | string): string {
  const value = typeof baseUnits === 'bigint' ? baseUnits : BigInt(baseUnits);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const fraction = (abs % SCALE).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${abs / SCALE}${fraction ? `.${fraction}` : ''}`;
}
