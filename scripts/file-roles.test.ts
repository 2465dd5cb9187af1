/**
 * Every source file of the server says its role: by a suffix (`*.service.ts`, `*.repository.ts`,
 * `*.port.ts`, `*.adapter.ts`, `*.routes.ts`…) or by sitting in a folder whose README.md names the
 * role of its files (the wiring in server/src, cli/, http/middleware/, migrations, contract
 * artifacts). The import rules of .dependency-cruiser.cjs match these suffixes, so a file without
 * one would escape them. CONTRIBUTING.md, "Boundaries", lists the suffixes.
 *
 * UNSUFFIXED lists the files that predate the rule: it may only shrink (a renamed file must leave
 * it), and a new file must take a suffix.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'server/src');

export const ROLE_SUFFIXES = [
  'service',
  'repository',
  'entity',
  'entities',
  'port',
  'adapter',
  'routes',
  'router',
  'mapper',
  'types',
  'job',
  'math',
  'queries',
  'sql',
  'protocol',
  'test-kit',
  'columns',
  'cache',
  'client',
  'breaker',
  'server',
  'internal',
  'pipeline',
  'reconciler',
  'schema',
  'calendar',
  'data',
  'gate',
  'context',
  'store',
  'archive',
  'wiring',
  'season',
  'rules',
  'script',
] as const;

const SUFFIXED = new RegExp(`\\.(${ROLE_SUFFIXES.join('|')})\\.ts$`);

/** Files without a role suffix, outside a folder with a README; to be renamed, never added to. */
const UNSUFFIXED: readonly string[] = [
  'server/src/adapters/chain/chain-connection.ts',
  'server/src/adapters/chain/chain-identity.ts',
  'server/src/adapters/chain/chain-writer.ts',
  'server/src/adapters/chain/compile.ts',
  'server/src/adapters/chain/embedded-chain.ts',
  'server/src/adapters/chain/market-event-reader.ts',
  'server/src/adapters/chain/market-events.ts',
  'server/src/adapters/chain/revert-errors.ts',
  'server/src/adapters/chain/viem-tx-node.ts',
  'server/src/areas/analytics/chart-window.ts',
  'server/src/areas/analytics/pnl-replay.ts',
  'server/src/areas/identity/image-type.ts',
  'server/src/areas/identity/managed-signers.ts',
  'server/src/areas/identity/managed-wallet.ts',
  'server/src/areas/identity/principal.ts',
  'server/src/areas/identity/secret-box.ts',
  'server/src/areas/identity/totp.ts',
  'server/src/areas/identity/wallet-credential.ts',
  'server/src/areas/invitations/invite-code.ts',
  'server/src/areas/invitations/membership-directory.ts',
  'server/src/areas/markets/bet-quotes.ts',
  'server/src/areas/markets/bet-rejection.ts',
  'server/src/areas/markets/duel-state.ts',
  'server/src/areas/markets/market-access.ts',
  'server/src/areas/markets/market-creator.ts',
  'server/src/areas/markets/market-indexer.ts',
  'server/src/areas/markets/market-jobs.ts',
  'server/src/areas/markets/quote-signer.ts',
  'server/src/areas/money/money.ts',
  'server/src/areas/packs/pack-claim-relayer.ts',
  'server/src/areas/packs/pack-scoring.ts',
  'server/src/areas/packs/pack-standings.ts',
  'server/src/areas/packs/pack-tick.ts',
  'server/src/areas/packs/packs.ts',
  'server/src/areas/settlement/market-settings.ts',
  'server/src/areas/settlement/settlement-tasks.ts',
  'server/src/areas/sports/sports-limits.ts',
  'server/src/areas/sports/sports-request.ts',
  'server/src/areas/tournaments/deposit-verifier.ts',
  'server/src/areas/tournaments/tournament-format.ts',
  'server/src/areas/tournaments/tournament-payout-table.ts',
  'server/src/areas/tournaments/tournament-results.ts',
  'server/src/areas/tournaments/tournament-schedule.ts',
  'server/src/areas/tournaments/tournament-timeouts.ts',
  'server/src/areas/tournaments/tournament-windows.ts',
  'server/src/areas/tournaments/tournaments.ts',
  'server/src/areas/tournaments/vault-pools.ts',
  'server/src/http/client-error.ts',
  'server/src/http/docs/reference-page.ts',
  'server/src/http/drain.ts',
  'server/src/http/principal.ts',
  'server/src/http/request-context.ts',
  'server/src/http/response-schema-error.ts',
  'server/src/http/send-error.ts',
  'server/src/platform/canonical-json.ts',
  'server/src/platform/chain-tx/serial-queue.ts',
  'server/src/platform/clock.ts',
  'server/src/platform/db/durability.ts',
  'server/src/platform/db/embedded-postgres.ts',
  'server/src/platform/db/migration-lock.ts',
  'server/src/platform/db/orm.ts',
  'server/src/platform/db/sql.ts',
  'server/src/platform/geo/geo-gate.ts',
  'server/src/platform/geo/region.ts',
  'server/src/platform/idempotency/idempotent-run.ts',
  'server/src/platform/jobs/job-engine.ts',
  'server/src/platform/jobs/lease.ts',
  'server/src/platform/merkle/claim-proof.ts',
  'server/src/platform/merkle/distribution-book.ts',
  'server/src/platform/merkle/merkle-tree.ts',
  'server/src/platform/operator/operator-credential.ts',
  'server/src/platform/outage/circuit-breaker.ts',
  'server/src/platform/outage/infrastructure-error.ts',
  'server/src/platform/rate-limit/rate-limiter.ts',
  'server/src/platform/secrets/embedded-secrets.ts',
  'server/src/platform/signing/secp256k1.ts',
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const unsuffixed = sources(SRC)
  .filter((path) => !SUFFIXED.test(path) && !existsSync(join(dirname(path), 'README.md')))
  .map((path) => relative(ROOT, path).split('\\').join('/'))
  .sort();

describe('every server source file has a role', () => {
  it('by a suffix or a README in its folder (no new file without one)', () => {
    expect(unsuffixed.filter((f) => !UNSUFFIXED.includes(f))).toEqual([]);
  });

  it('the list of older unsuffixed files only shrinks (remove a renamed file from it)', () => {
    expect(UNSUFFIXED.filter((f) => !unsuffixed.includes(f))).toEqual([]);
  });
});
