import { c } from '../common/contract.js';
import { meta } from '../common/route-meta.js';
import { PresignedUrlRequestSchema, PresignedUrlSchema } from './uploads.schemas.js';

/** §4.5 upload URLs for object storage. */
export const uploadsContract = c.router({
  presignedUrl: {
    method: 'POST',
    path: '/svc/user/aws/generate-presigned-url',
    body: PresignedUrlRequestSchema,
    responses: { 201: PresignedUrlSchema },
    summary: 'A signed, expiring URL to PUT one image of a declared type and size to object storage',
    description:
      'The URL is bound to the content type and exact size declared here (the storage refuses a different one) and ' +
      'expires after 5 minutes by default. With STORAGE_DRIVER=s3 it is an S3 presigned PUT; on the embedded default ' +
      'the markets host serves it itself. VALIDATION_FAILED for another type; PAYLOAD_TOO_LARGE (413) above the ' +
      'size limit (`details.maxBytes`). Limits: docs/money.md.',
    // Issuing another URL has no effect of its own: a client may retry freely.
    metadata: meta('Uploads', '4.5', 'bearer', { repeatable: true }),
  },
});
