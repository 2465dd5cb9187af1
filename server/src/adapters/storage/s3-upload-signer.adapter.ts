import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { UploadGrant, UploadSignerPort } from './upload-signer.port.js';

/** S3 presigned PUTs: Content-Type and Content-Length are signed headers, so S3 refuses any other. */
export class S3UploadSigner implements UploadSignerPort {
  private readonly client: S3Client;

  constructor(
    private readonly bucket: string,
    region: string,
    endpoint: string | undefined,
    private readonly publicBaseUrl: string,
  ) {
    this.client = new S3Client({ region, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
  }

  async presignPut(grant: UploadGrant) {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: grant.key,
      ContentType: grant.contentType,
      ContentLength: grant.contentLength,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: grant.expiresInSeconds,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    return {
      url,
      headers: { 'content-type': grant.contentType, 'content-length': String(grant.contentLength) },
      publicUrl: `${this.publicBaseUrl.replace(/\/$/, '')}/${grant.key}`,
    };
  }
}
