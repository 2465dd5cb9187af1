import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { SignatureResponseSchema, SignMessageRequestSchema, SignTypedDataRequestSchema } from './auth.schemas.js';

/** §4.2 signing with the caller's managed wallet. */
export const walletContract = c.router({
  sign: {
    method: 'POST',
    path: '/svc/user/wallet/sign',
    body: SignMessageRequestSchema,
    responses: { 200: SignatureResponseSchema },
    summary: 'Sign a personal message (EIP-191) with the managed wallet',
    metadata: meta('Wallet', '4.2', 'bearer', { repeatable: true }),
  },
  signTypedData: {
    method: 'POST',
    path: '/svc/user/wallet/sign-typed-data',
    body: SignTypedDataRequestSchema,
    responses: { 200: SignatureResponseSchema },
    summary: 'Sign EIP-712 typed data with the managed wallet',
    metadata: meta('Wallet', '4.2', 'bearer', { repeatable: true }),
  },
});
