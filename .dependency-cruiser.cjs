/**
 * Import boundaries of the repository, checked by `pnpm boundaries` (part of `pnpm lint` and
 * `pnpm test`). The layout and what each folder may import are described in CONTRIBUTING.md.
 *
 * Test files (`*.test.ts`) and the test kits beside them (`*.test-kit.ts`) sit beside the code
 * they test but are not part of its layer: they may start a whole server or build real adapters,
 * so the layer rules do not apply to them. The cycle rule does.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
const TEST = '\\.test\\.ts$';
const TEST_KIT = '\\.test-kit\\.ts$';
const COMPOSITION_ROOT = '^server/src/(container|app|main|server)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'domain-not-to-http',
      comment: 'Areas and platform code never import the HTTP layer: services take plain values and throw DomainError.',
      severity: 'error',
      from: { path: '^server/src/(areas|platform)/', pathNot: [TEST, TEST_KIT] },
      to: { path: '^server/src/http/' },
    },
    {
      name: 'domain-not-to-composition-root',
      comment:
        'Areas and platform code never import the wiring (container, app, main, server): they receive their dependencies.',
      severity: 'error',
      from: { path: '^server/src/(areas|platform)/', pathNot: [TEST, TEST_KIT] },
      to: { path: COMPOSITION_ROOT },
    },
    {
      name: 'adapters-not-to-http',
      comment: 'Adapters implement a port; they never import the HTTP layer or the wiring.',
      severity: 'error',
      from: { path: '^server/src/adapters/', pathNot: [TEST, TEST_KIT] },
      to: { path: ['^server/src/http/', COMPOSITION_ROOT] },
    },
    {
      name: 'only-the-container-picks-adapters',
      comment:
        'Concrete adapters (*.adapter.ts) are chosen and built in container.ts alone; everything else depends on their port.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: [TEST, TEST_KIT, COMPOSITION_ROOT, '^server/src/adapters/'] },
      to: { path: '^server/src/adapters/.+\\.adapter\\.ts$' },
    },
    {
      name: 'services-query-through-repositories',
      comment:
        'Area services hold the rules; every query sits in a repository (or a *.queries.ts read model), so a service never touches the ORM or raw SQL.',
      severity: 'error',
      from: { path: '^server/src/areas/.+\\.service\\.ts$' },
      to: { path: '^server/src/platform/db/(orm|sql)\\.ts$' },
    },
    {
      name: 'services-not-to-the-orm',
      comment: 'As above; a type alone (an EntityManager handed through to a repository) is fine.',
      severity: 'error',
      from: { path: '^server/src/areas/.+\\.service\\.ts$' },
      to: { path: '@mikro-orm/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'packages-not-to-server',
      comment: 'The contract and the SDK are published packages: they import nothing of the server.',
      severity: 'error',
      from: { path: '^(contract|sdk)/' },
      to: { path: '^server/' },
    },
    {
      name: 'contract-not-to-sdk',
      comment: 'The SDK builds on the contract, never the other way round.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^sdk/' },
    },
    {
      name: 'e2e-black-box',
      comment:
        'End-to-end tests use what a builder has: the SDK, public HTTP, the operator surface and the embedded ' +
        "chain's RPC (e2e/support.ts starts the server as a process). They import nothing of the server. " +
        'Exceptions, still on the in-process server: the three tournaments files and racing (they inject a test clock for the ' +
        "sports fakes' calendars) and private-markets (it moves the server's clock past an invitation's expiry).",
      severity: 'error',
      from: {
        path: '^e2e/',
        pathNot: [
          '^e2e/tournaments\\.e2e\\.test\\.ts$',
          '^e2e/tournaments-cancel\\.e2e\\.test\\.ts$',
          '^e2e/tournaments-close\\.e2e\\.test\\.ts$',
          '^e2e/racing\\.e2e\\.test\\.ts$',
          '^e2e/private-markets\\.e2e\\.test\\.ts$',
        ],
      },
      to: { path: '^server/(src|test)/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included: split the shared part into a module of its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '^server/src/adapters/chain/artifacts/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['duelkit-source', 'import', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
