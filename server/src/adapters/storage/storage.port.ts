/** Where uploaded files live; returns the public URL of what it stored. */
export interface StoragePort {
  put(key: string, body: Buffer, contentType: string): Promise<string>;
}
