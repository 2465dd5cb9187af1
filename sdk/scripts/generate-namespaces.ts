/**
 * Writes `src/namespaces.generated.ts`: one typed interface per contract router, with the route's
 * summary and description as JSDoc on every method (so they reach IDE hovers) and the router's
 * own doc comment on its namespace. `namespaces.test.ts` fails when the file is stale.
 *
 *   pnpm --filter @duelkit/sdk generate
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { enforcedAuth, routeMeta } from '@duelkit/contract';
import prettier from 'prettier';
import ts from 'typescript';
import { namespaces, type Host } from '../src/internal/namespaces.js';
import { paginationOf } from '../src/internal/pagination.js';

const here = dirname(fileURLToPath(import.meta.url));
export const OUTPUT = resolve(here, '../src/namespaces.generated.ts');
const CONTRACT_SRC = resolve(here, '../../contract/src');
const ROOT_ROUTER: Record<Host, { file: string; name: string; type: string }> = {
  markets: { file: 'markets/index.ts', name: 'marketsContract', type: 'Markets' },
  tournaments: { file: 'tournaments/index.ts', name: 'tournamentsContract', type: 'Tournaments' },
};
/** Hand-written helpers a namespace offers besides its routes (interfaces in `src/core`). */
const EXTENSIONS: Record<string, { type: string; from: string }> = {
  auth: { type: 'SessionMethods', from: './core/auth.js' },
};

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function docOf(node: ts.Node): string {
  return ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
    .join('\n')
    .trim();
}

/** The doc comment of each router mounted on a host's root router, read from the contract's source. */
function routerDocs(host: Host): Map<string, string> {
  const root = ROOT_ROUTER[host];
  const indexFile = resolve(CONTRACT_SRC, root.file);
  const index = parse(indexFile);
  const importedFrom = new Map<string, string>();
  for (const stmt of index.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier)) continue;
    const bindings = stmt.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const target = resolve(dirname(indexFile), stmt.moduleSpecifier.text.replace(/\.js$/, '.ts'));
    for (const el of bindings.elements) importedFrom.set(el.name.text, target);
  }
  const docs = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === root.name &&
      node.initializer &&
      ts.isCallExpression(node.initializer)
    ) {
      const routers = node.initializer.arguments[0];
      if (!routers || !ts.isObjectLiteralExpression(routers)) return;
      for (const prop of routers.properties) {
        if (!ts.isPropertyAssignment(prop) || !ts.isIdentifier(prop.initializer)) continue;
        const key = prop.name.getText(index);
        const source = importedFrom.get(prop.initializer.text);
        if (source) docs.set(key, exportedDoc(source, prop.initializer.text));
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(index);
  return docs;
}

function exportedDoc(file: string, name: string): string {
  for (const stmt of parse(file).statements) {
    if (!ts.isVariableStatement(stmt)) continue;
    if (stmt.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name)) {
      return docOf(stmt);
    }
  }
  return '';
}

function comment(lines: string[], indent: string): string {
  const body = lines.flatMap((l) => l.replaceAll('*/', '*\\/').split('\n'));
  return [`${indent}/**`, ...body.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)), `${indent} */`].join('\n');
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?)]$/.test(t) ? t : `${t}.`;
}

function routeDoc(route: AppRoute, host: Host, call: string): string[] {
  const m = routeMeta(route);
  const lines = [sentence(route.summary ?? `${route.method} ${route.path}`)];
  if (route.description) lines.push('', sentence(route.description));
  const facts = [
    `\`${route.method} ${route.path}\` on the ${host} host`,
    `auth: ${enforcedAuth(m)}`,
    `spec §${m.section}`,
  ];
  lines.push('', facts.join(' · '));
  if (m.idempotent) lines.push('', 'The service stores the answer under the Idempotency-Key: a retry replays it.');
  else if (m.repeatable) lines.push('', 'Sending it again has no second effect: the SDK retries it like a read.');
  else if (route.method !== 'GET') {
    lines.push('', 'A one-time sign-in: the SDK resends it only after a 429, never after a timeout or a 5xx.');
  }
  const spec = paginationOf(route);
  if (spec) {
    lines.push(
      '',
      `Paginated (\`${spec.style === 'page' ? 'page' : 'offset'}\` + \`limit\` in the ${spec.location}): await it for one page, ` +
        `or \`for await (const item of ${call}(…))\` to walk the \`${spec.items}\` of every page.`,
    );
  }
  if (route.deprecated) lines.push(`@deprecated ${route.summary ?? 'Legacy route.'}`);
  return lines;
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function routerMembers(router: AppRouter, access: string, host: Host, call: string, indent: string): string[] {
  const out: string[] = [];
  for (const [key, entry] of Object.entries(router)) {
    const path = `${access}['${key}']`;
    if (isAppRoute(entry)) {
      const spec = paginationOf(entry);
      const type = spec ? `PaginatedRouteMethod<${path}, '${spec.items}'>` : `RouteMethod<${path}>`;
      out.push(comment(routeDoc(entry, host, `${call}.${key}`), indent), `${indent}readonly ${key}: ${type};`);
    } else {
      out.push(
        `${indent}readonly ${key}: {`,
        ...routerMembers(entry, path, host, `${call}.${key}`, `${indent}  `),
        `${indent}};`,
      );
    }
  }
  return out;
}

/** The generated file's text, formatted with the repository's Prettier settings. */
export async function renderNamespaces(): Promise<string> {
  const entries = namespaces();
  const docs = { markets: routerDocs('markets'), tournaments: routerDocs('tournaments') };
  const extensions = entries.flatMap((e) => (EXTENSIONS[e.name] ? [EXTENSIONS[e.name]!] : []));
  const parts: string[] = [
    '// Generated by `pnpm --filter @duelkit/sdk generate` from @duelkit/contract: do not edit by hand.',
    '// sdk/scripts/namespaces.test.ts fails when this file is stale.',
    "import type { marketsContract, tournamentsContract } from '@duelkit/contract';",
    ...extensions.map((x) => `import type { ${x.type} } from '${x.from}';`),
    "import type { PaginatedRouteMethod, RouteMethod } from './core/types.js';",
    '',
    'type Markets = typeof marketsContract;',
    'type Tournaments = typeof tournamentsContract;',
  ];
  for (const e of entries) {
    const ext = EXTENSIONS[e.name];
    const doc = docs[e.host].get(e.key) || `Routes of the ${e.host} host's \`${e.key}\` router.`;
    parts.push(
      '',
      comment([doc], ''),
      `export interface ${pascal(e.name)}Namespace${ext ? ` extends ${ext.type}` : ''} {`,
      ...routerMembers(e.router, `${ROOT_ROUTER[e.host].type}['${e.key}']`, e.host, `client.${e.name}`, '  '),
      '}',
    );
  }
  parts.push(
    '',
    '/** The namespaces of `DuelkitClient`, one per contract router; the client binds them at construction. */',
    'export abstract class DuelkitNamespaces {',
  );
  for (const e of entries) {
    const doc = docs[e.host].get(e.key) || `Routes of the ${e.host} host's \`${e.key}\` router.`;
    parts.push(comment([doc], '  '), `  declare readonly ${e.name}: ${pascal(e.name)}Namespace;`);
  }
  parts.push('}', '');
  const options = (await prettier.resolveConfig(OUTPUT)) ?? {};
  return prettier.format(parts.join('\n'), { ...options, filepath: OUTPUT });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(OUTPUT, await renderNamespaces());
  console.log(`wrote ${OUTPUT}`);
}
