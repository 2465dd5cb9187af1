import { generateSchema } from '@anatine/zod-openapi';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { isAppRoute, isAppRouteOtherResponse } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from 'openapi3-ts';
import {
  ERROR_STATUS,
  EVENT_CATALOGUE,
  EVENT_VERSION,
  HEADER,
  enforcedAuth,
  marketsContract,
  namedSchemas,
  routeMeta,
  tournamentsContract,
  type AuthKind,
} from '../src/index.js';
import { EXAMPLES, type Example } from './openapi-examples.js';
import { TAG_DOCS, TAG_GROUPS, tagDescription } from './openapi-tags.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const SECURITY_SCHEMES = {
  builderKey: {
    type: 'apiKey',
    in: 'header',
    name: HEADER.builderApiKey,
    description: 'Builder API key identifying the calling application (tenant). One key works on both hosts.',
  },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'User JWT from the eoa/idp login flow (audience `duelkit:user`).',
  },
  adminAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Admin JWT from /svc/admin/auth/login (audience `duelkit:admin`); never accepted on user routes.',
  },
  adminChallenge: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'The `challengeToken` /svc/admin/auth/login answers when the admin has two-factor authentication on; ' +
      'accepted only by /svc/admin/auth/2fa/verify, which answers the session.',
  },
  walletAddress: {
    type: 'apiKey',
    in: 'header',
    name: HEADER.walletAddress,
    description: 'Wallet credential (tournaments host): the signing address. See docs/auth.md.',
  },
  walletSignature: {
    type: 'apiKey',
    in: 'header',
    name: HEADER.walletSignature,
    description: 'Wallet credential: EIP-191 signature of the fixed login message.',
  },
  walletTimestamp: {
    type: 'apiKey',
    in: 'header',
    name: HEADER.walletTimestamp,
    description: 'Wallet credential: milliseconds since the epoch, within 5 minutes of the server clock.',
  },
  bridgeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'x-bridge-signature',
    description:
      'Bridge provider webhook: `v1=<hex>`, HMAC-SHA256 with the shared secret of `<x-bridge-timestamp>.<raw body>` ' +
      '(several comma-separated `v1=` entries during a secret rotation). Sent together with x-bridge-timestamp.',
  },
  bridgeTimestamp: {
    type: 'apiKey',
    in: 'header',
    name: 'x-bridge-timestamp',
    description:
      'Bridge provider webhook: unix seconds when the delivery was signed; refused more than 5 minutes from the ' +
      'server clock. Sent together with x-bridge-signature.',
  },
} as const;

/**
 * The operation's `security`: each entry is one way to be let in, and lists every credential that
 * way needs (all of them). It states what the server enforces — `server/src/http/auth-surface.int.test.ts`
 * calls every operation without each credential and checks the refusal against this.
 */
export function securityFor(auth: AuthKind, personalised: boolean): Record<string, string[]>[] {
  switch (auth) {
    case 'public':
      return personalised ? [{ builderKey: [] }, { builderKey: [], bearerAuth: [] }] : [{ builderKey: [] }];
    case 'builder-only':
      return [{ builderKey: [] }];
    case 'bearer':
      return [{ builderKey: [], bearerAuth: [] }];
    case 'optional-bearer':
      return [{ builderKey: [], bearerAuth: [] }, { builderKey: [] }];
    case 'admin':
      return [{ builderKey: [], adminAuth: [] }];
    case 'admin-challenge':
      return [{ builderKey: [], adminChallenge: [] }];
    case 'jwt-or-wallet':
      return [
        { builderKey: [], bearerAuth: [] },
        { builderKey: [], walletAddress: [], walletSignature: [], walletTimestamp: [] },
      ];
    case 'webhook':
      return [{ bridgeSignature: [], bridgeTimestamp: [] }];
  }
}

const BUILDER_KEY = 'an application with a builder API key (`x-builder-api-key`)';

