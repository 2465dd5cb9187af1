/**
 * Writes the SDK's public types from the contract:
 *
 * - `src/api.generated.ts`: plain TypeScript for what every route takes and answers (one
 *   `…Input` interface and one `…Output` type per route), the contract's named schemas (`Duel`,
 *   `User`, `BuyEstimate`, …) and its error codes. Declarations, not zod or ts-rest generics, so
 *   a project that imports the SDK type-checks in about a second.
 * - `src/namespaces.generated.ts`: one interface per contract router, with the route's summary
 *   and description as JSDoc on every method (so they reach IDE hovers) and the router's own doc
 *   comment on its namespace.
 *
 * `namespaces.test.ts` fails when either file is stale.
 *
 *   pnpm --filter @duelkit/sdk generate
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { ErrorCodeSchema, FieldErrorsSchema, JsonValueSchema, namedSchemas, routeMeta } from '@duelkit/contract';
import prettier from 'prettier';
import { z } from 'zod';
import ts from 'typescript';
import { namespaces, type Host } from '../src/internal/namespaces.js';
import { paginationOf } from '../src/internal/pagination.js';
import { createEmitter, type Emitter } from './zod-to-ts.js';

const here = dirname(fileURLToPath(import.meta.url));
export const OUTPUT = resolve(here, '../src/namespaces.generated.ts');
export const API_OUTPUT = resolve(here, '../src/api.generated.ts');
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
  const facts = [`\`${route.method} ${route.path}\` on the ${host} host`, `auth: ${m.auth}`, `spec §${m.section}`];
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

/** Zod schemas of a route's parts, as ts-rest keeps them (a `c.type<…>()` or `c.noBody()` is not one). */
function zodOf(value: unknown): z.ZodTypeAny | undefined {
  return value instanceof z.ZodType ? value : undefined;
}

interface Collected {
  emitter: Emitter;
  /** Declarations of the routes' input and output types. */
  routes: string[];
}

/** Declares `<Name>Input` (when the route takes anything) and `<Name>Output`; answers the method's type. */
function routeTypes(route: AppRoute, name: string, out: Collected): string {
  const { emitter } = out;
  const parts: string[] = [];
  const params = zodOf(route.pathParams);
  const query = zodOf(route.query);
  const body = route.method === 'GET' ? undefined : zodOf((route as { body?: unknown }).body);
  if (params) parts.push(`  params: ${emitter.type(params, 'input', '  ')};`);
  if (query) parts.push(`  query: ${emitter.type(query, 'input', '  ')};`);
  if (body) parts.push(`  body: ${emitter.type(body, 'input', '  ')};`);
  const label = `\`${route.method} ${route.path}\``;
  if (parts.length > 0) {
    out.routes.push(`/** What ${label} takes. */\nexport interface ${name}Input {\n${parts.join('\n')}\n}`);
  }
  const responses = route.responses as Record<string, unknown>;
  const success = ['200', '201', '202'].filter((s) => s in responses);
  const outputs = success.map((s) => {
    const schema = zodOf(responses[s]);
    return schema ? emitter.type(schema, 'output') : 'unknown';
  });
  out.routes.push(
    `/** What ${label} answers on success, read leniently: enums also admit values added later. */\n` +
      `export type ${name}Output = ${outputs.length > 0 ? [...new Set(outputs)].join(' | ') : 'unknown'};`,
  );
  const input = parts.length > 0 ? `${name}Input` : 'void';
  const spec = paginationOf(route);
  return spec
    ? `PaginatedMethod<${input}, ${name}Output, ${name}Output['${spec.items}'][number]>`
    : `Method<${input}, ${name}Output>`;
}

function routerMembers(
  router: AppRouter,
  typeName: string,
  host: Host,
  call: string,
  indent: string,
  out: Collected,
): string[] {
  const members: string[] = [];
  for (const [key, entry] of Object.entries(router)) {
    const name = `${typeName}${pascal(key)}`;
    if (isAppRoute(entry)) {
      members.push(
        comment(routeDoc(entry, host, `${call}.${key}`), indent),
        `${indent}readonly ${key}: ${routeTypes(entry, name, out)};`,
      );
    } else {
      members.push(
        `${indent}readonly ${key}: {`,
        ...routerMembers(entry, name, host, `${call}.${key}`, `${indent}  `, out),
        `${indent}};`,
      );
    }
  }
  return members;
}

