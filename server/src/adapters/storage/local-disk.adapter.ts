import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { StoragePort } from './storage.port.js';

/** Files on local disk, served by the markets host under /media (embedded defaults). */
export class LocalDiskStorage implements StoragePort {
  constructor(
    readonly root: string,
    private readonly publicBaseUrl: string,
  ) {}

  async put(key: string, body: Buffer): Promise<string> {
    const file = resolve(this.root, key);
    if (!file.startsWith(resolve(this.root))) throw new Error('storage key escapes the root');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, body);
    return `${this.publicBaseUrl.replace(/\/$/, '')}/media/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  pathOf(key: string): string {
    return join(this.root, key);
  }
}
