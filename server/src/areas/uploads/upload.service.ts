import { randomUUID } from 'node:crypto';
import type { PresignedUrl, PresignedUrlRequest } from '@duelkit/contract';
import type { LocalUploadTicket, UploadSignerPort } from '../../adapters/storage/upload-signer.port.js';
import type { StoragePort } from '../../adapters/storage/storage.port.js';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../errors.js';

export interface UploadLimits {
  /** Largest file an upload URL is issued for, bytes. */
  readonly maxBytes: number;
  /** How long an upload URL stays valid, seconds. */
  readonly ttlSeconds: number;
}

/** Presigned upload URLs (§4.5; docs/money.md): one object of a declared type and size per URL. */
export class UploadService {
  constructor(
    private readonly signer: UploadSignerPort,
    private readonly storage: StoragePort,
    private readonly clock: Clock,
    private readonly limits: UploadLimits,
  ) {}

  async presign(caller: { userId: string }, body: PresignedUrlRequest): Promise<PresignedUrl> {
    if (body.contentLength > this.limits.maxBytes) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `Uploads are limited to ${this.limits.maxBytes} bytes`, {
        details: { maxBytes: this.limits.maxBytes, contentLength: body.contentLength },
      });
    }
    const name = body.fileName.replace(/\s+/g, '-').toLowerCase();
    const key = `uploads/${caller.userId}/${randomUUID()}-${name}`;
    const signed = await this.signer.presignPut({
      key,
      contentType: body.contentType,
      contentLength: body.contentLength,
      expiresInSeconds: this.limits.ttlSeconds,
    });
    return {
      uploadUrl: signed.url,
      method: 'PUT',
      headers: signed.headers,
      key,
      publicUrl: signed.publicUrl,
      expiresAt: new Date(this.clock.now() + this.limits.ttlSeconds * 1000).toISOString(),
      maxBytes: this.limits.maxBytes,
    };
  }

  /** The embedded default's receiving end: stores exactly the file a local upload URL granted. */
  async receiveLocal(ticket: LocalUploadTicket, contentType: string | undefined, body: Buffer): Promise<string> {
    if (contentType !== ticket.contentType) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `This URL accepts ${ticket.contentType} only`, {
        details: { expected: ticket.contentType },
      });
    }
    if (body.length !== ticket.contentLength) {
      throw new DomainError('VALIDATION_FAILED', `This URL accepts exactly ${ticket.contentLength} bytes`, {
        details: { expected: ticket.contentLength, received: body.length },
      });
    }
    return this.storage.put(ticket.key, body, ticket.contentType);
  }
}
