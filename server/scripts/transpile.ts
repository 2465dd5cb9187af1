/**
 * Turns a tree of TypeScript modules into the same tree of JavaScript modules, file for file, with
 * esbuild: no bundling, so `import.meta.url` and every relative path mean what they mean in the
 * source. Types are not checked here (`pnpm typecheck` does that); the source is written for it
 * (`isolatedModules`, `verbatimModuleSyntax`, no decorators), so each file compiles on its own.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { build } from 'esbuild';

export interface TranspileOptions {
  /** The folder to read and the folder to write, mirrored. */
  readonly from: string;
  readonly to: string;
  /** A file (path relative to `from`, with `/`) is left out when this says so. */
  readonly skip?: (path: string) => boolean;
  /** Rewrites a bare import specifier for the output file at `outFile` (e.g. to a relative path). */
  readonly rewrite?: (specifier: string, outFile: string) => string | undefined;
}

/** Every `.ts` file under `dir`, as paths relative to it with `/` separators. */
export function typescriptFiles(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typescriptFiles(dir, path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Matches `from "x"`, `import "x"`, `import("x")` and `export … from "x"` in esbuild's output. */
const SPECIFIER = /((?:\bfrom|\bimport)\s*\(?\s*)"([^"./][^"]*)"/g;

export async function transpile(options: TranspileOptions): Promise<number> {
  const files = typescriptFiles(options.from).filter((f) => !options.skip?.(f));
  const result = await build({
    entryPoints: files.map((f) => join(options.from, f)),
    outbase: options.from,
    outdir: options.to,
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
  });
  for (const out of result.outputFiles) {
    mkdirSync(dirname(out.path), { recursive: true });
    let text = out.text;
    if (options.rewrite && out.path.endsWith('.js')) {
      const rewrite = options.rewrite;
      text = text.replace(SPECIFIER, (whole, head: string, spec: string) => {
        const to = rewrite(spec, out.path);
        return to === undefined ? whole : `${head}"${to}"`;
      });
    }
    writeFileSync(out.path, text);
  }
  return files.length;
}

/** `to` relative to the folder of `fromFile`, as an import specifier (`./…` or `../…`). */
export function relativeSpecifier(fromFile: string, to: string): string {
  const path = relative(dirname(fromFile), to).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}
