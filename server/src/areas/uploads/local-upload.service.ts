import type { LocalUploadVerifier } from '../../adapters/storage/upload-signer.port.js';
import { DomainError } from '../../errors.js';
import type { UploadService } from './upload.service.js';

/**
 * The embedded default's receiving side of a signed upload URL: the URL is the credential, checked
 * by the signer that issued it, then the file is stored by UploadService's rules (type and size).
 */
export class LocalUploadService {
  constructor(
    private readonly verifier: LocalUploadVerifier,
    private readonly uploads: UploadService,
  ) {}

  /** Stores the file sent to a signed local URL and answers its public URL. */
  async receive(
    key: string,
    query: Record<string, unknown>,
    contentType: string | undefined,
    body: Buffer,
  ): Promise<string> {
    const ticket = this.verifier.verify(key, query);
    if ('refused' in ticket) throw new DomainError('SIGNATURE_INVALID', `Upload refused: ${ticket.refused}`);
    return this.uploads.receiveLocal(ticket, contentType, body);
  }
}