/** Who may call an operation, from the authentication the server enforces on it. */
export function whoMayCall(auth: AuthKind, personalised: boolean): string {
  switch (auth) {
    case 'public':
      return personalised
        ? `any caller from ${BUILDER_KEY}; a user's bearer token is optional and, when sent, personalises the answer`
        : `any caller from ${BUILDER_KEY}`;
    case 'builder-only':
      return `${BUILDER_KEY}; no user token is involved`;
    case 'optional-bearer':
      return `any caller from ${BUILDER_KEY}; a user's bearer token is optional and, when sent, must be valid`;
    case 'bearer':
      return `a signed-in user (user JWT as bearer token) of ${BUILDER_KEY}`;
    case 'admin':
      return `an admin (admin JWT as bearer token) with a builder API key (\`x-builder-api-key\`)`;
    case 'admin-challenge':
      return (
        'an admin midway through a two-factor login, with the `challengeToken` of /svc/admin/auth/login as bearer ' +
        'token and a builder API key (`x-builder-api-key`)'
      );
    case 'jwt-or-wallet':
      return `a user of ${BUILDER_KEY}, proven by a markets-host user JWT or by a wallet credential (\`x-wallet-*\` headers)`;
    case 'webhook':
      return 'the bridge provider, signing each delivery (`x-bridge-signature`, `x-bridge-timestamp`); no builder key';
  }
}

/** The credential refusals of an operation, from the authentication the server enforces on it. */
function credentialRefusals(auth: AuthKind, personalised: boolean): string {
  const key = '401 `BUILDER_KEY_INVALID` without a valid builder key';
  const token = '`UNAUTHENTICATED`, `TOKEN_EXPIRED` or `TOKEN_INVALID`';
  switch (auth) {
    case 'public':
      return personalised ? `${key}, 401 ${token} for a bearer token that is sent but not valid` : key;
    case 'builder-only':
      return key;
    case 'optional-bearer':
      return `${key}, 401 ${token} for a bearer token that is sent but not valid`;
    case 'bearer':
      return `${key}, 401 ${token} without a valid user token`;
    case 'admin':
      return `${key}, 401 ${token} or \`TOKEN_REVOKED\` without a valid admin token (a user token is refused)`;
    case 'admin-challenge':
      return `${key}, 401 ${token} or \`TOKEN_REVOKED\` without an unused login challenge token`;
    case 'jwt-or-wallet':
      return `${key}, 401 ${token} or \`WALLET_CREDENTIAL_INVALID\` without a valid user JWT or wallet credential`;
    case 'webhook':
      return '401 `SIGNATURE_INVALID` for a missing, stale or wrong signature';
  }
}

/**
 * The operation's description: the contract's own (what the route does and its particular
 * refusals), then who may call it and how it refuses, from the metadata the server enforces.
 */
export function describeOperation(description: string | undefined, auth: AuthKind, personalised: boolean): string {
  const access = [
    `**Who may call:** ${whoMayCall(auth, personalised)}.`,
    `**Refusals:** the \`ApiError\` body with a stable \`code\` (docs/errors.md): ${credentialRefusals(auth, personalised)}, ` +
      '400 `VALIDATION_FAILED` for input that does not match the schema, 429 with `Retry-After` when rate limited; ' +
      'each error response below lists the codes of its status.',
  ].join('\n\n');
  return description ? `${description.trim()}\n\n${access}` : access;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid credentials',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Idempotency key reused with a different request',
  429: 'Rate limited; wait Retry-After seconds',
  500: 'Unexpected server error (only the request id is exposed)',
  503: 'A dependency is unavailable; retry after Retry-After seconds',
};

function describeErrors(status: number): string {
  const codes = Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([code]) => `\`${code}\``);
  const base = ERROR_DESCRIPTIONS[status] ?? 'Error';
  return codes.length ? `${base}. Codes: ${codes.join(', ')}.` : base;
}

