import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ARTIFACT_NAMES, artifactModule, compileContracts } from '../src/adapters/chain/compile.js';

const outDir = fileURLToPath(new URL('../src/adapters/chain/artifacts', import.meta.url));
mkdirSync(outDir, { recursive: true });
for (const [name, artifact] of Object.entries(compileContracts())) {
  if (!(ARTIFACT_NAMES as readonly string[]).includes(name)) continue;
  writeFileSync(`${outDir}/${name}.ts`, artifactModule(name, artifact));
  console.log(`wrote ${name} (${(artifact.bytecode.length - 2) / 2} bytes)`);
}
