/**
 * `pnpm keys:create --name <name> --tier team|selfserve [--app <builderAppId>] [--quiet]`
 * Creates a builder API key on the running server (in a new builder app unless --app names one)
 * and prints it once; `--quiet` prints the key alone, for `KEY=$(pnpm -s keys:create … --quiet)`.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { callOperator, runCommand } from './operator-client.js';

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    tier: { type: 'string' },
    app: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});
const args = z
  .object({
    name: z.string().min(1).max(200),
    tier: z.enum(['team', 'selfserve']),
    app: z.string().uuid().optional(),
    quiet: z.boolean(),
  })
  .safeParse(values);
if (!args.success) {
  console.error('usage: pnpm keys:create --name <name> --tier team|selfserve [--app <builderAppId>] [--quiet]');
  console.error(args.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n'));
  process.exit(2);
}
const { quiet, ...request } = args.data;
await runCommand(async () => {
  const created = await callOperator<{ builderAppId: string; keyId: string; tier: string; key: string }>(
    '/operator/builder-keys',
    request,
  );
  if (quiet) {
    console.log(created.key);
    return;
  }
  console.log(`builder app: ${created.builderAppId}`);
  console.log(`key id:      ${created.keyId}`);
  console.log(`tier:        ${created.tier}`);
  console.log(`key:         ${created.key}`);
  console.log('Store the key now: it is kept only as a hash and cannot be shown again.');
});
