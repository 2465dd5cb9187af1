import type { CircuitState, IBreaker } from 'cockatiel';

/**
 * Opens after `threshold` failures within a sliding `windowMs` (cockatiel's own breakers count
 * consecutive failures or sample proportions; the spec counts 429s in a 30 s window).
 */
export class SlidingWindowBreaker implements IBreaker {
  state: number[] = [];

  constructor(
    private readonly threshold: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  success(_state: CircuitState): void {
    // Successes do not forgive earlier 429s: only time does.
  }

  failure(_state: CircuitState): boolean {
    const now = this.now();
    this.state = [...this.state.filter((t) => now - t < this.windowMs), now];
    if (this.state.length >= this.threshold) {
      this.state = [];
      return true;
    }
    return false;
  }
}
