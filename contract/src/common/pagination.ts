import { z } from 'zod';

/**
 * The deepest page a list serves. With 100 rows a page that is a million rows in: far past any
 * real listing, and small enough that no offset ever leaves the database's integer range.
 */
export const MAX_PAGE = 10_000;

/** Largest page size of any list. */
export const MAX_PAGE_SIZE = 100;

/** Query parameters shared by every paginated list. */
export const PaginationQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1).describe(`1-based page index, at most ${MAX_PAGE}`),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20).describe('Page size, at most 100'),
});
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;

/** Pagination block of a list envelope. */
export const PaginationSchema = z
  .object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    total: z.number().int().min(0),
    hasMore: z.boolean(),
  })
  .strict();
export type Pagination = z.infer<typeof PaginationSchema>;

/** `{ data, pagination }` envelope for a list of `item`. */
export function paginated<T extends z.ZodTypeAny>(item: T) {
  return z.object({ data: z.array(item), pagination: PaginationSchema }).strict();
}
