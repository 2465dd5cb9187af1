/** One buy or sell of one address, in chain order. */
export interface ReplayTrade {
  readonly duelId: string;
  readonly optionIndex: number;
  readonly side: 'buy' | 'sell';
  readonly collateral: bigint;
  readonly shares: bigint;
  readonly at: Date;
}

/** How a finished market ended, and when its result is booked. */
export interface ReplayOutcome {
  readonly duelId: string;
  readonly status: 'settled' | 'cancelled';
  readonly winningOptionIndex: number | null;
  readonly at: Date;
}

/** A change of realized profit and loss at a point in time. */
export interface RealizedEvent {
  readonly at: Date;
  readonly amount: bigint;
}

/**
 * Replays an address's trades with the indexer's average-cost rule (a sale removes the sold
 * fraction of the cost basis, rounded down) and yields every realized PnL event: each sale
 * realizes `return − basis removed`; a settled market realizes `winning shares − basis held`; a
 * cancelled market refunds the basis held, which realizes nothing.
 */
export function realizedEvents(trades: readonly ReplayTrade[], outcomes: readonly ReplayOutcome[]): RealizedEvent[] {
  const held = new Map<string, { duelId: string; optionIndex: number; shares: bigint; cost: bigint }>();
  const events: RealizedEvent[] = [];
  for (const t of trades) {
    const key = `${t.duelId}:${t.optionIndex}`;
    const h = held.get(key) ?? { duelId: t.duelId, optionIndex: t.optionIndex, shares: 0n, cost: 0n };
    held.set(key, h);
    if (t.side === 'buy') {
      h.shares += t.shares;
      h.cost += t.collateral;
      continue;
    }
    const removed = h.shares === 0n ? 0n : (h.cost * t.shares) / h.shares;
    h.shares -= t.shares;
    h.cost -= removed;
    events.push({ at: t.at, amount: t.collateral - removed });
  }
  for (const o of outcomes) {
    if (o.status === 'cancelled') continue;
    let amount = 0n;
    for (const h of held.values()) {
      if (h.duelId !== o.duelId) continue;
      amount += (h.optionIndex === o.winningOptionIndex ? h.shares : 0n) - h.cost;
    }
    events.push({ at: o.at, amount });
  }
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** Cumulative sum of `events` at the end of each bucket starting at `starts` (each `seconds` wide). */
export function cumulativeAt(events: readonly RealizedEvent[], starts: readonly Date[], seconds: number): bigint[] {
  const out: bigint[] = [];
  let i = 0;
  let sum = 0n;
  for (const start of starts) {
    const end = start.getTime() + seconds * 1000;
    while (i < events.length && (events[i] as RealizedEvent).at.getTime() < end) {
      sum += (events[i] as RealizedEvent).amount;
      i++;
    }
    out.push(sum);
  }
  return out;
}
