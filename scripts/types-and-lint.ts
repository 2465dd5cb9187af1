/**
 * `tsc --noEmit` and `eslint .` on one TypeScript program: what `pnpm typecheck` and the ESLint
 * half of `pnpm lint` check, in one process. The typed lint rules ask the checker about the same
 * files the compiler has just checked, so the repository is type-checked once instead of twice
 * (each alone is a full check of about 3,300 files). `pnpm verify` runs this; the two separate
 * commands stay for editing one concern at a time.
 *
 *   node --max-old-space-size=8192 --import tsx scripts/types-and-lint.ts
 */
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = process.cwd();
const configPath = ts.findConfigFile(root, (f) => ts.sys.fileExists(f), 'tsconfig.json');
if (!configPath) throw new Error(`no tsconfig.json in ${root}`);
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
if (!config) throw new Error(`could not read ${configPath}`);

const started = Date.now();
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  ...(config.projectReferences ? { projectReferences: config.projectReferences } : {}),
});
const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
const host: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};
const typeErrors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
if (diagnostics.length > 0) process.stdout.write(ts.formatDiagnostics(diagnostics, host));
console.log(
  `types: ${program.getRootFileNames().length} files, ${typeErrors} error(s) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);

// The configuration's typed files get this program instead of building their own from
// `parserOptions.project`; JavaScript files keep the configuration's untyped parsing.
const linted = Date.now();
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { programs: [program] } } }],
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const report = await formatter.format(results);
if (report) process.stdout.write(report);
const lintErrors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
const warnings = results.reduce((n, r) => n + r.warningCount, 0);
console.log(
  `lint: ${results.length} files, ${lintErrors} error(s), ${warnings} warning(s) in ${((Date.now() - linted) / 1000).toFixed(0)} s`,
);
if (typeErrors > 0 || lintErrors > 0) process.exit(1);
