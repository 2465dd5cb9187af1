/** A request to upload one object of a known type and size. */
export interface UploadGrant {
  readonly key: string;
  readonly contentType: string;
  readonly contentLength: number;
  readonly expiresInSeconds: number;
}

/** Signs URLs a client uploads to directly; the signature binds the type and the size. */
export interface UploadSignerPort {
  presignPut(grant: UploadGrant): Promise<{ url: string; headers: Record<string, string>; publicUrl: string }>;
}

/** What a signed local upload URL carries, checked by the markets host when the file arrives. */
export interface LocalUploadTicket {
  readonly key: string;
  readonly contentType: string;
  readonly contentLength: number;
  /** Unix seconds. */
  readonly expires: number;
}

/** The embedded default's side that receives the file: checks a signed URL it issued. */
export interface LocalUploadVerifier {
  /** The ticket of a signed URL, or the reason it is refused. */
  verify(key: string, query: Record<string, unknown>): LocalUploadTicket | { refused: string };
}
