import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { LocalUploadTicket, LocalUploadVerifier, UploadGrant, UploadSignerPort } from './upload-signer.port.js';

export const LOCAL_UPLOAD_PREFIX = '/uploads/';

/**
 * The embedded default: a URL on the markets host itself (`PUT /uploads/<key>`), signed with an
 * HMAC over the key, type, size and expiry, so the server accepts exactly the file it granted.
 */
export class LocalUploadSigner implements UploadSignerPort, LocalUploadVerifier {
  constructor(
    private readonly secret: string,
    private readonly baseUrl: string,
    private readonly clock: Clock,
  ) {}

  presignPut(grant: UploadGrant) {
    const ticket: LocalUploadTicket = {
      key: grant.key,
      contentType: grant.contentType,
      contentLength: grant.contentLength,
      expires: Math.floor(this.clock.now() / 1000) + grant.expiresInSeconds,
    };
    const base = this.baseUrl.replace(/\/$/, '');
    const path = grant.key.split('/').map(encodeURIComponent).join('/');
    const query = new URLSearchParams({
      ct: ticket.contentType,
      len: String(ticket.contentLength),
      exp: String(ticket.expires),
      sig: this.sign(ticket),
    });
    return Promise.resolve({
      url: `${base}${LOCAL_UPLOAD_PREFIX}${path}?${query.toString()}`,
      headers: { 'content-type': grant.contentType, 'content-length': String(grant.contentLength) },
      publicUrl: `${base}/media/${path}`,
    });
  }

  /** The ticket of a signed URL, or the reason it is refused. */
  verify(key: string, query: Record<string, unknown>): LocalUploadTicket | { refused: string } {
    const { ct, len, exp, sig } = query;
    if (typeof ct !== 'string' || typeof len !== 'string' || typeof exp !== 'string' || typeof sig !== 'string') {
      return { refused: 'the URL is not a signed upload URL' };
    }
    const ticket: LocalUploadTicket = { key, contentType: ct, contentLength: Number(len), expires: Number(exp) };
    const expected = Buffer.from(this.sign(ticket), 'hex');
    const sent = Buffer.from(sig, 'hex');
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return { refused: 'bad signature' };
    if (this.clock.now() / 1000 > ticket.expires) return { refused: 'the upload URL expired' };
    return ticket;
  }

  private sign(t: LocalUploadTicket): string {
    return createHmac('sha256', this.secret)
      .update(`${t.key}\n${t.contentType}\n${t.contentLength}\n${t.expires}`)
      .digest('hex');
  }
}