const HEADER = [
  '// Generated by `pnpm --filter @duelkit/sdk generate` from @duelkit/contract: do not edit by hand.',
  '// sdk/scripts/namespaces.test.ts fails when this file is stale.',
];

async function format(text: string, file: string): Promise<string> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}

/** Both generated files' text, formatted with the repository's Prettier settings. */
export async function renderGenerated(): Promise<{ namespaces: string; api: string }> {
  const entries = namespaces();
  const docs = { markets: routerDocs('markets'), tournaments: routerDocs('tournaments') };
  const extensions = entries.flatMap((e) => (EXTENSIONS[e.name] ? [EXTENSIONS[e.name]!] : []));
  // The contract's named schemas, and the error codes (named here so answers do not repeat them).
  const named = { ErrorCode: ErrorCodeSchema, FieldErrors: FieldErrorsSchema, ...namedSchemas };
  const handWritten = {
    JsonValue: {
      schema: JsonValueSchema,
      declaration:
        'export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };',
    },
  };
  const collected: Collected = { emitter: createEmitter(named, handWritten), routes: [] };
  // Every named schema, in this order, whether or not a route answers it directly.
  for (const schema of Object.values(named)) collected.emitter.type(schema, 'output');

  const members = entries.map((e) =>
    routerMembers(e.router, pascal(e.name), e.host, `client.${e.name}`, '  ', collected),
  );
  const typeNames = [
    ...new Set(
      [...collected.routes, ...collected.emitter.declarations()]
        .join('\n')
        .match(/(?<=^export (?:interface|type) )\w+/gm),
    ),
  ];
  const used = (text: string) => {
    const code = text
      .split('\n')
      .filter((l) => !/^\s*(\/\*\*|\*)/.test(l))
      .join('\n');
    return typeNames.filter((n) => new RegExp(`\\b${n}\\b`).test(code));
  };

  const parts: string[] = [...HEADER, ...extensions.map((x) => `import type { ${x.type} } from '${x.from}';`)];
  const body: string[] = [];
  entries.forEach((e, i) => {
    const ext = EXTENSIONS[e.name];
    const doc = docs[e.host].get(e.key) || `Routes of the ${e.host} host's \`${e.key}\` router.`;
    body.push(
      '',
      comment([doc], ''),
      `export interface ${pascal(e.name)}Namespace${ext ? ` extends ${ext.type}` : ''} {`,
      ...members[i]!,
      '}',
    );
  });
  body.push(
    '',
    '/** The namespaces of `DuelkitClient`, one per contract router; the client binds them at construction. */',
    'export abstract class DuelkitNamespaces {',
  );
  for (const e of entries) {
    const doc = docs[e.host].get(e.key) || `Routes of the ${e.host} host's \`${e.key}\` router.`;
    body.push(comment([doc], '  '), `  declare readonly ${e.name}: ${pascal(e.name)}Namespace;`);
  }
  body.push('}', '');
  const bodyText = body.join('\n');
  parts.push(
    `import type { ${used(bodyText).join(', ')} } from './api.generated.js';`,
    "import type { Method, PaginatedMethod } from './core/types.js';",
    bodyText,
  );

  const api = [
    ...HEADER,
    '',
    ...collected.emitter.declarations().flatMap((d) => [d, '']),
    ...collected.routes.flatMap((d) => [d, '']),
  ].join('\n');
  return { namespaces: await format(parts.join('\n'), OUTPUT), api: await format(api, API_OUTPUT) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const generated = await renderGenerated();
  writeFileSync(API_OUTPUT, generated.api);
  writeFileSync(OUTPUT, generated.namespaces);
  console.log(`wrote ${API_OUTPUT} and ${OUTPUT}`);
}
