import { vi, type Mocked } from 'vitest';

/**
 * A repository of type `T` whose every method is a `vi.fn()` (made on first access), for the
 * services' unit tests: give the methods a test needs an implementation, and any other call fails
 * the test (it answers undefined where a promise is awaited).
 *
 * @example
 * const repo = repositoryMock<DuelRepository>();
 * repo.insertPending.mockResolvedValue(undefined);
 */
export function repositoryMock<T extends object>(): Mocked<T> {
  const fns = new Map<PropertyKey, ReturnType<typeof vi.fn>>();
  return new Proxy({} as Mocked<T>, {
    get(_target, prop) {
      if (prop === 'then') return undefined; // not a thenable
      let fn = fns.get(prop);
      if (!fn) {
        fn = vi.fn();
        fns.set(prop, fn);
      }
      return fn;
    },
  });
}
