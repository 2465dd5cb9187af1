/**
 * The wire protocol of the markets host's calls to the tournaments host's internal admin routes,
 * shared by the calling adapter (adapters/tournaments-admin) and the serving router (http/internal),
 * which import nothing of each other.
 */
export const SERVICE_TOKEN_HEADER = 'x-duelkit-service-token';
export const ACTING_ADMIN_HEADER = 'x-duelkit-admin-id';
/** Where the tournaments host serves them. */
export const INTERNAL_ADMIN_PREFIX = '/internal/tournaments-admin';
