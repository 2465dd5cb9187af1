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
