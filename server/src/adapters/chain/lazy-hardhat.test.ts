import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../..', import.meta.url));

/** Packages a module imports statically (`import … from`, `export … from`), and its relative imports. */
function staticImports(file: string): { packages: string[]; relative: string[] } {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1] as string);
  const bare = [...text.matchAll(/^\s*import\s+'([^']+)'/gm)].map((m) => m[1] as string);
  const all = [...specs, ...bare];
  return {
    packages: all.filter((s) => !s.startsWith('.')),
    relative: all.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts'))),
  };
}

describe('the production server', () => {
  it('loads hardhat and solc only through a dynamic import on the embedded chain', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const queue = [resolve(src, 'main.ts')];
    while (queue.length) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const { packages: p, relative } = staticImports(file);
      for (const name of p) packages.add(name);
      queue.push(...relative);
    }
    expect(seen.size).toBeGreaterThan(50);
    expect(packages).toContain('viem');
    expect([...packages].filter((p) => /^(hardhat|solc)(\/|$)/.test(p))).toEqual([]);
    expect(readFileSync(resolve(src, 'adapters/chain/embedded-chain.ts'), 'utf8')).toContain(
      "await import('hardhat/hre')",
    );
  });
});
