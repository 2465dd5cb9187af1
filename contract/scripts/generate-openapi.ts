import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDocuments, serialise } from './openapi.js';

const outDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/openapi');
for (const [host, doc] of Object.entries(generateDocuments())) {
  const file = resolve(outDir, `${host}.json`);
  writeFileSync(file, serialise(doc));
  console.log(`wrote ${file} (${Object.keys(doc.paths).length} paths)`);
}
