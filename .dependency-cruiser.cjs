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
const REPOSITORY = '\\.repository\\.ts$';
const ENTITIES = '\\.entit(y|ies)\\.ts$';
const COMPOSITION_ROOT = '^server/src/(container|app|main|server|entities)\\.ts$';

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
      name: 'platform-knows-no-area',
      comment:
        'The shared machinery (platform/) serves every area and knows none of them: what it needs from an area ' +
        '(its tables, its event sinks) the wiring hands it. Each area exports its entity list ' +
        '(areas/<area>/<area>.entities.ts) and server/src/entities.ts assembles them.',
      severity: 'error',
      from: { path: '^server/src/platform/', pathNot: [TEST, TEST_KIT] },
      to: { path: '^server/src/areas/' },
    },
    {
      name: 'http-receives-services',
      comment:
        'Routes and middleware receive the services they call as a deps object (app.ts and server.ts pick them ' +
        'from the container); they never import the Container type or any other part of the wiring.',
      severity: 'error',
      from: { path: '^server/src/http/', pathNot: [TEST, TEST_KIT] },
      to: { path: COMPOSITION_ROOT },
    },
    {
      name: 'http-not-to-adapters',
      comment:
        'The HTTP layer reaches I/O through the services and ports container.ts builds and app.ts hands over: it ' +
        'imports nothing under adapters/, not even a port type (what the tournaments admin link and the local ' +
        'uploads need sits in their areas).',
      severity: 'error',
      from: { path: '^server/src/http/', pathNot: [TEST, TEST_KIT] },
      to: { path: '^server/src/adapters/' },
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
      name: 'sql-only-in-repositories',
      comment:
        'The SQL helpers and the ORM bootstrap (platform/db/sql.ts, platform/db/orm.ts) are imported by ' +
        'repositories (*.repository.ts), platform/db itself (migrations included), SQL fragment builders shared ' +
        "by one area's repositories (*.sql.ts), the wiring and the database commands (cli/). A type alone " +
        '(an Orm handed through) is fine anywhere.',
      severity: 'error',
      from: {
        path: '^server/src/',
        pathNot: [
          TEST,
          TEST_KIT,
          REPOSITORY,
          '\\.sql\\.ts$',
          '^server/src/platform/db/',
          '^server/src/cli/',
          COMPOSITION_ROOT,
        ],
      },
      to: { path: '^server/src/platform/db/(sql|orm)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'orm-only-in-repositories',
      comment:
        'MikroORM (@mikro-orm/*) is imported by repositories, entity mappings (*.entity.ts, *.entities.ts), ' +
        'platform/db, the wiring and the database commands. A type alone (an EntityManager handed through to a ' +
        'repository) is fine anywhere.',
      severity: 'error',
      from: {
        path: '^server/src/',
        pathNot: [
          TEST,
          TEST_KIT,
          REPOSITORY,
          ENTITIES,
          '^server/src/platform/db/',
          '^server/src/cli/',
          COMPOSITION_ROOT,
        ],
      },
      to: { path: '@mikro-orm/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'abi-only-in-chain-adapters',
      comment:
        'Contract ABIs (adapters/chain/artifacts) and the calldata built from them belong to the chain adapters: ' +
        'a service that answers a call for a client to send asks its port for it (e.g. PrizeVaultPort.claimCall).',
      severity: 'error',
      from: { path: '^server/src/', pathNot: [TEST, TEST_KIT, '^server/src/adapters/chain/'] },
      to: { path: '^server/src/adapters/chain/artifacts/' },
    },
    {
      name: 'no-viem-chains-index',
      comment:
        '`viem/chains` is the index of every chain viem knows: importing one chain from it loads 742 modules at the ' +
        "server's start (300 ms of CPU). Define the chain with viem's defineChain instead.",
      severity: 'error',
      from: { path: '^server/src/', pathNot: [TEST, TEST_KIT] },
      to: { path: '/viem/_(esm|cjs)/chains/index\\.js$' },
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
        "chain's RPC (e2e/support.ts starts the server as a process). They import nothing of the server.",
      severity: 'error',
      from: { path: '^e2e/' },
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
    // The generated contract artifacts are not followed (they are large) but stay in the graph, so the ABI rule sees them.
    doNotFollow: { path: ['node_modules', '^server/src/adapters/chain/artifacts/'] },
    // The guides test's generated files come and go in examples/ while the checks run beside the tests.
    exclude: { path: ['(^|/)dist/', '^examples/\\.guides-check-'] },
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
