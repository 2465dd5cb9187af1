/**
 * `pnpm duels:canonical --duel-id 0x… --ext-id <external market id> --volume <base units> [--live] [--off]`
 * Marks a credits duel as mirroring an external market (or unmarks it with --off), on the running
 * server, until the external-market sync does this by itself.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { callOperator, runCommand } from './operator-client.js';

const { values } = parseArgs({
  options: {
    'duel-id': { type: 'string' },
    'ext-id': { type: 'string' },
    volume: { type: 'string' },
    live: { type: 'boolean', default: false },
    off: { type: 'boolean', default: false },
  },
  strict: true,
});
const args = z
  .object({
    'duel-id': z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'the on-chain duelId'),
    'ext-id': z.string().min(1).max(100).optional(),
    volume: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,77})$/, 'base units as a decimal integer')
      .optional(),
    live: z.boolean(),
    off: z.boolean(),
  })
  .refine((a) => a.off || (a['ext-id'] && a.volume), { message: '--ext-id and --volume are required unless --off' })
  .safeParse(values);
if (!args.success) {
  console.error('usage: pnpm duels:canonical --duel-id 0x… --ext-id <id> --volume <base units> [--live] [--off]');
  console.error(args.error.issues.map((i) => `  ${i.path.join('.') || 'args'}: ${i.message}`).join('\n'));
  process.exit(2);
}
const a = args.data;
await runCommand(async () => {
  await callOperator('/operator/canonical-duels', {
    duelId: a['duel-id'],
    ...(a['ext-id'] ? { extId: a['ext-id'] } : {}),
    ...(a.volume ? { volume: a.volume } : {}),
    live: a.live,
    off: a.off,
  });
  console.log(a.off ? `duel ${a['duel-id']} is no longer canonical` : `duel ${a['duel-id']} is canonical`);
});
