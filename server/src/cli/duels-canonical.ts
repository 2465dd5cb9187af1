/**
 * `pnpm duels:canonical --duel-id 0x… --ext-id <external market id> --volume <base units> [--live] [--off]`
 * Marks a credits duel as mirroring an external market (or unmarks it with --off), until the
 * external-market sync does this by itself.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { DuelRepository } from '../areas/markets/duel.repository.js';
import { openDatabase } from './database.js';

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
const db = await openDatabase(loadConfig());
try {
  const a = args.data;
  const result = await new DuelRepository(db.orm).markCanonical(
    a['duel-id'],
    a.off ? null : { extMarketId: a['ext-id'] as string, volume24h: BigInt(a.volume as string), live: a.live },
  );
  if (result === 'not_found') {
    console.error(`no duel ${a['duel-id']}`);
    process.exit(1);
  }
  if (result === 'not_credits') {
    console.error('canonical duels are credits duels; this one settles in usdc');
    process.exit(1);
  }
  console.log(a.off ? `duel ${a['duel-id']} is no longer canonical` : `duel ${a['duel-id']} is canonical`);
} finally {
  await db.close();
}
