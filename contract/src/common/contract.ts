import { initContract } from '@ts-rest/core';

type ContractBuilder = ReturnType<typeof initContract>;

/** The one ts-rest contract builder every area file uses. */
export const c: ContractBuilder = initContract();
