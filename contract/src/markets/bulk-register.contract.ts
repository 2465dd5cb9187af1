import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import {
  CheckUserQuerySchema,
  CheckUserResponseSchema,
  RegisterBulkRequestSchema,
  RegisterBulkResponseSchema,
  RegisterSimpleRequestSchema,
  RegisterSimpleResponseSchema,
} from './auth.schemas.js';

const tag = 'Bulk registration';

/** §4.3 builder-level registration of wallets (no user token). */
export const bulkRegisterContract = c.router({
  registerSimple: {
    method: 'POST',
    path: '/svc/user/bulk-register/register-simple',
    body: RegisterSimpleRequestSchema,
    responses: { 201: RegisterSimpleResponseSchema },
    summary: 'Create an account for one wallet address (idempotent per address)',
    metadata: meta(tag, '4.3', 'public', { idempotent: true }),
  },
  registerBulk: {
    method: 'POST',
    path: '/svc/user/bulk-register/register-bulk',
    body: RegisterBulkRequestSchema,
    responses: { 200: RegisterBulkResponseSchema },
    summary: 'Create accounts for up to 200 wallet addresses, with a result per address',
    metadata: meta(tag, '4.3', 'public', { idempotent: true }),
  },
  checkUser: {
    method: 'GET',
    path: '/svc/user/bulk-register/check-user',
    query: CheckUserQuerySchema,
    responses: { 200: CheckUserResponseSchema },
    summary: 'Whether a wallet address has an account in this builder app',
    metadata: meta(tag, '4.3', 'public'),
  },
});
