import { z } from 'zod';
import { TimestampSchema } from '../common/primitives.js';

/** Content types an upload URL may be issued for. */
export const UPLOAD_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** Body of POST /svc/user/aws/generate-presigned-url. */
export const PresignedUrlRequestSchema = z
  .object({
    fileName: z
      .string()
      .trim()
      .min(1)
      .max(120)
      .regex(/^[A-Za-z0-9._ -]+$/, 'letters, digits, dot, dash, underscore and space only')
      .describe('Name of the file (kept, sanitised, at the end of the storage key)'),
    contentType: z.enum(UPLOAD_CONTENT_TYPES).describe('The exact Content-Type the upload must send'),
    contentLength: z
      .number()
      .int()
      .min(1)
      .describe(
        'The exact size in bytes the upload must send; at most the server’s limit (`maxBytes`, 5 MiB by default)',
      ),
  })
  .strict();
export type PresignedUrlRequest = z.infer<typeof PresignedUrlRequestSchema>;

export const PresignedUrlSchema = z
  .object({
    uploadUrl: z.string().url().describe('PUT the file here before `expiresAt`'),
    method: z.literal('PUT'),
    headers: z
      .record(z.string(), z.string())
      .describe('Headers the upload must send exactly (the URL’s signature covers them)'),
    key: z.string().describe('Storage key of the object'),
    publicUrl: z.string().url().describe('Where the file is served once uploaded'),
    expiresAt: TimestampSchema,
    maxBytes: z.number().int().describe('The server’s size limit'),
  })
  .strict();
export type PresignedUrl = z.infer<typeof PresignedUrlSchema>;
