import { DomainError } from '../../errors.js';
import type { DuelSortBy } from './duel.repository.js';

/**
 * A keyset position in a duel list: the sort key and id of the last row of a page, for one sort
 * and order, and the number of the page it leads to. Sort keys are exact: timestamps in
 * microseconds since the epoch (PostgreSQL's precision), volumes as their integer text; null is
 * a duel without a volume (ranked last descending, first ascending).
 */
export interface DuelCursor {
  readonly sortBy: DuelSortBy;
  readonly sortOrder: 'asc' | 'desc';
  readonly key: string | null;
  readonly id: string;
  readonly page: number;
}

const SORTS: readonly DuelSortBy[] = ['createdAt', 'startTime', 'endTime', 'extMarketVolume24h'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Microseconds since the epoch, within PostgreSQL's timestamptz range. */
const MICROS = /^-?\d{1,17}$/;
const VOLUME = /^-?\d{1,78}$/;

function invalid(): DomainError {
  return new DomainError(
    'CURSOR_INVALID',
    'This cursor was not issued for this list; start again from the first page',
    {
      fieldErrors: { 'query.cursor': ['is not a cursor of this list'] },
    },
  );
}

/** The opaque text of a cursor (base64url of a small JSON array). */
export function encodeDuelCursor(cursor: DuelCursor): string {
  const order = cursor.sortOrder === 'asc' ? 1 : 0;
  const json = JSON.stringify([1, SORTS.indexOf(cursor.sortBy), order, cursor.key, cursor.id, cursor.page]);
  return Buffer.from(json, 'utf8').toString('base64url');
}

/**
 * The position a cursor names, refused with CURSOR_INVALID when it is not one this service
 * issued or was issued for another sort or order. Every part is checked before it reaches SQL.
 */
export function decodeDuelCursor(text: string, sortBy: DuelSortBy, sortOrder: 'asc' | 'desc'): DuelCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 6) throw invalid();
  const [version, sortIndex, order, key, id, page] = parsed as unknown[];
  if (version !== 1 || SORTS[sortIndex as number] !== sortBy || order !== (sortOrder === 'asc' ? 1 : 0))
    throw invalid();
  if (typeof id !== 'string' || !UUID.test(id)) throw invalid();
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 2 || page > 1_000_000) throw invalid();
  const pattern = sortBy === 'extMarketVolume24h' ? VOLUME : MICROS;
  if (key === null ? sortBy !== 'extMarketVolume24h' : typeof key !== 'string' || !pattern.test(key)) throw invalid();
  return { sortBy, sortOrder, key: key as string | null, id, page };
}