function mapOperation(operation: OperationObject, route: AppRoute): OperationObject {
  const m = routeMeta(route);
  const parameters = [...((operation.parameters as ParameterObject[] | undefined) ?? [])];
  if (m.idempotent && !parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === HEADER.idempotencyKey)) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'One key per logical operation (1-255 printable characters). The same key with the same body replays the stored response for 24 h; with a different body it is rejected with 422 IDEMPOTENCY_KEY_REUSED.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  parameters.push({
    name: 'x-request-id',
    in: 'header',
    required: false,
    description: 'Correlation id; echoed on the response. Generated when absent.',
    schema: { type: 'string', maxLength: 128 },
  });
  const responses = { ...operation.responses } as Record<
    string,
    { description?: string; headers?: unknown; content?: Record<string, unknown> }
  >;
  const ok = responses['200'];
  // A non-JSON answer (`c.otherResponse`: the event streams' `text/event-stream`) under its own media type.
  for (const [status, declared] of Object.entries(route.responses)) {
    const response = responses[status];
    if (response && isAppRouteOtherResponse(declared)) {
      const schema = fixNullable(generateSchema(declared.body as Parameters<typeof generateSchema>[0]) as Json);
      response.content = { [declared.contentType]: { schema } };
    }
  }
  if (m.csv && ok?.content) {
    ok.content = {
      ...ok.content,
      'text/csv': {
        schema: {
          type: 'string',
          description:
            "Every row the filters select (no paging), streamed: a header line with the report's columns, then one line " +
            'per row (RFC 4180). Asked for with `Accept: text/csv` or `format=csv`.',
        },
      },
    };
  }
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    if (code >= 400) response.description = describeErrors(code);
    if (code === 429 || code === 503) {
      response.headers = {
        'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
      };
    }
  }
  return {
    ...operation,
    description: describeOperation(route.description, enforcedAuth(m), m.personalised === true),
    tags: [m.tag],
    security: securityFor(enforcedAuth(m), m.personalised === true),
    parameters,
    responses: responses,
    'x-duelkit-auth': enforcedAuth(m),
    ...(m.enforced ? { 'x-duelkit-spec-auth': m.auth } : {}),
    'x-duelkit-idempotent': m.idempotent,
    ...(m.repeatable ? { 'x-duelkit-repeatable': true } : {}),
    'x-duelkit-spec-section': m.section,
    ...(m.personalised ? { 'x-duelkit-personalised': true } : {}),
    ...(m.geo ? { 'x-duelkit-geo': m.geo } : {}),
    ...(m.extension ? { 'x-duelkit-extension': true } : {}),
    ...(m.csv ? { 'x-duelkit-csv': true } : {}),
  };
}

function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k] as Json)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * zod's `unknown()` comes out as `{ nullable: true }` with no type, which OpenAPI 3.0 does not
 * allow; an empty schema already means "any JSON value".
 */
function fixNullable(input: Json): Json {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  let node: { [key: string]: Json } = input;
  // OpenAPI 3.0 wants boolean exclusive bounds beside minimum/maximum, not 3.1's numbers.
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = node[exclusive];
    if (typeof value === 'number') node = { ...node, [bound]: value, [exclusive]: true };
  }
  if (node['nullable'] === true && node['type'] === undefined) {
    const { nullable: _dropped, ...rest } = node;
    if (!rest['anyOf'] && !rest['oneOf'] && !rest['allOf'] && !rest['$ref']) return rest;
    return { ...rest, nullable: true, type: 'object' };
  }
  return node;
}

/** Replaces inline copies of named schemas with `$ref`s, top-down so the largest match wins. */
function refNamedSchemas(doc: OpenAPIObject): void {
  const byShape = new Map<string, string>();
  const components: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(namedSchemas)) {
    const raw: unknown = generateSchema(schema);
    const json = fixNullable(raw as Json);
    byShape.set(canonical(json), name);
    components[name] = json;
  }
  const used = new Set<string>();
  const walk = (input: Json, isRoot: boolean): Json => {
    const node = fixNullable(input);
    if (!node || typeof node !== 'object') return node;
    if (!isRoot && !Array.isArray(node)) {
      const name = byShape.get(canonical(node));
      if (name) {
        used.add(name);
        return { $ref: `#/components/schemas/${name}` };
      }
    }
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v, false);
    return out;
  };
  doc.paths = walk(doc.paths, true) as OpenAPIObject['paths'];
  const schemas: Record<string, SchemaObject> = {};
  // Components may reference each other; walk each one's children but keep its own root.
  let grew = true;
  while (grew) {
    grew = false;
    for (const name of [...used]) {
      if (schemas[name]) continue;
      schemas[name] = walk(components[name] as Json, true) as SchemaObject;
      grew = true;
    }
  }
  doc.components = { ...doc.components, schemas: Object.fromEntries(Object.entries(schemas).sort()) };
}

