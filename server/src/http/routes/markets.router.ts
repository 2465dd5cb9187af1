import { initServer } from '@ts-rest/express';
import { marketsContract } from '@duelkit/contract';
import type { Container } from '../../container.js';

const s = initServer();

/** Implementation of every markets-host route: one line per area. */
export function marketsRouter(_c: Container) {
  return s.router(marketsContract, {});
}
