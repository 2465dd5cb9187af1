/**
 * `pnpm verify`'s type check and lint in one process, on one TypeScript program: the compiler's
 * diagnostics for the root tsconfig (what `pnpm typecheck` reports), then ESLint with that same
 * program handed to typescript-eslint (what `pnpm lint` reports before its boundaries step), so
 * the repository is parsed and type-checked once instead of twice.
 *
 *   tsx scripts/types-and-lint.ts
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = fileURLToPath(new URL('../', import.meta.url));
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

const configPath = ts.findConfigFile(root, (f) => ts.sys.fileExists(f), 'tsconfig.json');
if (!configPath) throw new Error('no tsconfig.json at the repository root');
const config = ts.getParsedCommandLineOfConfigFile(
  configPath,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
if (!config) throw new Error(`cannot read ${configPath}`);
const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });

const diagnostics = ts.getPreEmitDiagnostics(program);
const host: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};
if (diagnostics.length) process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
console.log(`types: ${diagnostics.length} error(s) in ${elapsed()}`);

const eslint = new ESLint({
  cwd: root,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { programs: [program] } } }],
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const report = await formatter.format(results);
if (report) process.stdout.write(report);
const lintErrors = results.reduce((n, r) => n + r.errorCount, 0);
console.log(`lint: ${lintErrors} error(s), ${results.length} files in ${elapsed()}`);

process.exit(diagnostics.length || lintErrors ? 1 : 0);
