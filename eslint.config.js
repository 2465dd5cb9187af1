// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '.test-build*/**',
      '**/node_modules/**',
      'docs/**',
      'server/src/adapters/chain/artifacts/**',
      'coverage/**',
      'sdk/test/api-parity.generated.ts',
      // The guides test's generated files, there only while it runs (scripts/guides.test.ts).
      'examples/.guides-check-*/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // One program for the whole repository (the root tsconfig includes every package): per-package
      // programs would each type-check the contract again.
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', '**/bench/**/*.ts', '**/scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  // Domain code reads time only from an injected Clock (platform/clock.ts), so tests can move it.
  {
    files: ['server/src/areas/**/*.ts', 'server/src/platform/**/*.ts'],
    ignores: ['server/src/platform/clock.ts', '**/*.test.ts', '**/*.test-kit.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Read time from the injected Clock (platform/clock.ts).' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read time from the injected Clock: new Date(clock.now()).',
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  // CommonJS configuration files (dependency-cruiser's).
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);
