import { initContract, type AppRouter, type RouterOptions } from '@ts-rest/core';

type ContractBuilder = ReturnType<typeof initContract>;

/** The one ts-rest contract builder every area file uses. */
export const c: ContractBuilder = initContract();

/**
 * What `c.router(routers, options)` returns, as a named type: a root router annotated with it is
 * written into declaration files by reference to its area routers instead of spelled out.
 */
export type RouterOf<TRouters extends AppRouter, TOptions extends RouterOptions> = ReturnType<
  typeof c.router<TRouters, string, TOptions>
>;
