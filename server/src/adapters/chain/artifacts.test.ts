import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARTIFACT_NAMES, artifactModule, compileContracts } from './compile.js';

describe('contract artifacts', () => {
  it('are current: run `pnpm contracts:build` when this fails', () => {
    const compiled = compileContracts();
    for (const name of ARTIFACT_NAMES) {
      const committed = readFileSync(new URL(`./artifacts/${name}.ts`, import.meta.url), 'utf8');
      expect(committed, name).toBe(artifactModule(name, compiled[name] as NonNullable<(typeof compiled)[string]>));
    }
  }, 60_000);
});
