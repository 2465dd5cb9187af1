import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../test/support/server-process.js';
import { builtServerFile } from '../test/support/test-build.js';

/** `pnpm start` with nothing configured, as a builder runs it: the server on Node, in `cwd`. */
function startByHand(cwd: string, env: Record<string, string> = {}) {
  const entry = [builtServerFile('src/main.ts')];
  // No DUELKIT_DATA_DIR: the default is what is under test.
  return startServerProcess({ LOG_LEVEL: 'info', DUELKIT_DATA_DIR: '', ...env }, { entry, cwd, timeoutMs: 120_000 });
}

const createdKey = (lines: string[]) =>
  lines.map((l) => /created development builder key \(shown once\): (dk_[\w-]+)/.exec(l)?.[1]).find(Boolean);

describe('the embedded defaults of a server started by hand', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'duelkit-by-hand-'));
  // The in-process EVM (hardhat) looks for the project's package.json from the working directory.
  writeFileSync(join(cwd, 'package.json'), '{ "name": "by-hand", "private": true }\n');
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('keep their data in .data under the working directory, so a builder key survives a restart; :memory: keeps nothing', async () => {
    const first = await startByHand(cwd);
    const key = createdKey(first.lines);
    expect(key).toBeDefined();
    expect(first.lines.join('\n')).toContain(join(cwd, '.data'));
    expect(await first.stop('SIGINT')).toBe(0);
    expect(existsSync(join(cwd, '.data', 'secrets.json'))).toBe(true);

    const second = await startByHand(cwd);
    try {
      // The key from the first run still opens the API, and no new one was made.
      expect(createdKey(second.lines)).toBeUndefined();
      const res = await fetch(`${second.tournamentsUrl}/api/parlay/health/ready`, {
        headers: { 'x-builder-api-key': key ?? '' },
      });
      expect(res.status).toBe(200);
    } finally {
      await second.stop();
    }

    const volatile = await startByHand(cwd, { DUELKIT_DATA_DIR: ':memory:' });
    try {
      expect(createdKey(volatile.lines)).toBeDefined();
      expect(volatile.lines.join('\n')).toContain('(memory)');
    } finally {
      await volatile.stop();
    }
  }, 300_000);
});
