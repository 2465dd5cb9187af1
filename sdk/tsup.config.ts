import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2020',
  platform: 'neutral',
  // Self-contained: the contract's schemas and routes, ts-rest's helpers and the zod 3 the contract
  // is written in are bundled, so an application installs one package whatever zod it uses itself.
  // The published declarations are the generated plain types (src/api.generated.ts), which name
  // none of the three.
  noExternal: ['@duelkit/contract', '@ts-rest/core', 'zod'],
  esbuildOptions(options) {
    // Build the contract from its TypeScript source, as the workspace does.
    options.conditions = ['duelkit-source', 'module', 'import', 'default'];
  },
});
