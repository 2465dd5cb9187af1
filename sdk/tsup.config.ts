import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2020',
  platform: 'neutral',
  // The contract is a dependency of the published SDK, like zod and ts-rest.
  external: ['zod', '@ts-rest/core', '@duelkit/contract'],
});
