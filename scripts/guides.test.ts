/**
 * Every ```ts block of the builder guides (docs/guides/*.md) and of the SDK's README compiles
 * against `@duelkit/sdk` in strict mode, so a guide cannot teach a method, field or option the
 * SDK does not have. The blocks are written to a temporary folder inside examples/ (a workspace
 * package that depends on the SDK and viem, as a builder's project does) and type-checked by one
 * compiler program; only the blocks' own diagnostics are reported. Conventions: CONTRIBUTING.md,
 * "Guides".
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const GUIDES = join(ROOT, 'docs/guides');
const SOURCES = [
  ...readdirSync(GUIDES)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(GUIDES, f)),
  join(ROOT, 'sdk/README.md'),
];

interface Block {
  /** The Markdown file, relative to the repository. */
  source: string;
  /** 1-based line of the block's first code line in the Markdown file. */
  line: number;
  /** Lines put before the code (a `<!-- ts-setup … -->` comment right above the block). */
  setup: string;
  code: string;
}

const FENCE = /^```(ts|typescript)\s*$/;
const SETUP = /<!--\s*ts-setup\s*\n((?:(?!-->)[\s\S])*)-->\s*$/;

/** The ```ts blocks of a Markdown file, each with the hidden setup comment right above it, if any. */
export function extractBlocks(source: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    if (end === lines.length) throw new Error(`${source}:${i + 1}: unclosed code block`);
    const before = lines.slice(0, i).join('\n').replace(/\s+$/, '');
    const setup = SETUP.exec(before)?.[1] ?? '';
    blocks.push({ source, line: start + 1, setup, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** One block as a module: top-level await needs a module, and blocks must not see each other's names. */
function moduleText(block: Block): string {
  return `${block.setup}${block.code}\nexport {};\n`;
}

/** A block that must not compile: proof that the check reports what a block gets wrong. */
const CANARY: Block = {
  source: 'canary',
  line: 1,
  setup: '',
  code: [
    "import type { DuelkitClient } from '@duelkit/sdk';",
    'declare const client: DuelkitClient;',
    "await client.trade.sell({ duelId: '0x', option: 'YES', amount: '1' });",
    "const { bet } = await client.trade.buy({ duelId: '0x', option: 'YES', amount: '1' });",
    'console.log(bet.sharesOut);',
  ].join('\n'),
};

interface Finding {
  where: string;
  message: string;
}

let workDir = '';
let findings = new Map<Block, Finding[]>();
const blocks = SOURCES.flatMap((file) => extractBlocks(relative(ROOT, file), readFileSync(file, 'utf8')));

function compilerOptions(): ts.CompilerOptions {
  const base = join(ROOT, 'tsconfig.base.json');
  const read = ts.readConfigFile(base, (p) => ts.sys.readFile(p));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, undefined, base);
  // The repository's strict settings, as a builder's strict project would have them.
  return { ...parsed.options, noEmit: true, strict: true, skipLibCheck: true };
}

beforeAll(() => {
  const examples = join(ROOT, 'examples');
  workDir = mkdtempSync(join(examples, '.guides-check-'));
  const files = new Map<string, Block>();
  [...blocks, CANARY].forEach((block, n) => {
    const name = `${String(n).padStart(3, '0')}-${block.source.replace(/[^A-Za-z0-9]+/g, '-')}-${block.line}.ts`;
    const path = join(workDir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, moduleText(block));
    files.set(resolve(path), block);
  });
  const program = ts.createProgram([...files.keys()], compilerOptions());
  findings = new Map([...files.values()].map((b) => [b, []]));
  for (const sf of program.getSourceFiles()) {
    const block = files.get(resolve(sf.fileName));
    if (!block) continue;
    const setupLines = block.setup === '' ? 0 : block.setup.split('\n').length - 1;
    const diagnostics = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    for (const d of diagnostics) {
      const at = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line;
      const where =
        at < setupLines
          ? `${block.source}:${block.line - 1} (ts-setup)`
          : `${block.source}:${block.line + at - setupLines}`;
      findings.get(block)!.push({ where, message: ts.flattenDiagnosticMessageText(d.messageText, '\n') });
    }
  }
}, 180_000);

afterAll(() => {
  if (workDir && existsSync(workDir)) rmSync(workDir, { recursive: true, force: true });
});

describe('code blocks of the guides', () => {
  it('finds blocks in every guide with code and in the SDK README', () => {
    const withBlocks = new Set(blocks.map((b) => b.source));
    expect(withBlocks).toContain('sdk/README.md');
    expect(blocks.length).toBeGreaterThan(20);
  });

  it('reports a method or field the SDK does not have (the check is not vacuous)', () => {
    const messages = (findings.get(CANARY) ?? []).map((f) => f.message).join('\n');
    expect(messages).toMatch(/Property 'sell' does not exist/);
    expect(messages).toMatch(/Property 'sharesOut' does not exist/);
  });

  for (const source of [...new Set(blocks.map((b) => b.source))]) {
    it(`every ts block of ${source} compiles against @duelkit/sdk`, () => {
      const problems = blocks
        .filter((b) => b.source === source)
        .flatMap((b) => findings.get(b) ?? [])
        .map((f) => `${f.where}: ${f.message}`);
      expect(problems).toEqual([]);
    });
  }
});

describe('links of the guides', () => {
  for (const file of SOURCES.filter((f) => f.startsWith(GUIDES))) {
    it(`every relative link of ${relative(ROOT, file)} names a file that exists`, () => {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith('#'))
        .filter((href) => !existsSync(resolve(dirname(file), decodeURI(href.split('#')[0]!))));
      expect(broken).toEqual([]);
    });
  }

  it('the index lists every guide', () => {
    const index = readFileSync(join(GUIDES, 'README.md'), 'utf8');
    const missing = readdirSync(GUIDES)
      .filter((f) => f.endsWith('.md') && f !== 'README.md')
      .filter((f) => !index.includes(`](${f})`));
    expect(missing).toEqual([]);
  });
});
