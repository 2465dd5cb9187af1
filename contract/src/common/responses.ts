import { ApiErrorSchema } from './errors.js';

/**
 * Error responses every route can return. The body is always {@link ApiErrorSchema}; the codes
 * each status carries are listed in the ERROR_STATUS table.
 */
export const commonResponses = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
  413: ApiErrorSchema,
  415: ApiErrorSchema,
  422: ApiErrorSchema,
  429: ApiErrorSchema,
  500: ApiErrorSchema,
  503: ApiErrorSchema,
} as const;
