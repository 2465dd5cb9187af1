import { z } from 'zod';

/** Query parameters shared by every paginated list. */
export const PaginationQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('1-based page index'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, at most 100'),
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
