import { z } from 'zod';
import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { AddressSchema, TimestampSchema } from '../common/primitives.js';

/** §4.17 tournaments-host sign-in: a markets-host JWT or a wallet credential. */
export const tournamentsAuthContract = c.router({
  check: {
    method: 'GET',
    path: '/user/auth/check',
    responses: {
      200: z
        .object({
          authenticated: z.boolean(),
          address: AddressSchema.optional().describe('Managed address of the signed-in user'),
          method: z.enum(['jwt']).optional(),
        })
        .strict(),
    },
    summary: 'Whether the request carries a valid user token',
    metadata: meta('Tournaments auth', '4.17', 'optional-bearer'),
  },
  login: {
    method: 'POST',
    path: '/user/auth/login',
    body: z.object({}).strict().optional(),
    responses: {
      200: z
        .object({
          authenticated: z.literal(true),
          method: z.enum(['jwt', 'wallet']),
          address: AddressSchema.describe('The managed address (JWT) or the signing wallet (wallet credential)'),
          expiresAt: TimestampSchema.describe('When the presented credential stops being accepted'),
        })
        .strict(),
    },
    summary: 'Verify a markets-host JWT or a wallet credential (x-wallet-* headers; see docs/auth.md)',
    metadata: meta('Tournaments auth', '4.17', 'jwt-or-wallet'),
  },
});
