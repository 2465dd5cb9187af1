import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Manifest } from './migration.archive.js';

/**
 * Archives on local disk: `<dir>/<archiveId>/manifest.json` and one `<table>.ndjson` per table.
 * Moving a deployment's data is copying that folder into the other deployment's directory.
 */
export class ArchiveStore {
  constructor(private readonly dir: string) {}

  private path(archiveId: string, file = ''): string {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(archiveId) || (file && !/^[a-z_]+\.(ndjson|json)$/.test(file))) {
      throw new Error('bad archive path');
    }
    return join(this.dir, archiveId, file);
  }

  exists(archiveId: string): boolean {
    return existsSync(this.path(archiveId, 'manifest.json'));
  }

  /** Writes JSON lines from `rows` (objects with a `j` text field); their count and SHA-256. */
  async writeTable(archiveId: string, table: string, rows: Readable): Promise<{ rows: number; sha256: string }> {
    mkdirSync(this.path(archiveId), { recursive: true });
    const out = createWriteStream(this.path(archiveId, `${table}.ndjson`));
    const hash = createHash('sha256');
    let count = 0;
    for await (const row of rows as AsyncIterable<{ j: string }>) {
      const line = `${row.j}\n`;
      hash.update(line);
      count++;
      if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    out.end();
    await finished(out);
    return { rows: count, sha256: hash.digest('hex') };
  }

  writeManifest(archiveId: string, manifest: Manifest): void {
    writeFileSync(this.path(archiveId, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }

  readManifest(archiveId: string): unknown {
    return JSON.parse(readFileSync(this.path(archiveId, 'manifest.json'), 'utf8'));
  }

  /** A table file's line count and SHA-256 as it is on disk now. */
  async measure(archiveId: string, file: string): Promise<{ rows: number; sha256: string } | undefined> {
    const path = this.path(archiveId, file);
    if (!existsSync(path)) return undefined;
    const hash = createHash('sha256');
    let rows = 0;
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      for (const byte of chunk as Buffer) if (byte === 10) rows++;
    }
    return { rows, sha256: hash.digest('hex') };
  }

  /** A table file's lines in batches. */
  async *lines(archiveId: string, file: string, batch = 500): AsyncIterable<string[]> {
    const reader = createInterface({ input: createReadStream(this.path(archiveId, file)), crlfDelay: Infinity });
    let out: string[] = [];
    for await (const line of reader) {
      if (!line) continue;
      out.push(line);
      if (out.length >= batch) {
        yield out;
        out = [];
      }
    }
    if (out.length) yield out;
  }
}
