import { AbortError } from '../core/errors.js';

/** A sleep the caller's signal cuts short (with AbortError). */
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

/** One signal that fires when any of `signals` does (AbortSignal.any is not in every supported runtime). */
export function anySignal(signals: readonly (AbortSignal | undefined)[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const listeners: [AbortSignal, () => void][] = [];
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) controller.abort(s.reason);
    const on = () => controller.abort(s.reason);
    s.addEventListener('abort', on, { once: true });
    listeners.push([s, on]);
  }
  return {
    signal: controller.signal,
    dispose: () => listeners.forEach(([s, on]) => s.removeEventListener('abort', on)),
  };
}