function tagsOf(router: AppRouter): Set<string> {
  const tags = new Set<string>();
  const visit = (r: AppRouter | AppRoute) => {
    if (isAppRoute(r)) tags.add(routeMeta(r).tag);
    else Object.values(r).forEach((child) => visit(child));
  };
  visit(router);
  return tags;
}

/**
 * The host's tags in reading order with their descriptions, and Redoc's `x-tagGroups` over them
 * (Swagger UI, which GET /docs serves, lists tags in the order of `tags`).
 */
function tagsFor(
  router: AppRouter,
): Pick<OpenAPIObject, 'tags'> & { 'x-tagGroups': { name: string; tags: string[] }[] } {
  const used = tagsOf(router);
  const undocumented = [...used].filter((name) => !TAG_DOCS.some((t) => t.name === name));
  if (undocumented.length) throw new Error(`tags without an entry in openapi-tags.ts: ${undocumented.join(', ')}`);
  const docs = TAG_GROUPS.flatMap((group) => TAG_DOCS.filter((t) => t.group === group && used.has(t.name)));
  return {
    tags: docs.map((t) => ({ name: t.name, description: tagDescription(t) })),
    'x-tagGroups': TAG_GROUPS.map((group) => ({
      name: group,
      tags: docs.filter((t) => t.group === group).map((t) => t.name),
    })).filter((g) => g.tags.length > 0),
  };
}

/** The security schemes some operation of the document uses, in {@link SECURITY_SCHEMES} order. */
function usedSecuritySchemes(doc: OpenAPIObject): Partial<typeof SECURITY_SCHEMES> {
  const used = new Set<string>();
  for (const item of Object.values(doc.paths) as Record<string, OperationObject>[]) {
    for (const op of Object.values(item)) {
      for (const requirement of op.security ?? []) Object.keys(requirement).forEach((name) => used.add(name));
    }
  }
  return Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => used.has(name)));
}

/**
 * zod's discriminated unions come out as `oneOf` + `discriminator` with inline members. A
 * discriminator selects members by schema name (or a mapping to `$ref`s), so it cannot select
 * inline ones, and a boolean discriminator (`success`, `valid`) is not one OpenAPI allows at all.
 * The members' `enum` on the discriminating property already tells them apart, so the keyword is
 * dropped where a member is inline.
 */
function dropUnusableDiscriminators(input: Json): Json {
  if (Array.isArray(input)) return input.map(dropUnusableDiscriminators);
  if (!input || typeof input !== 'object') return input;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(input)) out[k] = dropUnusableDiscriminators(v);
  const members = out['oneOf'] ?? out['anyOf'];
  if (
    out['discriminator'] &&
    Array.isArray(members) &&
    members.some((m) => !(m && typeof m === 'object' && '$ref' in m))
  ) {
    delete out['discriminator'];
  }
  return out;
}

type MediaTypes = Record<string, { examples?: Record<string, { summary: string; value: unknown }> }>;

function putExamples(content: MediaTypes | undefined, examples: readonly Example[], where: string): void {
  const media = content?.['application/json'];
  if (!media) throw new Error(`${where}: no application/json content to put examples on`);
  media.examples = Object.fromEntries(examples.map((e) => [e.name, { summary: e.summary, value: e.value }]));
}

/** Puts the examples of openapi-examples.ts on the operations of this document that have some. */
function addExamples(doc: OpenAPIObject): void {
  for (const [key, examples] of Object.entries(EXAMPLES)) {
    const [method = '', path = ''] = key.split(' ');
    const item = doc.paths[path.replace(/:(\w+)/g, '{$1}')] as Record<string, OperationObject> | undefined;
    const op = item?.[method.toLowerCase()];
    if (!op) continue; // a route of the other host
    if (examples.request) {
      const body = op.requestBody as { content?: MediaTypes } | undefined;
      putExamples(body?.content, examples.request, `${key} request`);
    }
    for (const [status, list] of Object.entries(examples.responses ?? {})) {
      const response = op.responses[status] as { content?: MediaTypes } | undefined;
      putExamples(response?.content, list, `${key} ${status}`);
    }
  }
}

