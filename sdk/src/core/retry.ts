import { AbortError } from './errors.js';

/** Backoff before retry `attempt` (1-based): 0.5 s doubling, capped at 8 s, with jitter in [50%, 100%]. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(8_000, 500 * 2 ** (attempt - 1));
  return Math.round(base * (0.5 + random() * 0.5));
}

/** A sleep the caller's signal can cut short (with AbortError). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortError('The request was aborted', { cause: signal.reason }));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError('The request was aborted', { cause: signal?.reason }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
