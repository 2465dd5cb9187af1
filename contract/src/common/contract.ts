import { initContract } from '@ts-rest/core';

/** The one ts-rest contract builder every area file uses. */
export const c = initContract();