const INFO_DESCRIPTION: Record<'markets' | 'tournaments', string> = {
  markets:
    'The Duelkit markets host: accounts and sign-in, prediction markets ("duels") and their trading, private ' +
    'markets, money movement, packs, statistics and administration.\n\n' +
    'Every operation needs the builder API key of your application (`x-builder-api-key`) except the bridge webhook; ' +
    'user operations also take the user JWT from the sign-in flow (docs/auth.md). Amounts are decimal strings in ' +
    'base units (18 decimals), times ISO 8601. Writes that move money accept an `Idempotency-Key`. Every error ' +
    'answers the `ApiError` body with a stable `code` (docs/errors.md). Guides for each area are under docs/ in the ' +
    'repository and served at /docs beside this reference; @duelkit/sdk is the typed client (docs/sdk.md).',
  tournaments:
    'The Duelkit tournaments host: paid prediction tournaments on football, sports data, and their administration.\n\n' +
    'Every operation needs the builder API key of your application (`x-builder-api-key`); a player proves who they ' +
    'are with a markets-host user JWT or a wallet credential (docs/auth.md). Amounts are decimal strings in base ' +
    'units, times ISO 8601. Every error answers the `ApiError` body with a stable `code` (docs/errors.md). The ' +
    'guide is docs/tournaments.md, served at /docs beside this reference; @duelkit/sdk is the typed client ' +
    '(docs/sdk.md).',
};

function build(router: AppRouter, host: 'markets' | 'tournaments', title: string, port: number): OpenAPIObject {
  const doc = generateOpenApi(
    router,
    {
      info: {
        title,
        version: '0.1.0',
        description: INFO_DESCRIPTION[host],
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [
        {
          url: '/',
          description:
            `The host that serves this document (GET /openapi.json); locally http://localhost:${port}. ` +
            'Generated clients take the base URL of your deployment.',
        },
      ],
      ...tagsFor(router),
    },
    { setOperationId: 'concatenated-path', operationMapper: mapOperation },
  );
  doc.components = { securitySchemes: usedSecuritySchemes(doc) };
  refNamedSchemas(doc);
  doc.paths = dropUnusableDiscriminators(doc.paths) as OpenAPIObject['paths'];
  doc.components.schemas = dropUnusableDiscriminators(doc.components.schemas as Json) as Record<string, SchemaObject>;
  addExamples(doc);
  if (host === 'markets') Object.assign(doc, { 'x-duelkit-events': eventCatalogue() });
  return doc;
}

/**
 * The outbound event catalogue (docs/events.md). OpenAPI 3.0 has no `webhooks` section (3.1 added
 * it), so the catalogue is a documented extension: each type's envelope and `data` schema.
 */
function eventCatalogue(): Json {
  return {
    description:
      'Events delivered by signed webhooks (header `Duelkit-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of ' +
      '"<t>.<raw body>">`) and by the event stream, each `{ id, seq, type, version, createdAt, builderAppId, data }`. ' +
      'See docs/events.md.',
    version: EVENT_VERSION,
    types: Object.fromEntries(
      Object.entries(EVENT_CATALOGUE).map(([type, entry]) => [
        type,
        { description: entry.description, data: fixNullable(generateSchema(entry.data) as Json) },
      ]),
    ),
  };
}

/** Both hosts' OpenAPI documents, exactly as committed under docs/openapi/. */
export function generateDocuments(): Record<'markets' | 'tournaments', OpenAPIObject> {
  return {
    markets: build(marketsContract, 'markets', 'Duelkit markets API', 3000),
    tournaments: build(tournamentsContract, 'tournaments', 'Duelkit tournaments API', 3001),
  };
}

/** Serialised form written to disk: stable key order from the generator, two-space indent. */
export function serialise(doc: OpenAPIObject): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
